import { ONE_DAY_MS } from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { retentionRepository } from '../retention/retention.repository.ts';
import type { SubscriptionService } from '../subscriptions/subscriptions.service.ts';
import { planOfPrice } from '../subscriptions/subscriptions.service.ts';
import type { PaymentProvider } from './payment.provider.ts';
import { stripeEventsRepository as repo } from './stripe-events.repository.ts';
import { idOf, invoiceSubscription, periodEndOf, type StripeEvents } from './stripe-events.service.ts';

/** The advisory lock that makes one instance at a time start the reconciliation. */
export const RECONCILIATION_LOCK = 'portal:reconciliation';
/** How far back each run looks at Stripe (a nightly run covers a few missed nights too). */
export const RECONCILE_DAYS = 3;
/** A run that started this long ago without finishing is taken as dead: another may start. */
const RUN_STALE_MS = 60 * 60 * 1000;

const LIVE = ['active', 'pending_assignment'];
const DISPUTE_CLOSED: Record<string, 'won' | 'lost'> = { won: 'won', lost: 'lost', warning_closed: 'won' };
/** The reconciliation's repairs on the audit trail. */
export const RECONCILIATION_ACTOR = { kind: 'system', id: 'reconciliation' } as const;

export interface ReconciliationRun {
  /** another instance is running it, or the provider is the sandbox (nothing to reconcile) */
  skipped: boolean;
  /** differences a missed webhook explains, applied as that webhook would have */
  repaired: number;
  /** differences nothing here explains: logged at error for an operator */
  unexplained: number;
  details: string[];
}

/**
 * The nightly reconciliation with Stripe (docs/decisions/065): the last days' subscriptions, paid
 * invoices, refunds and disputes at Stripe are compared with our rows; what a missed webhook would
 * have changed is applied through the webhook's own code (StripeEvents.apply, as an event of its
 * own id: once, and newer than anything applied before), and what nothing explains is reported.
 * Stripe is read outside any transaction; one instance runs it (an advisory lock guards the start).
 */
