import { randomBytes } from 'node:crypto';
import {
  ApiError,
  type Currency,
  formatPrice,
  type LifecycleRun,
  ONE_DAY_MS,
  type OperatorPayment,
  type PaymentPrice,
  type PaymentProduct,
} from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import type { Db, Executor } from '../../db/client.ts';
import type { BillingDetails, PaymentLine } from '../../db/tables/payment.ts';
import type { Clock } from '../../lib/clock.ts';
import { mailDay } from '../../lib/mail-layout.ts';
import type { PortalAddress } from '../../lib/portal-address.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { Caller } from '../auth/auth.sessions.ts';
import { driverEnd } from '../subscriptions/subscriptions.repository.ts';
import {
  type AfterCommit,
  LIFECYCLE_ACTOR,
  type LifecycleActor,
  type PlanTerms,
  planOfPrice,
  type SubscriptionService,
} from '../subscriptions/subscriptions.service.ts';
import type { TimeService } from '../time/time.service.ts';
import { type AfterMoney, afterMoney, type MoneyChanges } from './after-money.ts';
import { isFreePlan, MINUTES_KEY } from './catalogue.ts';
import { cancelSubscriptionKey, intentKey, OUTBOX_KINDS, type Outbox, providerOfRef } from './outbox.ts';
import { refundMail, renewalReceiptMail } from './payment.mails.ts';
import type { PaymentProvider } from './payment.provider.ts';
import {
  type CheckoutSessionRow,
  type IntentRow,
  type PaymentRow,
  paymentRepository as repo,
} from './payment.repository.ts';
import { ReconciliationService } from './reconciliation.service.ts';
import { stripeEventsRepository as eventsRepo } from './stripe-events.repository.ts';
import { type EventOutcome, StripeEvents } from './stripe-events.service.ts';

const INTERVAL_MS: Record<PlanTerms['interval'], number> = {
  day: ONE_DAY_MS,
  week: 7 * ONE_DAY_MS,
  month: 30 * ONE_DAY_MS,
  year: 365 * ONE_DAY_MS,
};
/**
 * After a failed renewal the sandbox tries the card again on these days after the first failure
 * (the period's end), as Stripe's retries do; when the last fails the subscription ends (expired).
 */
export const SANDBOX_RETRY_DAYS = [1, 3, 5] as const;
/** A refund intent still pending after this long is taken as abandoned (the reconciliation records what Stripe did). */
const REFUND_IN_FLIGHT_MS = 10 * 60 * 1000;

export interface BillingPeers {
  subscriptions: SubscriptionService;
  time: TimeService;
  /** where a subscription a refund or a lost dispute took back is cancelled at Stripe, retried (decision 066) */
  outbox?: Outbox;
  /** the audit trail: refunds, the sandbox's renewals and expiries, Stripe's events (docs/decisions/072) */
  audit?: AuditService;
}

/** The card-on-file test numbers of the sandbox (decision 017's test cards). */
const DECLINING_CARDS = new Set(['4000000000000002', '4000000000009995']);
export const SANDBOX_GOOD_CARD = '4242424242424242';

/** Whether a sandbox test card fails every charge. */
export function cardDeclines(number: string): boolean {
  return DECLINING_CARDS.has(number);
}

/**
 * The money side of subscriptions (docs/decisions/019): plan changes, cancel at period end and
 * resume, the billing portal, the sandbox's billing clock (renewals, failed payments, expiry),
 * Stripe's subscription events, refunds and what account deletion cancels. Every state change goes
 * through SubscriptionService's lifecycle functions, whichever provider made it.
 */
