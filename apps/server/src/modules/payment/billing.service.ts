import { randomBytes } from 'node:crypto';
import {
  ApiError,
  type Currency,
  formatPrice,
  type LifecycleRun,
  ONE_DAY_MS,
  type OperatorPayment,
  type PaymentProduct,
} from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import type { Db, Executor } from '../../db/client.ts';
import type { BillingDetails, PaymentLine } from '../../db/tables/payment.ts';
import type { Clock } from '../../lib/clock.ts';
import { mailDay } from '../../lib/mail-layout.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { PortalAddress } from '../../lib/portal-address.ts';
import type { Caller } from '../auth/auth.sessions.ts';
import { driverEnd } from '../subscriptions/subscriptions.repository.ts';
import {
  AfterCommit,
  type PlanTerms,
  planOfPrice,
  type SubscriptionService,
} from '../subscriptions/subscriptions.service.ts';
import type { TimeService } from '../time/time.service.ts';
import { isFreePlan, MINUTES_KEY } from './catalogue.ts';
import { refundMail, renewalReceiptMail } from './payment.mails.ts';
import type { PaymentProvider } from './payment.provider.ts';
import { type CheckoutSessionRow, type PaymentRow, paymentRepository as repo } from './payment.repository.ts';
import { ReconciliationService } from './reconciliation.service.ts';
import { stripeEventsRepository as eventsRepo } from './stripe-events.repository.ts';
import { type EventOutcome, StripeEvents } from './stripe-events.service.ts';

/** What a money change (a refund, a dispute) leaves for after its commit. */
export interface AfterMoney {
  lifecycle: AfterCommit;
  /** provider subscriptions to cancel at the provider (what a whole refund took back) */
  cancelRefs: string[];
  refundMails: { row: PaymentRow; refund: number; whole: boolean }[];
}