export class ReconciliationService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly provider: PaymentProvider,
    private readonly events: StripeEvents,
    private readonly subs: SubscriptionService,
    private readonly log?: FastifyBaseLogger,
  ) {}

  private get stripe(): Stripe | undefined {
    return this.provider.kind === 'stripe' ? (this.provider as { stripe?: Stripe }).stripe : undefined;
  }

  /** The last run, for operators. */
  last() {
    return repo.lastRun(this.db);
  }

  async run(): Promise<ReconciliationRun> {
    const stripe = this.stripe;
    const empty: ReconciliationRun = { skipped: true, repaired: 0, unexplained: 0, details: [] };
    if (!stripe) return empty;
    const now = this.clock.now();
    const claimed = await this.db.transaction(async (tx) => {
      if (!(await retentionRepository.tryLock(tx, RECONCILIATION_LOCK))) return undefined;
      const last = await repo.lastRun(tx);
      if (last && !last.finishedAt && last.startedAt.getTime() > now.getTime() - RUN_STALE_MS) return undefined;
      return repo.startRun(tx, now);
    });
    if (!claimed) return empty;
    const out: ReconciliationRun = { skipped: false, repaired: 0, unexplained: 0, details: [] };
    const since = Math.floor((now.getTime() - RECONCILE_DAYS * ONE_DAY_MS) / 1000);
    const runTag = claimed.id.slice(0, 8);
    const nowS = Math.floor(now.getTime() / 1000);
    const apply = async (type: string, object: unknown, key: string, what: string) => {
      const event = { id: `reconcile_${runTag}_${key}`, object: 'event', type, created: nowS, data: { object } };
      // A repair is the reconciliation's change on the audit trail, one entry each (docs/decisions/072).
      const outcome = await this.events.apply(event as unknown as Stripe.Event, RECONCILIATION_ACTOR);
      if (outcome === 'applied') {
        out.repaired += 1;
        out.details.push(`repaired: ${what}`);
      }
    };
    const unexplained = (what: string, detail: Record<string, unknown>) => {
      out.unexplained += 1;
      out.details.push(`unexplained: ${what}`);
      this.log?.error({ ...detail, reconciliation: claimed.id }, `reconciliation: ${what}`);
    };
    try {
      // Money first: a paid invoice renews its subscription's period, a whole refund ends it; what
      // still differs of a subscription afterwards is its own state.
      await this.invoices(stripe, since, apply, unexplained);
      await this.refunds(stripe, since, apply, unexplained);
      await this.disputes(stripe, since, apply, unexplained);
      await this.subscriptions(stripe, since, apply, unexplained);
    } finally {
      await repo.finishRun(this.db, claimed.id, {
        finishedAt: this.clock.now(),
        repaired: out.repaired,
        unexplained: out.unexplained,
        details: out.details,
      });
    }
    return out;
  }

  /**
   * The last days' subscriptions, and every one of ours Stripe should have renewed or ended by now
   * (its period is over here): a state that differs is applied as customer.subscription.updated
   * (or .deleted) would have.
   */
  private async subscriptions(stripe: Stripe, since: number, apply: Apply, unexplained: Unexplained) {
    const listed = await stripe.subscriptions
      .list({ status: 'all', created: { gte: since }, limit: 100 })
      .autoPagingToArray({ limit: 10_000 });
    const seen = new Set(listed.map((s) => s.id));
    const overdue = (await this.subs.dueRefs(this.clock.now())).filter(
      (ref) => !seen.has(ref) && ref.startsWith('sub_'),
    );
    for (const ref of overdue)
      try {
        listed.push(await stripe.subscriptions.retrieve(ref));
      } catch (err) {
        if ((err as { code?: string }).code === 'resource_missing')
          unexplained(`subscription ${ref} is live here but unknown at Stripe`, { ref });
        else throw err;
      }
    const products = await this.provider.knownProducts();
    for (const sub of listed) {
      const { plans, drivers } = await this.db.transaction((tx) => this.subs.lockRows(tx, sub.id));
      const rows = [...plans, ...drivers];
      if (rows.length === 0) {
        // A checkout not yet fulfilled (or abandoned before it completed) has no rows either.
        if (sub.status === 'active' || sub.status === 'past_due' || sub.status === 'trialing')
          unexplained(`subscription ${sub.id} is ${sub.status} at Stripe and has no rows here`, { ref: sub.id });
        continue;
      }
      const live = rows.filter((r) => LIVE.includes(r.status));
      const ended = ['canceled', 'unpaid', 'incomplete_expired'].includes(sub.status);
      if (ended) {
        if (live.length > 0)
          await apply(
            sub.status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated',
            sub,
            `sub_${sub.id}`,
            `subscription ${sub.id} is ${sub.status} at Stripe`,
          );
        continue;
      }
      if (sub.status !== 'active' && sub.status !== 'trialing' && sub.status !== 'past_due') continue;
      if (live.length === 0) {
        if (!rows.some((r) => r.status === 'inactive'))
          unexplained(`subscription ${sub.id} is ${sub.status} at Stripe but ended here`, { ref: sub.id });
        continue;
      }
      const end = periodEndOf(sub) * 1000;
      const planItem = sub.items.data.find((i) => planOfPrice(products, i.price.id));
      const plan = plans.find((r) => LIVE.includes(r.status));
      const failing = live.some((r) => r.paymentFailedAt);
      const differs =
        (sub.status === 'past_due') !== failing ||
        live.some((r) => r.cancelAtPeriodEnd !== sub.cancel_at_period_end) ||
        (planItem && plan && plan.priceId !== planItem.price.id) ||
        (end > 0 && plan?.endsAt && plan.endsAt.getTime() < end - 1000);
      if (differs)
        await apply('customer.subscription.updated', sub, `sub_${sub.id}`, `subscription ${sub.id} (${sub.status})`);
    }
  }

  /** The last days' paid invoices of subscriptions: a renewal or plan change not recorded here is, as invoice.paid would have. */
  private async invoices(stripe: Stripe, since: number, apply: Apply, unexplained: Unexplained) {
    const invoices = await stripe.invoices
      .list({ status: 'paid', created: { gte: since }, limit: 100 })
      .autoPagingToArray({ limit: 10_000 });
    for (const invoice of invoices) {
      const ref = invoiceSubscription(invoice);
      if (!ref || !invoice.id || invoice.billing_reason === 'subscription_create') continue;
      if (await repo.paymentByExternalId(this.db, invoice.id)) continue;
      const { plans, drivers } = await this.db.transaction((tx) => this.subs.lockRows(tx, ref));
      if (plans.length + drivers.length === 0) {
        unexplained(`paid invoice ${invoice.id} of ${ref}, a subscription with no rows here`, { invoice: invoice.id });
        continue;
      }
      await apply('invoice.paid', invoice, `in_${invoice.id}`, `paid invoice ${invoice.id} of ${ref}`);
    }
  }

  /** The last days' refunds: one not recorded here is, as charge.refunded would have. */
  private async refunds(stripe: Stripe, since: number, apply: Apply, unexplained: Unexplained) {
    const refunds = await stripe.refunds
      .list({ created: { gte: since }, limit: 100 })
      .autoPagingToArray({ limit: 10_000 });
    for (const refund of refunds) {
      if (refund.status === 'failed' || refund.status === 'canceled') continue;
      if (await repo.refundRecorded(this.db, refund.id)) continue;
      const pi = idOf(refund.payment_intent);
      if (!pi || !(await repo.paymentByIntent(this.db, pi))) {
        unexplained(`refund ${refund.id} of a payment the portal does not know`, {
          refund: refund.id,
          paymentIntent: pi,
        });
        continue;
      }
      const charge = {
        object: 'charge',
        id: idOf(refund.charge) ?? '',
        payment_intent: pi,
        refunds: { object: 'list', data: [refund] },
      };
      await apply('charge.refunded', charge, `re_${refund.id}`, `refund ${refund.id} of ${pi}`);
    }
  }

  /** The last days' disputes: a state not recorded here is applied as charge.dispute.* would have. */
  private async disputes(stripe: Stripe, since: number, apply: Apply, unexplained: Unexplained) {
    const disputes = await stripe.disputes
      .list({ created: { gte: since }, limit: 100 })
      .autoPagingToArray({ limit: 10_000 });
    for (const dispute of disputes) {
      const pi = idOf(dispute.payment_intent);
      const row = pi ? await repo.paymentByIntent(this.db, pi) : undefined;
      if (!row) {
        unexplained(`dispute ${dispute.id} of a payment the portal does not know`, {
          dispute: dispute.id,
          paymentIntent: pi,
        });
        continue;
      }
      const closed = DISPUTE_CLOSED[dispute.status];
      if (closed) {
        if (row.disputeStatus === 'won' || row.disputeStatus === 'lost') continue;
        await apply('charge.dispute.closed', dispute, `dp_${dispute.id}`, `dispute ${dispute.id} ${dispute.status}`);
      } else if (row.disputeStatus === null)
        await apply('charge.dispute.created', dispute, `dp_${dispute.id}`, `dispute ${dispute.id} opened`);
    }
  }
}

type Apply = (type: string, object: unknown, key: string, what: string) => Promise<void>;
type Unexplained = (what: string, detail: Record<string, unknown>) => void;
