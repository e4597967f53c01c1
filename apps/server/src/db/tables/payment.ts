import { SUBSCRIPTION_STATUSES } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { robotLicenses } from './license.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** What a checkout line sold, priced by the server from the catalogue (docs/architecture.md#commerce). */
export interface SessionLine {
  product_id: string;
  price_id: string;
  name: string;
  /** driver, plan or time (BOW_SORTING / BOW_PRICING of the product) */
  kind: 'driver' | 'plan' | 'time';
  quantity: number;
  /** minor units, the catalogue's price (the tier's price for a time package) */
  unit_amount: number;
  /** recurring interval of the price; null for a one-time price */
  interval: 'day' | 'week' | 'month' | 'year' | null;
}

/** Billing details the hosted checkout collected (the sandbox's form, Stripe's customer details). */
export interface BillingDetails {
  name: string;
  email: string;
  line1: string;
  city: string;
  postcode: string;
  country: string;
  /** set on the sandbox billing page; shown on receipts */
  company?: string;
  vatNumber?: string;
}

/** A user's payment-provider customer id (GetCustomerID), one per user and provider. */
export const paymentCustomers = pgTable('payment_customers', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  customerId: text('customer_id').notNull().unique(),
  provider: text('provider', { enum: ['sandbox', 'stripe'] }).notNull(),
  /** the latest billing details: the checkout's, then the sandbox billing page's (receipts show them) */
  billing: jsonb('billing').$type<BillingDetails>(),
  /** the sandbox's card on file: its last four digits, and whether charges to it fail (a test card) */
  cardLast4: text('card_last4'),
  cardDeclines: boolean('card_declines').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** A checkout session as HandlePurchase created it: the server's prices, never the client's. */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    /** the provider's session id (cs_sandbox_… or Stripe's cs_…) */
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** the buyer's address when the session was made: where the receipt goes */
    userEmail: text('user_email').notNull(),
    provider: text('provider', { enum: ['sandbox', 'stripe'] }).notNull(),
    customerId: text('customer_id').notNull(),
    /** the billing intent written before the provider was called (its key made the session) */
    intentId: uuid('intent_id'),
    lines: jsonb('lines').$type<SessionLine[]>().notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    url: text('url').notNull(),
    status: text('status', { enum: ['open', 'paid', 'expired'] })
      .notNull()
      .default('open'),
    billing: jsonb('billing').$type<BillingDetails>(),
    /** the provider's subscription id when the session sold recurring lines */
    providerSubscriptionId: text('provider_subscription_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('checkout_sessions_user_idx').on(t.userId)],
);

/**
 * One row per fulfilled session: its primary key is what makes fulfilment happen once, whichever of
 * the webhook, the success page or the sandbox's Pay comes first (docs/decisions/017).
 */
export const fulfilments = pgTable('fulfilments', {
  sessionId: text('session_id')
    .primaryKey()
    .references(() => checkoutSessions.id, { onDelete: 'cascade' }),
  fulfilledAt: ts('fulfilled_at').notNull(),
});

/** Each payment-provider webhook event id, recorded once: a replay changes nothing. */
export const providerEvents = pgTable('provider_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: ts('received_at').notNull(),
});

/**
 * spec/001 §3 robot-driver subscriptions: one per robot-driver license sold (docs/decisions/018).
 * Kept apart from `subscriptions`, whose active rows decide the tier.
 */
export const robotDriverSubscriptions = pgTable(
  'robot_driver_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    robotLicenseId: uuid('robot_license_id')
      .notNull()
      .unique()
      .references(() => robotLicenses.id, { onDelete: 'cascade' }),
    assetId: text('asset_id').notNull().default(''),
    /** the checkout session that sold it; null for demo or operator rows */
    sessionId: text('session_id').references(() => checkoutSessions.id, { onDelete: 'set null' }),
    /** the provider's subscription id ('' in the sandbox) */
    stripeId: text('stripe_id').notNull().default(''),
    stripeCustomerId: text('stripe_customer_id').notNull().default(''),
    /** seconds from created_at to the end of the current period: a renewal adds a year */
    durationS: integer('duration_s').notNull(),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull().default('pending_assignment'),
    /** the price it renews at ('' for demo or operator rows) */
    priceId: text('price_id').notNull().default(''),
    /** the customer cancelled at the period's end: still active until then */
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** as subscriptions.payment_failed_at: a renewal failed, the provider still retries */
    paymentFailedAt: ts('payment_failed_at'),
    paymentAttempts: integer('payment_attempts').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('robot_driver_subscriptions_user_idx').on(t.userId),
    index('robot_driver_subscriptions_stripe_idx').on(t.stripeId),
  ],
);

/** A payment line as receipts show it. */
export interface PaymentLine {
  name: string;
  quantity: number;
  /** minor units */
  unit_amount: number;
}

