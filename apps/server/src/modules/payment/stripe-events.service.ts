import type { Currency, PaymentProduct } from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PortalAddress } from '../../lib/portal-address.ts';
import type { AuditInput, AuditService } from '../audit/audit.service.ts';
import {
  AfterCommit,
  type LifecycleActor,
  planOfPrice,
  type SubscriptionService,
} from '../subscriptions/subscriptions.service.ts';
import type { AfterMoney, MoneyChanges } from './after-money.ts';
import { disputeMail } from './payment.mails.ts';
import type { PaymentProvider } from './payment.provider.ts';
import { paymentRepository as payRepo } from './payment.repository.ts';
import { stripeEventsRepository as repo } from './stripe-events.repository.ts';

const NEEDS_CATALOGUE = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'charge.refunded',
  'charge.dispute.closed',
]);

/** What became of an event: applied; a duplicate of one applied before; older than the state applied (stale). */
export type EventOutcome = 'applied' | 'duplicate' | 'stale';

/** What an event's transaction leaves for after its commit: a money change's, and dispute mails. */
interface AfterEvent extends AfterMoney {
  disputeMails: { userId: string; description: string; amount: number; currency: string }[];
  /** what the event changed, for its one entry on the audit trail (none: it changed nothing) */
  change?: Omit<AuditInput, 'actor' | 'kind'> | undefined;
}

/** What an event needs read from Stripe before its transaction (never inside it, STYLE 17). */
interface Prefetched {
  products: PaymentProduct[];
  /** the PaymentIntent of an invoice, when the payload does not carry its payments */
  invoiceIntent?: string | undefined;
  /** the refunds of a charge, when the payload does not carry them */
  refunds?: Stripe.Refund[] | undefined;
}

/**
 * Stripe's events in the portal's words (docs/decisions/019, 065): subscriptions, invoices, refunds
 * and disputes made at Stripe (its Dashboard included). Each event is applied in one transaction
 * that first inserts its id (a conflict: applied before, nothing changes; concurrent deliveries
 * queue on that row) and, for a subscription event, claims its order mark (an event older than the
 * state applied for that subscription changes nothing). The nightly reconciliation applies what a
 * missed webhook would have applied through `apply` too.
 */