export class BillingService implements MoneyChanges {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly provider: PaymentProvider,
    private readonly address: PortalAddress,
    private readonly peers: BillingPeers,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.events = new StripeEvents(
      db,
      clock,
      provider,
      address,
      { subscriptions: peers.subscriptions, billing: this, audit: peers.audit },
      log,
    );
    this.reconciliation = new ReconciliationService(db, clock, provider, this.events, peers.subscriptions, log);
  }

  /** Stripe's events (stripe-events.service.ts). */
  readonly events: StripeEvents;
  /** The nightly reconciliation with Stripe (reconciliation.service.ts). */
  readonly reconciliation: ReconciliationService;

  private get subs() {
    return this.peers.subscriptions;
  }

  // ---- the billing portal -----------------------------------------------------------------

  /** CreateBillingPortalSession: Stripe's portal, or the sandbox's billing page, returning to return_url. */
  async portal(caller: Pick<Caller, 'userId'>, input: { customerId: string; returnUrl: string }): Promise<string> {
    this.address.checkReturnAddress(input.returnUrl, 'return_url');
    return this.provider.billingPortal({
      customerId: input.customerId,
      userId: caller.userId,
      returnUrl: input.returnUrl,
    });
  }

  /** A sandbox billing-page session that has not expired; undefined otherwise. */
  async portalSession(id: string) {
    if (this.provider.kind !== 'sandbox') return undefined;
    const row = await repo.portalSession(this.db, id);
    return row && row.expiresAt > this.clock.now() ? row : undefined;
  }

  customer(userId: string) {
    return repo.customerOf(this.db, userId);
  }

  /** The billing page's details form: shown on later receipts. */
  async saveBillingDetails(userId: string, billing: BillingDetails): Promise<void> {
    await repo.updateCustomer(this.db, userId, { billing });
  }

  /** The card a sandbox checkout was paid with becomes the card on file (renewals charge it). */
  async rememberCard(userId: string, number: string): Promise<void> {
    await repo.updateCustomer(this.db, userId, { cardLast4: number.slice(-4), cardDeclines: cardDeclines(number) });
  }

  /**
   * The sandbox's card on file changes; payments that failed are tried again at once with it
   * (Stripe retries an open invoice when the customer updates the card). Answers how many renewed.
   */
  async updateCard(userId: string, number: string): Promise<number> {
    await repo.updateCustomer(this.db, userId, { cardLast4: number.slice(-4), cardDeclines: cardDeclines(number) });
    let renewed = 0;
    for (const [ref, rows] of await this.subs.refsOf(userId))
      if (
        [...rows.plans, ...rows.drivers].some((r) => r.paymentFailedAt && r.status !== 'expired') &&
        (await this.sandboxCharge(ref, { retryNow: true, by: { kind: 'customer', id: userId } })) === 'renewed'
      )
        renewed += 1;
    return renewed;
  }

  // ---- plan changes, cancel, resume -------------------------------------------------------

  /** Archived prices included: existing plans, renewals and refunds still find theirs. */
  private async products(): Promise<PaymentProduct[]> {
    return this.provider.knownProducts();
  }

  /**
   * An upgrade or a downgrade of the user's paid plan, at once (the sandbox's billing page, as
   * Stripe's billing portal does): a plan_change intent, then its confirmation. Answers the change
   * and what was charged.
   */
  async changePlan(userId: string, toPriceId: string, field = 'price_id') {
    const intent = await this.planChangeIntent(userId, toPriceId, field);
    return this.confirmPlanChange(intent.id, field);
  }

  /**
   * The review of a plan change (docs/decisions/066): what changing the user's plan to `toPriceId`
   * costs now, written as a plan_change intent that holds the price and the proration date, so what
   * Confirm charges is what the review showed. Nothing is charged. Stripe: the amounts are Stripe's
   * (an invoice preview at the pinned proration date); the sandbox: its prorating arithmetic.
   */
  async planChangeIntent(userId: string, toPriceId: string, field = 'price_id'): Promise<IntentRow> {
    // The new price is one on sale now; the current one may be archived (knownProducts).
    const [active, known] = await Promise.all([this.provider.products(), this.products()]);
    const plan = planOfPrice(active, toPriceId);
    const product = active.find((p) => p.id === plan?.productId);
    if (!plan || !product) throw new ApiError('VALIDATION', `${field}: not the price of a plan`);
    if (isFreePlan(product))
      throw new ApiError(
        'VALIDATION',
        `${field}: Lite is the tier without a plan; cancel the plan at period end instead`,
      );
    const live = await this.subs.livePlan(userId);
    if (!live?.stripeId) throw new ApiError('CONFLICT', `${field}: there is no plan to change; buy one at checkout`);
    if (live.paymentFailedAt || live.status !== 'active')
      throw new ApiError('PAYMENT', `${field}: the last payment of your plan failed; update your card first`);
    if (live.priceId === toPriceId) throw new ApiError('CONFLICT', `${field}: this is already your plan`);
    const from = planOfPrice(known, live.priceId);
    const price = product.prices.find((p) => p.id === toPriceId) as PaymentPrice;
    const fromPrice = known.flatMap((p) => p.prices).find((p) => p.id === live.priceId);
    const now = this.clock.now();
    const prorationDate = Math.floor(now.getTime() / 1000);
    const newPeriod = from?.interval !== plan.interval;
    const currency = price.currency;
    const customer = await repo.customerOf(this.db, userId);
    let amount: number;
    let nextRenewalAt: number;
    let card = customer?.cardLast4 ? `Card ending ${customer.cardLast4}` : '';
    const preview =
      this.provider.kind === 'stripe'
        ? await this.provider.previewPlanChange({
            subscriptionId: live.stripeId,
            toPriceId,
            planPriceIds: planPriceIds(known),
            prorationDate,
          })
        : undefined;
    if (preview) {
      amount = preview.amountDue;
      nextRenewalAt = newPeriod ? now.getTime() + INTERVAL_MS[plan.interval] : preview.periodEnd * 1000;
      card = preview.card ?? '';
    } else {
      const end = live.endsAt ?? now;
      // The unused part of the current period, credited against the new price.
      const fromMs = INTERVAL_MS[from?.interval ?? plan.interval];
      const unused = Math.max(0, Math.min(1, (end.getTime() - now.getTime()) / fromMs));
      const credit = Math.round((fromPrice?.unit_amount ?? 0) * unused);
      amount = newPeriod
        ? Math.max(0, price.unit_amount - credit)
        : Math.max(0, Math.round(price.unit_amount * unused) - credit);
      nextRenewalAt = newPeriod ? now.getTime() + INTERVAL_MS[plan.interval] : end.getTime();
    }
    return repo.insertIntent(this.db, {
      userId,
      kind: 'plan_change',
      params: {
        subscription_ref: live.stripeId,
        from_price_id: live.priceId,
        from_tier: from?.tier ?? live.tier,
        to_price_id: toPriceId,
        to_tier: plan.tier,
        product_id: product.id,
        product_name: product.name,
        unit_amount: price.unit_amount,
        interval: plan.interval,
        currency,
        amount,
        proration_date: prorationDate,
        new_period: newPeriod,
        next_renewal_at: nextRenewalAt,
        next_renewal_amount: price.unit_amount,
        card,
      } satisfies PlanChangeParams,
      createdAt: now,
      updatedAt: now,
    });
  }

  /**
   * Confirm of a reviewed plan change: charges what the intent holds, once. The sandbox records the
   * prorated payment under the intent's id (a second Confirm records nothing); Stripe's update carries
   * the intent's key and proration date (a second Confirm is the same request, which Stripe replays).
   * The intent becomes done; a provider refusal makes it failed.
   */
  async confirmPlanChange(intentId: string, field = 'price_id') {
    const intent = await repo.intent(this.db, intentId);
    if (intent?.kind !== 'plan_change' || !intent.userId)
      throw new ApiError('NOT_FOUND', `${field}: no plan change with this id`);
    if (intent.status === 'cancelled' || intent.status === 'failed')
      throw new ApiError('CONFLICT', `${field}: this plan change was ${intent.status}; start it again`);
    const p = intent.params as unknown as PlanChangeParams;
    const userId = intent.userId;
    const known = await this.products();
    const plan = planOfPrice(known, p.to_price_id);
    if (!plan) throw new ApiError('VALIDATION', `${field}: not the price of a plan`);
    const live = await this.subs.livePlan(userId);
    const settled = intent.status === 'done';
    if (!settled && (!live || live.stripeId !== p.subscription_ref || live.priceId !== p.from_price_id))
      throw new ApiError('CONFLICT', `${field}: your plan changed since this review; start again`);
    const now = this.clock.now();
    let paymentId: string | undefined;
    if (this.provider.kind === 'sandbox') {
      const customer = await repo.customerOf(this.db, userId);
      if (!settled && p.amount > 0 && customer?.cardDeclines)
        throw new ApiError('PAYMENT', `${field}: the card on file was declined; update it in the billing portal`);
      if (p.amount > 0) {
        const externalId = `plan_change:${intent.id}`;
        await repo.insertPayment(this.db, {
          userId,
          provider: 'sandbox',
          kind: 'plan_change',
          subscriptionRef: p.subscription_ref,
          providerRef: `py_sandbox_${randomBytes(12).toString('hex')}`,
          description: `${p.from_tier} to ${p.to_tier} (prorated)`,
          lines: [{ name: `${p.product_name} (prorated)`, quantity: 1, unit_amount: p.amount }],
          amount: p.amount,
          currency: p.currency,
          status: 'paid',
          billing: customer?.billing ?? null,
          // One charge per intent: a second Confirm (a double click, a replay) records nothing.
          externalId,
          createdAt: now,
        });
        paymentId = (await repo.paymentByExternalId(this.db, externalId))?.id;
      }
    } else if (!settled) {
      try {
        await this.provider.changePlan({
          subscriptionId: p.subscription_ref,
          toPriceId: p.to_price_id,
          planPriceIds: planPriceIds(known),
          prorationDate: p.proration_date,
          idempotencyKey: intentKey(intent),
        });
      } catch (err) {
        await repo.settleIntent(this.db, intent.id, { status: 'failed', now: this.clock.now() });
        throw err;
      }
    }
    await repo.settleIntent(this.db, intent.id, { status: 'done', providerRef: p.subscription_ref, now });
    if (!settled)
      await this.subs.applyPlan(p.subscription_ref, plan, p.new_period ? new Date(p.next_renewal_at) : undefined);
    return {
      from: p.from_tier,
      to: p.to_tier,
      amount: p.amount,
      currency: p.currency,
      /** the sandbox's payment row of the prorated charge (its session links to it: the receipt's reference) */
      paymentId,
      intent,
    };
  }

  /** Back on the review: the plan change is cancelled, nothing charged. False when it was settled before. */
  async cancelPlanChange(intentId: string): Promise<boolean> {
    return repo.settleIntent(this.db, intentId, { status: 'cancelled', now: this.clock.now() });
  }

  /** A plan-change intent, for the review page. */
  async planChangeOf(intentId: string): Promise<{ intent: IntentRow; params: PlanChangeParams } | undefined> {
    const intent = await repo.intent(this.db, intentId);
    if (intent?.kind !== 'plan_change') return undefined;
    return { intent, params: intent.params as unknown as PlanChangeParams };
  }

  /** Cancel at period end, or resume, one of the user's provider subscriptions. */
  async setCancelAtPeriodEnd(userId: string, ref: string, cancel: boolean): Promise<void> {
    const rows = (await this.subs.refsOf(userId)).get(ref);
    if (!rows) throw new ApiError('NOT_FOUND', 'subscription: no subscription with this id on your account');
    const live = [...rows.plans, ...rows.drivers].filter(
      (r) => r.status === 'active' || r.status === 'pending_assignment',
    );
    if (live.length === 0) throw new ApiError('CONFLICT', 'subscription: it has ended and cannot be changed');
    await this.provider.setCancelAtPeriodEnd(ref, cancel);
    await this.subs.setCancelAtPeriodEnd(ref, cancel);
  }

  // ---- the sandbox's billing clock ------------------------------------------------------------

  /**
   * One run of the lifecycle job (docs/decisions/019): the sandbox renews, fails or ends each
   * subscription whose period has ended; rows no provider bills expire; reminders go out.
   */
  async runLifecycle(): Promise<LifecycleRun> {
    const run: LifecycleRun = { renewed: 0, payment_failed: 0, ended: 0, reminders: 0 };
    if (this.provider.kind === 'sandbox')
      for (const ref of new Set([...(await this.subs.dueRefs(this.clock.now())), ...(await this.subs.failingRefs())])) {
        const outcome = await this.sandboxCharge(ref);
        if (outcome === 'renewed') run.renewed += 1;
        else if (outcome === 'failed') run.payment_failed += 1;
        else if (outcome === 'ended') run.ended += 1;
      }
    run.ended += await this.subs.expireUnbilled();
    run.reminders = await this.subs.sendReminders();
    return run;
  }

  /** EndSubscriptionPeriod: the sandbox ends a subscription's period now and runs the job for it. */
  async endPeriodNow(id: string, by: LifecycleActor): Promise<{ run: LifecycleRun; statuses: string[] }> {
    if (this.provider.kind !== 'sandbox')
      throw new ApiError(
        'VALIDATION',
        'subscription_id: only the sandbox moves subscriptions on; Stripe bills on its own clock',
      );
    const ref = await this.subs.endPeriodNow(id);
    if (!ref) throw new ApiError('NOT_FOUND', 'subscription_id: no subscription with this id');
    const run: LifecycleRun = { renewed: 0, payment_failed: 0, ended: 0, reminders: 0 };
    // The period's move is half of the action; its entry is the outcome's (renewed, failed, ended), by `by`.
    const outcome = await this.sandboxCharge(ref, { by });
    if (outcome === 'renewed') run.renewed = 1;
    else if (outcome === 'failed') run.payment_failed = 1;
    else if (outcome === 'ended') run.ended = 1;
    const rows = await this.subs.rowsOfRef(ref);
    return { run, statuses: [...rows.plans, ...rows.drivers].map((r) => r.status) };
  }

  /**
   * What the sandbox does with a subscription whose period has ended, as Stripe would: cancelled at
   * period end ends it; otherwise the card on file is charged for the next period (renewed), or the
   * charge fails: the period moves on, the plan and its licences keep working with the
   * payment-failed flag, and the card is tried again on days 1, 3 and 5 (SANDBOX_RETRY_DAYS) or at
   * once when it changes (`retryNow`); when the last retry fails the subscription ends (expired).
   */
  private async sandboxCharge(
    ref: string,
    opts: { retryNow?: boolean; by?: LifecycleActor } = {},
  ): Promise<'renewed' | 'failed' | 'ended' | 'none'> {
    const now = this.clock.now();
    const by = opts.by ?? LIFECYCLE_ACTOR;
    const { plans, drivers } = await this.subs.rowsOfRef(ref);
    const live = [...plans, ...drivers].filter((r) => ['active', 'pending_assignment'].includes(r.status));
    if (live.length === 0) return 'none';
    const userId = live[0]?.userId as string;
    const ends = [
      ...plans.filter((r) => live.includes(r)).map((r) => r.endsAt?.getTime() ?? 0),
      ...drivers.filter((r) => live.includes(r)).map((r) => driverEnd(r).getTime()),
    ];
    const periodEnd = Math.max(...ends);
    const failing = live.find((r) => r.paymentFailedAt);
    if (live.some((r) => r.cancelAtPeriodEnd)) {
      if (periodEnd > now.getTime()) return 'none';
      return (await this.subs.end(ref, 'cancelled', {}, by)) ? 'ended' : 'none';
    }
    // A retry of a failed renewal is due on its day (or at once for a new card); a renewal at the period's end.
    const failedAt = failing?.paymentFailedAt?.getTime();
    const attempts = failing?.paymentAttempts ?? 0;
    if (failedAt !== undefined) {
      const day = SANDBOX_RETRY_DAYS[Math.max(0, attempts - 1)];
      if (!opts.retryNow && (day === undefined || now.getTime() < failedAt + day * ONE_DAY_MS)) return 'none';
    } else if (periodEnd > now.getTime()) return 'none';

    const products = await this.products();
    const prices = new Map(products.flatMap((p) => p.prices.map((x) => [x.id, { price: x, product: p }] as const)));
    const lines: PaymentLine[] = [];
    let interval: PlanTerms['interval'] = 'year';
    let currency: Currency = 'gbp';
    for (const r of live) {
      const found = prices.get(r.priceId);
      if (!found) continue;
      interval = found.price.recurring?.interval ?? interval;
      currency = found.price.currency;
      const existing = lines.find((l) => l.name === found.product.name);
      if (existing) existing.quantity += 1;
      else lines.push({ name: found.product.name, quantity: 1, unit_amount: found.price.unit_amount });
    }
    const amount = lines.reduce((n, l) => n + l.unit_amount * l.quantity, 0);
    const customer = await repo.customerOf(this.db, userId);
    const declined = Boolean(customer?.cardDeclines) && amount > 0;
    // A retry pays for the period that already moved on; a renewal starts the next one from the
    // end of the last (Stripe keeps the billing anchor).
    let next = periodEnd;
    if (failedAt === undefined) {
      next = periodEnd + INTERVAL_MS[interval];
      while (next <= now.getTime()) next += INTERVAL_MS[interval];
    }
    // One charge per subscription, period and attempt: a second run of the job records nothing.
    const attemptKey =
      failedAt === undefined
        ? `sandbox:${ref}:${periodEnd}`
        : opts.retryNow
          ? `sandbox:${ref}:${failedAt}:card-${now.getTime()}`
          : `sandbox:${ref}:${failedAt}:retry-${attempts}`;
    const recorded = await repo.insertPayment(this.db, {
      userId,
      provider: 'sandbox',
      kind: 'renewal',
      subscriptionRef: ref,
      providerRef: `py_sandbox_${randomBytes(12).toString('hex')}`,
      description: declined
        ? `Renewal failed: ${lines.map((l) => l.name).join(', ')}`
        : `Renewal until ${mailDay(new Date(next))}`,
      lines,
      amount,
      currency,
      status: declined ? 'failed' : 'paid',
      billing: customer?.billing ?? null,
      externalId: `${attemptKey}:${declined ? 'failed' : 'paid'}`,
      createdAt: now,
    });
    if (declined) {
      if (!recorded) return 'none';
      // The last retry failed: the sandbox gives up, as Stripe does with "cancel the subscription".
      if (failedAt !== undefined && !opts.retryNow && attempts >= SANDBOX_RETRY_DAYS.length)
        return (await this.subs.end(ref, 'expired', {}, by)) ? 'ended' : 'none';
      // A new card that fails too is not one of the scheduled retries.
      await this.subs.paymentFailed(
        ref,
        failedAt === undefined ? { periodEnd: new Date(next) } : { count: !opts.retryNow },
        by,
      );
      return 'failed';
    }
    await this.subs.renew(ref, new Date(next), by);
    if (recorded) await this.sendReceipt(recorded, customer?.billing ?? undefined);
    return 'renewed';
  }

  // ---- Stripe's subscription events -------------------------------------------------------

  /**
   * A Stripe event other than a checkout's (stripe-events.service.ts, docs/decisions/065): applied
   * once, in order per subscription, in one transaction with its dedupe row.
   */
  stripeEvent(event: Stripe.Event): Promise<EventOutcome> {
    return this.events.apply(event);
  }

  // ---- payments and refunds -----------------------------------------------------------------

  paymentsOf(userId: string): Promise<PaymentRow[]> {
    return repo.paymentsOf(this.db, userId);
  }

  /** The refunds of a payment (the portal's and those made at the provider). */
  refundsOf(paymentId: string) {
    return eventsRepo.refundsOf(this.db, paymentId);
  }

  async payment(id: string): Promise<PaymentRow | undefined> {
    return repo.payment(this.db, id);
  }

  operatorView(row: PaymentRow, email: string): OperatorPayment {
    return {
      payment_id: row.id,
      user_email: email,
      kind: row.kind,
      description: row.description,
      amount: row.amount,
      currency: row.currency as Currency,
      status: row.status,
      refunded_amount: row.refundedAmount,
      created_at: row.createdAt.getTime(),
      session_id: row.sessionId ?? '',
      revoked: row.revokedAt !== null,
    };
  }

  /**
   * An operator's refund (docs/decisions/019, 065), whole or in part, through the provider, never
   * inside a transaction (STYLE 17): the refund's intent is written and committed first, the
   * provider is called with a key derived from it (a retried call refunds once, a new refund is a
   * new key), then the payment is locked, checked again and the refund recorded under the
   * provider's refund id (so the charge.refunded it causes changes nothing). The refund that
   * completes the payment takes back what it granted: a checkout's licences, plan and minutes, a
   * renewal's period. The customer is emailed.
   */
  async refund(paymentId: string, amount: number | undefined, by: LifecycleActor): Promise<PaymentRow> {
    const now = this.clock.now();
    const { row, refund, intent } = await this.db.transaction(async (tx) => {
      const row = await repo.lockPayment(tx, paymentId);
      if (!row) throw new ApiError('NOT_FOUND', 'payment_id: no payment with this id');
      if (row.status !== 'paid')
        throw new ApiError('CONFLICT', 'payment_id: this payment failed; there is nothing to refund');
      // A refund of it in flight (its intent written, the provider not yet answered) counts as made.
      const inFlight = await eventsRepo.pendingRefunds(tx, row.id, new Date(now.getTime() - REFUND_IN_FLIGHT_MS));
      const left = row.amount - row.refundedAmount - inFlight;
      if (left <= 0)
        throw new ApiError(
          'CONFLICT',
          inFlight > 0
            ? 'payment_id: a refund of this payment is in progress; try again in a minute'
            : 'payment_id: this payment is refunded already',
        );
      const refund = amount ?? left;
      if (refund > left)
        throw new ApiError(
          'VALIDATION',
          `refund_amount: at most ${left} (${formatPrice(left, row.currency as Currency)} is left of this payment)`,
        );
      const intent = await eventsRepo.insertIntent(tx, {
        userId: row.userId,
        kind: 'refund',
        params: { payment_id: row.id, amount: refund },
        createdAt: now,
        updatedAt: now,
      });
      return { row, refund, intent };
    });
    const products = await this.products();
    let refundId: string;
    try {
      refundId = await this.provider.refund({
        providerRef: row.providerRef,
        amount: refund,
        idempotencyKey: `portal-refund-${intent.id}`,
      });
    } catch (err) {
      await eventsRepo.updateIntent(this.db, intent.id, { status: 'failed', updatedAt: this.clock.now() });
      throw err;
    }
    const after = afterMoney();
    const result = await this.db.transaction(async (tx) => {
      const locked = (await repo.lockPayment(tx, row.id)) as PaymentRow;
      await eventsRepo.updateIntent(tx, intent.id, {
        status: 'done',
        providerRef: refundId,
        updatedAt: this.clock.now(),
      });
      // The charge.refunded this refund caused may have recorded it already: then it is counted once.
      const fresh = await eventsRepo.insertRefund(tx, {
        paymentId: row.id,
        providerRefundId: refundId,
        amount: refund,
        source: 'portal',
        createdAt: this.clock.now(),
      });
      if (fresh) await this.recordRefundIn(tx, locked, refund, products, after);
      const done = (await repo.lockPayment(tx, row.id)) as PaymentRow;
      // The outcome's entry, in the transaction that records it; the provider was called before (decision 072).
      await this.peers.audit?.record(tx, {
        actor: by,
        subjectUserId: row.userId,
        kind: 'change',
        action: 'payment.refund',
        target: row.id,
        changes: {
          refunded_amount: { before: locked.refundedAmount, after: done.refundedAmount },
          ...(done.revokedAt && !locked.revokedAt ? { revoked: { before: false, after: true } } : {}),
        },
        personal: { amount: refund, providerRefund: refundId },
      });
      return done;
    });
    await this.settle(after);
    return result;
  }

  /**
   * A refund recorded (the portal's, or one made at Stripe): it counts towards the payment, and the
   * one that completes it takes back what the payment granted, once (inside the caller's transaction).
   */
  async recordRefundIn(tx: Executor, row: PaymentRow, amount: number, products: PaymentProduct[], after: AfterMoney) {
    const refunded = Math.min(row.amount, row.refundedAmount + amount);
    const whole = refunded >= row.amount;
    const revoke = whole && !row.revokedAt;
    if (revoke) await this.cancelLater(tx, await this.revokeIn(tx, row, products), after);
    await repo.updatePayment(tx, row.id, {
      refundedAmount: refunded,
      ...(revoke ? { revokedAt: this.clock.now() } : {}),
    });
    after.lifecycle.users.add(row.userId);
    after.refundMails.push({ row: { ...row, refundedAmount: refunded }, refund: amount, whole });
  }

  /** What a payment granted taken back as a whole refund would (a dispute lost), once. */
  async revokeWholeIn(tx: Executor, row: PaymentRow, products: PaymentProduct[], after: AfterMoney) {
    if (row.revokedAt) return;
    await this.cancelLater(tx, await this.revokeIn(tx, row, products), after);
    await repo.updatePayment(tx, row.id, { revokedAt: this.clock.now() });
    after.lifecycle.users.add(row.userId);
  }

  /** What a disputed payment granted, held inactive while the dispute is open (`hold`), or given back. */
  async holdIn(tx: Executor, row: PaymentRow, hold: boolean, fx: AfterCommit) {
    if (row.kind === 'checkout') {
      const session = row.sessionId ? await repo.session(tx, row.sessionId) : undefined;
      if (session) await this.subs.holdIn(tx, { ref: session.providerSubscriptionId, sessionId: session.id }, hold, fx);
    } else await this.subs.holdIn(tx, { ref: row.subscriptionRef }, hold, fx);
    fx.users.add(row.userId);
  }

  /**
   * After a money change committed: what was taken back stops billing at the provider (a failure
   * is logged at error: the rows ended already; the outbox retries it, decision 065), slot counts
   * and lifecycle mails, then refund mails.
   */
  async settle(after: AfterMoney): Promise<void> {
    if (after.cancelRefs.length > 0 && this.peers.outbox) await this.peers.outbox.runSoon();
    else
      for (const ref of new Set(after.cancelRefs))
        try {
          await this.provider.cancelNow(ref);
        } catch (err) {
          this.log?.error({ err, ref }, 'could not cancel a revoked subscription at the provider');
        }
    await this.subs.finish(after.lifecycle);
    for (const m of after.refundMails) await this.sendRefundMail(m.row, m.refund, m.whole);
  }

  /**
   * Subscriptions taken back stop billing at the provider after the commit: a Stripe one through
   * the outbox, written in this transaction and retried until it succeeds (decision 066).
   */
  private async cancelLater(tx: Executor, refs: readonly string[], after: AfterMoney): Promise<void> {
    after.cancelRefs.push(...refs);
    if (!this.peers.outbox) return;
    for (const ref of refs)
      if (providerOfRef(ref) === 'stripe')
        await this.peers.outbox.enqueue(tx, OUTBOX_KINDS.cancelSubscription, cancelSubscriptionKey(ref), {
          subscription_ref: ref,
          provider: 'stripe',
          reason: 'revoked',
        });
  }

  /** Takes back what a payment granted, inside the caller's transaction; answers the subscriptions to cancel. */
  private async revokeIn(tx: Executor, row: PaymentRow, products: PaymentProduct[]): Promise<string[]> {
    if (row.kind !== 'checkout') {
      if (!row.subscriptionRef) return [];
      await this.subs.revokeRef(tx, row.subscriptionRef);
      return [row.subscriptionRef];
    }
    const session = row.sessionId ? await repo.session(tx, row.sessionId) : undefined;
    if (!session) return [];
    const ref = session.providerSubscriptionId;
    if (ref) await this.subs.revokeSession(tx, session.id, ref);
    await this.revokeMinutes(tx, session, products);
    return ref ? [ref] : [];
  }

  private async revokeMinutes(tx: Executor, session: CheckoutSessionRow, all: PaymentProduct[]) {
    const products = new Map(all.map((p) => [p.id, p]));
    let minutes = 0;
    for (const line of session.lines)
      if (line.kind === 'time')
        minutes += Number(products.get(line.product_id)?.metadata[MINUTES_KEY] ?? 0) * line.quantity;
    if (minutes > 0)
      await this.peers.time.revoke(
        session.userId,
        { minutes, reason: `refund of ${session.id}`, idempotencyKey: `refund:${session.id}` },
        tx,
      );
  }

  async sendRefundMail(row: PaymentRow, refund: number, whole: boolean) {
    await this.subs.mailAccount(row.userId, (to) =>
      refundMail({
        to,
        refund,
        amount: row.amount,
        currency: row.currency,
        description: row.description,
        whole,
        sandbox: this.provider.kind === 'sandbox',
        manageUrl: `${this.address.url}/dashboard/subscriptions/manage`,
      }),
    );
  }

  /** A renewal's receipt. A mail failure never undoes the renewal. */
  private async sendReceipt(row: PaymentRow, billing: BillingDetails | undefined) {
    await this.subs.mailAccount(row.userId, (to) =>
      renewalReceiptMail({
        to,
        description: row.description,
        lines: row.lines,
        amount: row.amount,
        currency: row.currency,
        billing,
        sandbox: row.provider === 'sandbox',
        manageUrl: `${this.address.url}/dashboard/subscriptions/manage`,
      }),
    );
  }

  // ---- account deletion -------------------------------------------------------------------

  /**
   * Before an account is deleted: every live subscription is cancelled at the provider, so nothing
   * bills a deleted account, then ended here. A provider failure stops the deletion.
   */
  async cancelForDeletion(userId: string): Promise<number> {
    const refs = await this.subs.liveRefsOf(userId);
    for (const ref of refs) {
      await this.provider.cancelNow(ref);
      await this.subs.end(ref, 'cancelled', { immediately: true, notify: false });
    }
    return refs.length;
  }
}

/** What a plan_change intent holds: the review's figures, charged as they are at Confirm. */
export interface PlanChangeParams {
  subscription_ref: string;
  from_price_id: string;
  from_tier: string;
  to_price_id: string;
  to_tier: string;
  product_id: string;
  product_name: string;
  /** the new plan's price per interval, minor units */
  unit_amount: number;
  interval: PlanTerms['interval'];
  currency: Currency;
  /** the prorated amount due now, minor units */
  amount: number;
  /** seconds since the epoch: the moment the proration is computed for (Stripe's proration_date) */
  proration_date: number;
  /** the interval changes: a new period starts at the change */
  new_period: boolean;
  /** epoch ms of the next renewal, and what it charges */
  next_renewal_at: number;
  next_renewal_amount: number;
  /** the card that is charged, as the review shows it ('' when unknown) */
  card: string;
}

/** Every plan price of the catalogue: a subscription's plan item is the one holding one of them. */
function planPriceIds(products: readonly PaymentProduct[]): string[] {
  return products.flatMap((p) => (p.metadata.BOW_TIER ? p.prices.map((x) => x.id) : []));
}