/**
 * Every charge: a paid checkout, a renewal, a plan change, or a renewal that failed
 * (docs/decisions/019). Receipts and refunds are of these rows.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['sandbox', 'stripe'] }).notNull(),
    kind: text('kind', { enum: ['checkout', 'renewal', 'plan_change'] }).notNull(),
    /** the checkout session it paid; null for a renewal */
    sessionId: text('session_id').references(() => checkoutSessions.id, { onDelete: 'set null' }),
    /** the provider's subscription it renewed or changed */
    subscriptionRef: text('subscription_ref'),
    /** what the provider refunds against: a payment intent (pi_…), an invoice (in_…), or the sandbox's id */
    providerRef: text('provider_ref').notNull().default(''),
    description: text('description').notNull(),
    lines: jsonb('lines').$type<PaymentLine[]>().notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['paid', 'failed'] }).notNull(),
    refundedAmount: integer('refunded_amount').notNull().default(0),
    /** when a whole refund took back what it granted (once) */
    revokedAt: ts('revoked_at'),
    /** billing details when it was charged: the receipt shows them */
    billing: jsonb('billing').$type<BillingDetails>(),
    /** the provider's own id of the charge (an invoice id): a replayed event records it once */
    externalId: text('external_id').unique(),
    /**
     * Stripe's PaymentIntent of the charge (subscription invoices included): a charge.refunded or
     * charge.dispute.* event finds its row by it without an API call (issue 31).
     */
    paymentIntentId: text('payment_intent_id'),
    /** a dispute of the charge: open (what it granted is inactive), won (active again), lost (revoked) */
    disputeStatus: text('dispute_status', { enum: ['open', 'won', 'lost'] }),
    disputeId: text('dispute_id'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('payments_user_idx').on(t.userId, t.createdAt),
    index('payments_payment_intent_idx').on(t.paymentIntentId),
    // the console finds a customer by a prefix of our payment id or Stripe's PaymentIntent (issue 35)
    index('payments_id_prefix_idx').on(sql`(${t.id}::text) text_pattern_ops`),
    index('payments_payment_intent_prefix_idx').on(sql`lower(${t.paymentIntentId}) text_pattern_ops`),
  ],
);

/**
 * Each refund of a payment, by the provider's refund id: one made in the portal is stored under the
 * id Stripe gave it, so the charge.refunded event it causes finds it and changes nothing.
 */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    /** re_… (Stripe) or the sandbox's id; null while the refund's intent waits for the provider */
    providerRefundId: text('provider_refund_id').unique(),
    amount: integer('amount').notNull(),
    /** portal: an operator's refund here; provider: made at the provider (the Stripe Dashboard) */
    source: text('source', { enum: ['portal', 'provider'] }).notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('payment_refunds_payment_idx').on(t.paymentId)],
);

/**
 * An intent to change money at the provider (a checkout, a plan change, a refund), written before
 * the provider is called: the provider write's idempotency key is derived from this row's id, so a
 * repeated intent is a new key and a retried request the same one (issue 31, decision record).
 */
export const billingIntents = pgTable(
  'billing_intents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['checkout', 'plan_change', 'refund'] }).notNull(),
    /** pending: written, provider not yet answered; done; failed (the provider refused); cancelled (Back) */
    status: text('status', { enum: ['pending', 'done', 'failed', 'cancelled'] })
      .notNull()
      .default('pending'),
    /** what the intent is of: prices, amounts, the proration date of a reviewed plan change */
    params: jsonb('params').$type<Record<string, unknown>>().notNull(),
    /** the provider's id of what it made (a session, a subscription, a refund) */
    providerRef: text('provider_ref'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('billing_intents_user_idx').on(t.userId, t.createdAt)],
);

/**
 * Work after a commit that must happen (cancel a replaced plan at the provider, a refund at the
 * provider, a mail): a row written in the transaction that decided it, run after the commit and
 * retried with backoff until it succeeds; operators see the ones that keep failing.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** what to do, e.g. provider.cancel_subscription */
    kind: text('kind').notNull(),
    /** one row per piece of work: a second enqueue of the same key is a no-op */
    key: text('key').notNull().unique(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    runAfter: ts('run_after').notNull(),
    lastError: text('last_error'),
    doneAt: ts('done_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('outbox_due_idx').on(t.doneAt, t.runAfter)],
);

/**
 * The newest provider state applied per subscription (Stripe's event `created`, in seconds): an
 * older event arriving late changes nothing.
 */
export const providerSubscriptionMarks = pgTable('provider_subscription_marks', {
  subscriptionRef: text('subscription_ref').primaryKey(),
  /** the provider's timestamp of the newest state applied, seconds since the epoch */
  appliedAt: integer('applied_at').notNull(),
  status: text('status').notNull(),
});

/** Each run of the nightly reconciliation with Stripe: what it repaired and what it could not explain. */
export const reconciliationRuns = pgTable('reconciliation_runs', {
  id: uuid('id').primaryKey().defaultRandom(),
  startedAt: ts('started_at').notNull(),
  finishedAt: ts('finished_at'),
  repaired: integer('repaired').notNull().default(0),
  unexplained: integer('unexplained').notNull().default(0),
  /** one line per repair or unexplained difference */
  details: jsonb('details').$type<string[]>().notNull().default([]),
});

/**
 * A sandbox billing-page visit: the capability the browser carries (as Stripe's portal session
 * URL does), made by CreateBillingPortalSession for the signed-in user, short-lived.
 */
export const billingPortalSessions = pgTable('billing_portal_sessions', {
  id: text('id').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  returnUrl: text('return_url').notNull(),
  expiresAt: ts('expires_at').notNull(),
  createdAt: ts('created_at').notNull(),
});

/** Lifecycle emails sent, by a key naming what and which period: each goes out once. */
export const lifecycleNotices = pgTable('lifecycle_notices', {
  key: text('key').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  sentAt: ts('sent_at').notNull(),
});