export class StripeEvents {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly provider: PaymentProvider,
    private readonly address: PortalAddress,
    private readonly peers: {
      subscriptions: SubscriptionService;
      billing: MoneyChanges;
      audit?: AuditService | undefined;
    },
    private readonly log?: FastifyBaseLogger,
  ) {}

  private get subs() {
    return this.peers.subscriptions;
  }

  /** The Stripe SDK, when the provider is Stripe (reads an event's payload may leave out). */
  private get stripe(): Stripe | undefined {
    return (this.provider as { stripe?: Stripe }).stripe;
  }

  /**
   * Applies one event once (see the class); answers what became of it. What it changed is one change
   * entry on the audit trail in the same transaction, by Stripe (the event's id) or by `by` (the
   * reconciliation); an event that changed nothing records none (docs/decisions/072).
   */
  async apply(event: Stripe.Event, by?: LifecycleActor): Promise<EventOutcome> {
    const pre = await this.prefetch(event);
    const after: AfterEvent = { lifecycle: new AfterCommit(), cancelRefs: [], refundMails: [], disputeMails: [] };
    const outcome = await this.db.transaction(async (tx): Promise<EventOutcome> => {
      const fresh = await payRepo.recordEvent(tx, { id: event.id, type: event.type, receivedAt: this.clock.now() });
      if (!fresh) return 'duplicate';
      const outcome = await this.applyIn(tx, event, pre, after);
      if (outcome === 'applied' && after.change)
        await this.peers.audit?.record(tx, {
          ...after.change,
          actor: by ?? { kind: 'stripe', id: event.id },
          kind: 'change',
          personal: { ...after.change.personal, event: event.type },
        });
      return outcome;
    });
    if (outcome === 'applied') await this.finish(after);
    return outcome;
  }

  /** The PaymentIntent of an invoice (a subscription checkout's first), read from Stripe; undefined if it cannot be. */
  async paymentIntentOfInvoice(invoice: string | Stripe.Invoice | null | undefined): Promise<string | undefined> {
    if (!invoice) return undefined;
    if (typeof invoice !== 'string' && invoiceIntent(invoice)) return invoiceIntent(invoice);
    const id = idOf(invoice);
    if (!this.stripe || !id) return undefined;
    try {
      return invoiceIntent(await this.stripe.invoices.retrieve(id, { expand: ['payments'] }));
    } catch (err) {
      this.log?.warn({ err, invoice: id }, 'could not read the payment of an invoice');
      return undefined;
    }
  }

  /** Stores the PaymentIntent of a payment known by its reference (an invoice id) when it has none yet. */
  async rememberIntent(paymentRef: string | undefined, paymentIntent: string | undefined): Promise<void> {
    if (paymentRef && paymentIntent && paymentRef !== paymentIntent)
      await repo.setIntentOfRef(this.db, paymentRef, paymentIntent);
  }

  private async prefetch(event: Stripe.Event): Promise<Prefetched> {
    // The catalogue (archived prices included) only for what reads it: a plan's tier, a revocation's minutes.
    const products = NEEDS_CATALOGUE.has(event.type) ? await this.provider.knownProducts() : [];
    const stripe = this.stripe;
    if (event.type === 'invoice.paid') {
      const invoice = event.data.object;
      return { products, invoiceIntent: await this.paymentIntentOfInvoice(invoice) };
    }
    if (event.type === 'charge.refunded') {
      const charge = event.data.object;
      if (charge.refunds?.data) return { products, refunds: charge.refunds.data };
      const pi = idOf(charge.payment_intent);
      if (stripe && pi)
        return {
          products,
          refunds: await stripe.refunds.list({ payment_intent: pi, limit: 100 }).autoPagingToArray({ limit: 1000 }),
        };
      return { products, refunds: [] };
    }
    return { products };
  }

  private async applyIn(tx: Executor, event: Stripe.Event, pre: Prefetched, after: AfterEvent): Promise<EventOutcome> {
    const created = typeof event.created === 'number' ? event.created : Math.floor(this.clock.now().getTime() / 1000);
    const fx = after.lifecycle;
    switch (event.type) {
      case 'customer.subscription.updated':
      case 'customer.subscription.created': {
        const sub = event.data.object;
        if (!(await repo.claimMark(tx, sub.id, created, sub.status))) return 'stale';
        after.change = await this.subscriptionChange(tx, sub, 'subscription.update');
        const planItem = sub.items.data.find((i) => planOfPrice(pre.products, i.price.id));
        if (planItem) {
          const plan = planOfPrice(pre.products, planItem.price.id);
          if (plan) await this.subs.applyPlanIn(tx, sub.id, plan, undefined, fx);
        }
        await this.subs.setCancelAtPeriodEndIn(tx, sub.id, sub.cancel_at_period_end);
        const end = periodEndOf(sub);
        if (sub.status === 'active' || sub.status === 'trialing') {
          if (end) await this.subs.renewIn(tx, sub.id, new Date(end * 1000), fx);
        } else if (sub.status === 'past_due')
          await this.subs.paymentFailedIn(
            tx,
            sub.id,
            { periodEnd: end ? new Date(end * 1000) : undefined, count: false },
            fx,
          );
        else if (sub.status === 'unpaid') await this.subs.endIn(tx, sub.id, 'expired', {}, fx);
        else if (sub.status === 'canceled') await this.endSubscription(tx, sub, fx);
        return 'applied';
      }
      case 'customer.subscription.deleted': {
        const sub = event.data.object;
        if (!(await repo.claimMark(tx, sub.id, created, sub.status))) return 'stale';
        after.change = await this.subscriptionChange(tx, sub, 'subscription.end');
        await this.endSubscription(tx, sub, fx);
        return 'applied';
      }
      case 'invoice.payment_failed': {
        const invoice = event.data.object;
        const ref = invoiceSubscription(invoice);
        // A checkout's first invoice failing means the checkout did not complete: nothing was granted.
        if (!ref || invoice.billing_reason === 'subscription_create') return 'applied';
        const end = Math.max(0, ...invoice.lines.data.map((l) => l.period?.end ?? 0));
        if (await this.subs.paymentFailedIn(tx, ref, { periodEnd: end ? new Date(end * 1000) : undefined }, fx))
          after.change = await this.refChange(tx, ref, 'subscription.payment_failed', {
            payment_failed: { before: false, after: true },
          });
        return 'applied';
      }
      case 'invoice.paid':
        after.change = await this.invoicePaid(tx, event.data.object, pre.invoiceIntent, fx);
        return 'applied';
      case 'charge.refunded':
        await this.chargeRefunded(tx, event.data.object, pre, after);
        return 'applied';
      case 'charge.dispute.created':
        await this.disputeOpened(tx, event.data.object, after);
        return 'applied';
      case 'charge.dispute.closed':
        await this.disputeClosed(tx, event.data.object, pre, after);
        return 'applied';
      default:
        return 'applied';
    }
  }

  /** Stripe ended the subscription: expired when it gave up on a failed payment, cancelled otherwise. */
  private async endSubscription(tx: Executor, sub: Stripe.Subscription, fx: AfterCommit) {
    const failed =
      sub.cancellation_details?.reason === 'payment_failed' || (await this.subs.paymentFailing(tx, sub.id));
    await this.subs.endIn(tx, sub.id, failed ? 'expired' : 'cancelled', {}, fx);
  }

  /**
   * A paid invoice: a renewal or a prorated plan change is recorded (once, by the invoice id, with
   * its PaymentIntent) and the period runs to the invoice's end; a failed renewal recovers. The
   * checkout's first invoice was recorded by fulfilment: only its PaymentIntent is stored.
   */
  private async invoicePaid(
    tx: Executor,
    invoice: Stripe.Invoice,
    intent: string | undefined,
    fx: AfterCommit,
  ): Promise<AfterEvent['change']> {
    const ref = invoiceSubscription(invoice);
    if (!ref) return;
    if (invoice.billing_reason === 'subscription_create') {
      // Only the PaymentIntent of the checkout's payment is stored: bookkeeping, not a change of state.
      if (intent && invoice.id) await repo.setIntentOfRef(tx, invoice.id, intent);
      return;
    }
    const { plans, drivers } = await this.subs.lockRows(tx, ref);
    const userId = plans[0]?.userId ?? drivers[0]?.userId;
    if (!userId) return;
    const customer = await payRepo.customerOf(tx, userId);
    const change = invoice.billing_reason === 'subscription_update';
    // A plan change confirmed on the review page: its Payment Successful shows this charge's reference.
    const sessionId = change ? await repo.unlinkedPlanChangeSession(tx, userId, ref) : undefined;
    await payRepo.insertPayment(tx, {
      userId,
      provider: 'stripe',
      kind: change ? 'plan_change' : 'renewal',
      sessionId: sessionId ?? null,
      subscriptionRef: ref,
      providerRef: invoice.id ?? '',
      paymentIntentId: intent ?? null,
      description: change ? 'Plan change (prorated)' : 'Renewal',
      lines: invoice.lines.data.map((l) => ({
        name: l.description ?? 'Subscription',
        quantity: l.quantity ?? 1,
        unit_amount: Math.round(l.amount / (l.quantity || 1)),
      })),
      amount: invoice.amount_paid,
      currency: invoice.currency as Currency,
      status: 'paid',
      billing: customer?.billing ?? null,
      externalId: invoice.id ?? null,
      createdAt: this.clock.now(),
    });
    const end = Math.max(0, ...invoice.lines.data.map((l) => l.period?.end ?? 0));
    if (end) await this.subs.renewIn(tx, ref, new Date(end * 1000), fx);
    return {
      subjectUserId: userId,
      action: change ? 'payment.plan_change' : 'subscription.renew',
      target: ref,
      changes: end ? { ends_at: { before: null, after: end * 1000 } } : {},
      personal: { invoice: invoice.id ?? '', amount: invoice.amount_paid, currency: invoice.currency },
    };
  }

  /**
   * A charge refunded at Stripe (its Dashboard, or the portal's own refund): each refund not yet
   * recorded (by its Stripe id) is recorded and counted; the one that completes the payment takes
   * back what it granted, exactly as the portal's refund does. The portal's own refunds are
   * recorded under their Stripe ids already, so their event changes nothing.
   */
  private async chargeRefunded(tx: Executor, charge: Stripe.Charge, pre: Prefetched, after: AfterEvent) {
    const pi = idOf(charge.payment_intent);
    const row = pi ? await repo.lockPaymentByIntent(tx, pi) : undefined;
    if (!row) {
      this.log?.error(
        { charge: charge.id, paymentIntent: pi },
        'a refund at Stripe of a payment the portal does not know',
      );
      return;
    }
    let added = 0;
    for (const r of pre.refunds ?? []) {
      if (r.status === 'failed' || r.status === 'canceled') continue;
      const fresh = await repo.insertRefund(tx, {
        paymentId: row.id,
        providerRefundId: r.id,
        amount: r.amount,
        source: 'provider',
        createdAt: this.clock.now(),
      });
      if (fresh) added += r.amount;
    }
    // The portal's own refund echoed back (recorded under its Stripe id already) changes nothing.
    if (added === 0) return;
    await this.peers.billing.recordRefundIn(tx, row, added, pre.products, after);
    const refunded = Math.min(row.amount, row.refundedAmount + added);
    after.change = {
      subjectUserId: row.userId,
      action: 'payment.refund',
      target: row.id,
      changes: {
        refunded_amount: { before: row.refundedAmount, after: refunded },
        ...(refunded >= row.amount && !row.revokedAt ? { revoked: { before: false, after: true } } : {}),
      },
      personal: { amount: added },
    };
  }

  /** The payment a dispute is about, locked; undefined (logged) when the portal does not know it. */
  private async disputed(tx: Executor, dispute: Stripe.Dispute) {
    const pi = idOf(dispute.payment_intent);
    const row = pi ? await repo.lockPaymentByIntent(tx, pi) : undefined;
    if (!row)
      this.log?.error(
        { dispute: dispute.id, paymentIntent: pi },
        'a dispute at Stripe of a payment the portal does not know',
      );
    return row;
  }

  /** A dispute opened: what the payment granted stops working (inactive) while it is open; the customer is told. */
  private async disputeOpened(tx: Executor, dispute: Stripe.Dispute, after: AfterEvent) {
    const row = await this.disputed(tx, dispute);
    if (!row || row.disputeStatus === 'open' || row.revokedAt) return;
    await payRepo.updatePayment(tx, row.id, { disputeStatus: 'open', disputeId: dispute.id });
    await this.peers.billing.holdIn(tx, row, true, after.lifecycle);
    after.change = disputeChange(row, dispute, 'payment.dispute_open', 'open');
    after.disputeMails.push({
      userId: row.userId,
      description: row.description,
      amount: row.amount,
      currency: row.currency,
    });
  }

  /** A dispute closed: won gives back what it held; lost takes it back as a whole refund does. */
  private async disputeClosed(tx: Executor, dispute: Stripe.Dispute, pre: Prefetched, after: AfterEvent) {
    const row = await this.disputed(tx, dispute);
    if (!row || row.disputeStatus === 'won' || row.disputeStatus === 'lost') return;
    if (dispute.status === 'lost') {
      await payRepo.updatePayment(tx, row.id, { disputeStatus: 'lost', disputeId: dispute.id });
      await this.peers.billing.revokeWholeIn(tx, row, pre.products, after);
      after.change = disputeChange(row, dispute, 'payment.dispute_lost', 'lost');
      return;
    }
    // won, or a warning closed without a chargeback: the money stayed.
    await payRepo.updatePayment(tx, row.id, { disputeStatus: 'won', disputeId: dispute.id });
    await this.peers.billing.holdIn(tx, row, false, after.lifecycle);
    after.change = disputeChange(row, dispute, 'payment.dispute_won', 'won');
  }

  /** A subscription event's change: its status before (our rows) and after (Stripe's); none for a subscription we do not know. */
  private async subscriptionChange(
    tx: Executor,
    sub: Stripe.Subscription,
    action: string,
  ): Promise<AfterEvent['change']> {
    const { plans, drivers } = await this.subs.lockRows(tx, sub.id);
    const first = plans[0] ?? drivers[0];
    if (!first) return undefined;
    return {
      subjectUserId: first.userId,
      action,
      target: sub.id,
      changes: { status: { before: first.status, after: sub.status } },
    };
  }

  /** A change to the rows of a provider subscription; none when we have no rows of it. */
  private async refChange(
    tx: Executor,
    ref: string,
    action: string,
    changes: AuditInput['changes'],
  ): Promise<AfterEvent['change']> {
    const { plans, drivers } = await this.subs.lockRows(tx, ref);
    const first = plans[0] ?? drivers[0];
    return first ? { subjectUserId: first.userId, action, target: ref, ...(changes ? { changes } : {}) } : undefined;
  }

  private async finish(after: AfterEvent) {
    await this.peers.billing.settle(after);
    for (const m of after.disputeMails)
      await this.subs.mailAccount(m.userId, (to) =>
        disputeMail({
          to,
          description: m.description,
          amount: m.amount,
          currency: m.currency,
          manageUrl: `${this.address.url}/dashboard/subscriptions/manage`,
        }),
      );
  }
}