export const afterMoney = (): AfterMoney => ({ lifecycle: new AfterCommit(), cancelRefs: [], refundMails: [] });

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
export class BillingService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
    private readonly provider: PaymentProvider,
    private readonly address: PortalAddress,
    private readonly peers: BillingPeers,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.events = new StripeEvents(
      db,
      clock,
      mailer,
      provider,
      address,
      { subscriptions: peers.subscriptions, billing: this },
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
        (await this.sandboxCharge(ref, { retryNow: true })) === 'renewed'
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
   * An upgrade or a downgrade of the user's paid plan: the same subscription changes price (Stripe:
   * its item, invoiced with proration at once; the sandbox charges the prorated difference to the
   * card on file), never a second plan. Answers the change and what was charged.
   */
  async changePlan(userId: string, toPriceId: string, field = 'price_id') {
    const products = await this.products();
    const plan = planOfPrice(products, toPriceId);
    const product = products.find((p) => p.id === plan?.productId);
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
    const from = planOfPrice(products, live.priceId);
    const price = product.prices.find((p) => p.id === toPriceId);
    const fromPrice = products.flatMap((p) => p.prices).find((p) => p.id === live.priceId);
    const now = this.clock.now();
    const end = live.endsAt ?? now;
    const newPeriod = from?.interval !== plan.interval;
    // The unused part of the current period, credited against the new price.
    const fromMs = INTERVAL_MS[from?.interval ?? plan.interval];
    const unused = Math.max(0, Math.min(1, (end.getTime() - now.getTime()) / fromMs));
    const credit = Math.round((fromPrice?.unit_amount ?? 0) * unused);
    const amount = newPeriod
      ? Math.max(0, (price?.unit_amount ?? 0) - credit)
      : Math.max(0, Math.round((price?.unit_amount ?? 0) * unused) - credit);
    const currency = (price?.currency ?? 'gbp') as Currency;
    const periodEnd = newPeriod ? new Date(now.getTime() + INTERVAL_MS[plan.interval]) : undefined;

    let paymentId: string | undefined;
    if (this.provider.kind === 'sandbox') {
      const customer = await repo.customerOf(this.db, userId);
      if (amount > 0 && customer?.cardDeclines)
        throw new ApiError('PAYMENT', `${field}: the card on file was declined; update it in the billing portal`);
      if (amount > 0)
        paymentId = (
          await repo.insertPayment(this.db, {
            userId,
            provider: 'sandbox',
            kind: 'plan_change',
            subscriptionRef: live.stripeId,
            providerRef: `py_sandbox_${randomBytes(12).toString('hex')}`,
            description: `${from?.tier ?? live.tier} to ${plan.tier} (prorated)`,
            lines: [{ name: `${product.name} (prorated)`, quantity: 1, unit_amount: amount }],
            amount,
            currency,
            status: 'paid',
            billing: customer?.billing ?? null,
            createdAt: now,
          })
        )?.id;
    } else {
      const planPriceIds = products.flatMap((p) => (p.metadata.BOW_TIER ? p.prices.map((x) => x.id) : []));
      await this.provider.changePlan({ subscriptionId: live.stripeId, toPriceId, planPriceIds });
    }
    await this.subs.applyPlan(live.stripeId, plan, periodEnd);
    return {
      from: live.tier,
      to: plan.tier,
      amount: this.provider.kind === 'sandbox' ? amount : 0,
      currency,
      product,
      /** the sandbox's payment row of the prorated charge (its session links to it: the receipt's reference) */
      paymentId,
    };
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
  async endPeriodNow(id: string): Promise<{ run: LifecycleRun; statuses: string[] }> {
    if (this.provider.kind !== 'sandbox')
      throw new ApiError(
        'VALIDATION',
        'subscription_id: only the sandbox moves subscriptions on; Stripe bills on its own clock',
      );
    const ref = await this.subs.endPeriodNow(id);
    if (!ref) throw new ApiError('NOT_FOUND', 'subscription_id: no subscription with this id');
    const run: LifecycleRun = { renewed: 0, payment_failed: 0, ended: 0, reminders: 0 };
    const outcome = await this.sandboxCharge(ref);
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
    opts: { retryNow?: boolean } = {},
  ): Promise<'renewed' | 'failed' | 'ended' | 'none'> {
    const now = this.clock.now();
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
      return (await this.subs.end(ref, 'cancelled')) ? 'ended' : 'none';
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
        return (await this.subs.end(ref, 'expired')) ? 'ended' : 'none';
      // A new card that fails too is not one of the scheduled retries.
      await this.subs.paymentFailed(
        ref,
        failedAt === undefined ? { periodEnd: new Date(next) } : { count: !opts.retryNow },
      );
      return 'failed';
    }
    await this.subs.renew(ref, new Date(next));
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
  async refund(paymentId: string, amount: number | undefined): Promise<PaymentRow> {
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
      return (await repo.lockPayment(tx, row.id)) as PaymentRow;
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
    if (revoke) after.cancelRefs.push(...(await this.revokeIn(tx, row, products)));
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
    after.cancelRefs.push(...(await this.revokeIn(tx, row, products)));
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
    for (const ref of new Set(after.cancelRefs))
      try {
        await this.provider.cancelNow(ref);
      } catch (err) {
        this.log?.error({ err, ref }, 'could not cancel a revoked subscription at the provider');
      }
    await this.subs.finish(after.lifecycle);
    for (const m of after.refundMails) await this.sendRefundMail(m.row, m.refund, m.whole);
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
    const user = await this.subs.userOf(row.userId);
    if (!user) return;
    try {
      await this.mailer.send(
        refundMail({
          to: user.email,
          refund,
          amount: row.amount,
          currency: row.currency,
          description: row.description,
          whole,
          sandbox: this.provider.kind === 'sandbox',
          manageUrl: `${this.address.url}/dashboard/subscriptions/manage`,
        }),
      );
    } catch (err) {
      this.log?.warn({ err, payment: row.id }, 'refund mail failed');
    }
  }

  /** A renewal's receipt. A mail failure never undoes the renewal. */
  private async sendReceipt(row: PaymentRow, billing: BillingDetails | undefined) {
    const user = await this.subs.userOf(row.userId);
    if (!user) return;
    try {
      await this.mailer.send(
        renewalReceiptMail({
          to: user.email,
          description: row.description,
          lines: row.lines,
          amount: row.amount,
          currency: row.currency,
          billing,
          sandbox: row.provider === 'sandbox',
          manageUrl: `${this.address.url}/dashboard/subscriptions/manage`,
        }),
      );
    } catch (err) {
      this.log?.warn({ err, payment: row.id }, 'receipt mail failed');
    }
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
