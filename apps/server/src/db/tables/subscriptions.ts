import { OverrideKind, SUBSCRIPTION_STATUSES, TIERS } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A user's tier subscriptions: plans bought (override kind 99, with the provider's ids) and operator
 * grants (0, 1, 2). The tier and the flexible slots come from the ones in force (docs/decisions/019):
 * Lite is the absence of one, so an active Lite row is refused by a check. `starts_at` is the first
 * day (dial-time periods count from it), `ends_at` the end of the current period.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tier: text('tier', { enum: TIERS }).notNull(),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull().default('pending_assignment'),
    /** 0 free trial, 1 override, 2 other, 99 none (paid) */
    overrideKind: integer('override_kind').notNull().default(OverrideKind.None),
    startsAt: ts('starts_at').notNull(),
    /** null: open-ended */
    endsAt: ts('ends_at'),
    stripeId: text('stripe_id').unique(),
    stripeCustomerId: text('stripe_customer_id'),
    /** the plan product and price it renews at ('' for a grant) */
    productId: text('product_id').notNull().default(''),
    priceId: text('price_id').notNull().default(''),
    /** flexible license slots it grants (the plan's BOW_FLEX_SLOTS when it started or changed) */
    flexSlots: integer('flex_slots').notNull().default(0),
    /** the customer cancelled at the period's end: still active until ends_at */
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** the checkout session that sold it; null for a grant */
    sessionId: text('session_id'),
    /**
     * A renewal charge failed and the provider is still retrying: the plan stays active (with a
     * banner asking for a new card) until the provider gives up (issue 31). Null when paid.
     */
    paymentFailedAt: ts('payment_failed_at'),
    /** failed renewal attempts since the last paid one (the sandbox retries on days 1, 3 and 5) */
    paymentAttempts: integer('payment_attempts').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_user_idx').on(t.userId, t.status),
    check('subscriptions_override_kind', sql`${t.overrideKind} in (0, 1, 2, 99)`),
    check('subscriptions_no_active_lite', sql`not (${t.status} = 'active' and ${t.tier} = 'Lite Subscription')`),
  ],
);