/** A dispute's change to a payment, for the audit trail. */
function disputeChange(
  row: { id: string; userId: string; disputeStatus: string | null },
  dispute: Stripe.Dispute,
  action: string,
  status: string,
): AfterEvent['change'] {
  return {
    subjectUserId: row.userId,
    action,
    target: row.id,
    changes: { dispute_status: { before: row.disputeStatus, after: status } },
    personal: { dispute: dispute.id },
  };
}

/** The id of an expandable Stripe field. */
export function idOf(x: string | { id: string } | null | undefined): string | undefined {
  return typeof x === 'string' ? x : (x?.id ?? undefined);
}

/**
 * The end of a subscription's current period, in seconds: on its items in current API versions
 * (since 2025-03-31), on the subscription itself in older shapes.
 */
export function periodEndOf(sub: Stripe.Subscription): number {
  const items = Math.max(0, ...(sub.items?.data ?? []).map((i) => i.current_period_end ?? 0));
  const legacy = (sub as unknown as { current_period_end?: number | null }).current_period_end ?? 0;
  return items || legacy;
}

/** The subscription an invoice bills (its parent in current API versions, a field of its own in older ones). */
export function invoiceSubscription(invoice: Stripe.Invoice): string | undefined {
  const parent = invoice.parent?.subscription_details?.subscription;
  if (parent) return idOf(parent);
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
  return idOf(legacy);
}

/** An invoice's PaymentIntent: its payments in current API versions, its own field in older ones. */
export function invoiceIntent(invoice: Stripe.Invoice): string | undefined {
  const pi = invoice.payments?.data.find((p) => p.payment?.payment_intent)?.payment.payment_intent;
  if (pi) return idOf(pi);
  return idOf((invoice as unknown as { payment_intent?: string | { id: string } | null }).payment_intent);
}
