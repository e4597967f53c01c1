import {
  ONE_DAY_MS,
  OverrideKind,
  type OverrideKindValue,
  type PaymentProduct,
  type PaymentProviderSubscription,
  type RobotDriverSubscription,
  type SubscriptionStatus,
  TIERS,
  type TierName,
  type UserSubscription,
} from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Mail, Mailer } from '../../lib/mailer.ts';
import type { AuditInput, AuditService } from '../audit/audit.service.ts';
import type { FlexSlotService } from '../flexible-license/flexible-license.service.ts';
import type { LicenseService } from '../license/license.service.ts';
import {
  paymentFailedMail,
  planChangedMail,
  reminderMail,
  slotsTrimmedMail,
  stoppedMail,
} from './subscriptions.mails.ts';
import {
  type DriverSubscriptionRow,
  driverEnd,
  LIVE_STATUSES,
  subscriptionRepository as repo,
  type SubscriptionRow,
  type TierInfo,
} from './subscriptions.repository.ts';

export type { TierInfo } from './subscriptions.repository.ts';

/** Reminders go out this many days before a driver licence or a yearly plan renews or ends. */
export const REMINDER_DAYS = [30, 7] as const;
/**
 * A subscription Stripe still calls active this long after its period ended, with no renewal
 * event, is taken as expired (a webhook was lost); the sandbox renews on time itself.
 */
export const MISSED_RENEWAL_GRACE_MS = 3 * ONE_DAY_MS;

/** A plan as the catalogue describes it: what a plan subscription row copies. */
export interface PlanTerms {
  productId: string;
  priceId: string;
  tier: TierName;
  flexSlots: number;
  interval: 'day' | 'week' | 'month' | 'year';
}

/** The plan of a catalogue price, if it is one (BOW_SORTING subscription with BOW_TIER). */
export function planOfPrice(products: readonly PaymentProduct[], priceId: string): PlanTerms | undefined {
  for (const p of products) {
    const tier = p.metadata.BOW_TIER;
    if (p.metadata.BOW_SORTING !== 'subscription' || !tier || !(TIERS as readonly string[]).includes(tier)) continue;
    const price = p.prices.find((x) => x.id === priceId);
    if (!price?.recurring) continue;
    return {
      productId: p.id,
      priceId,
      tier: tier as TierName,
      flexSlots: Number(p.metadata.BOW_FLEX_SLOTS ?? 0) || 0,
      interval: price.recurring.interval,
    };
  }
  return undefined;
}

export interface SubscriptionPeers {
  licenses: LicenseService;
  slots: FlexSlotService;
  /** the provider's catalogue (plans' tiers and slots, prices' intervals) */
  products(): Promise<PaymentProduct[]>;
  /** the audit trail: lifecycle changes made by a job or an operator (docs/decisions/072) */
  audit?: AuditService;
}

/** Who changed a subscription, on the audit trail. */
export type LifecycleActor = AuditInput['actor'];
/** The lifecycle job's changes (renewals, failed payments, expiries) on the audit trail. */
export const LIFECYCLE_ACTOR: LifecycleActor = { kind: 'system', id: 'lifecycle' };

/** The rows of one provider subscription. */
interface RefRows {
  plans: SubscriptionRow[];
  drivers: DriverSubscriptionRow[];
}

/** Statuses a renewal brings back to active (inactive rows are held by an open dispute). */
const RENEWABLE: readonly SubscriptionStatus[] = ['active', 'pending_assignment'];

/** A failed renewal attempt: the open invoice's period end, and the attempts so far if the provider counts them. */
export interface PaymentFailure {
  periodEnd?: Date | undefined;
  /** the provider's count of attempts (Stripe's invoice.attempt_count) */
  attempts?: number | undefined;
  /** false: a state report (a subscription past due), not a new attempt */
  count?: boolean;
}

/** What a transition leaves for after its transaction commits. */
export class AfterCommit {
  readonly users = new Set<string>();
  readonly mails: { userId: string; make: (email: string) => Mail }[] = [];

  /** One mail per user naming everything of theirs that changed. */
  notify(changed: readonly { userId: string; what: string }[], make: (email: string, what: string[]) => Mail) {
    const byUser = new Map<string, string[]>();
    for (const c of changed) byUser.set(c.userId, [...(byUser.get(c.userId) ?? []), c.what]);
    for (const [userId, what] of byUser) this.mails.push({ userId, make: (email) => make(email, what) });
  }
}

/**
 * Subscriptions (docs/decisions/019): the one tier rule, the views of /api/stripe's subscription
 * actions, and the lifecycle. Every lifecycle change, from Stripe's webhook or from the sandbox's
 * billing clock, comes through `renew`, `paymentFailed`, `end`, `setCancelAtPeriodEnd` and
 * `applyPlan`, each keyed by the provider's subscription id; after each, `reconcile` brings the
 * flexible slot count in line with the tier and tells the customer what stopped.
 */
export class SubscriptionService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    private readonly peers: SubscriptionPeers,
    private readonly log?: FastifyBaseLogger,
  ) {}

  private get manageUrl() {
    return `${this.publicUrl}/dashboard/subscriptions/manage`;
  }

  // ---- the tier ---------------------------------------------------------------------------

  /** The account a subscription belongs to (emails). */
  userOf(userId: string) {
    return repo.user(this.db, userId);
  }

  /** The user's tier, by the one rule; undefined for an unknown user. */
  tierOf(ex: Executor, userId: string, now: Date): Promise<TierInfo | undefined> {
    return repo.tierOf(ex, userId, now);
  }

  /** The user's tier now, outside any transaction. */
  tierNow(userId: string, now = this.clock.now()): Promise<TierInfo | undefined> {
    return repo.tierOf(this.db, userId, now);
  }

  /** The robot licenses of driver subscriptions (pages name their models). */
  licensesOf(ids: readonly string[]) {
    return this.peers.licenses.byIds(this.db, ids);
  }

  /** The flexible slots the catalogue's plan of a tier grants (0 for Lite or an unknown tier). */
  async slotsOfTier(tier: TierName): Promise<number> {
    const plan = (await this.peers.products()).find((p) => p.metadata.BOW_TIER === tier);
    return Number(plan?.metadata.BOW_FLEX_SLOTS ?? 0) || 0;
  }

  /**
   * An operator's grant: earlier grants end, the new one starts now with its tier's slots, and wins
   * over any paid plan while it lasts. Lite only ends the grants.
   */
  async grant(
    ex: Executor,
    input: { userId: string; tier: TierName; overrideKind: number; now: Date; endsAt: Date | null },
  ): Promise<SubscriptionRow | undefined> {
    return repo.grant(ex, { ...input, flexSlots: await this.slotsOfTier(input.tier) });
  }

  /**
   * Brings the flexible slot count in line with the tier (an operator's count wins), and tells the
   * customer when slots were emptied. Runs after a change has committed.
   */
  async reconcile(userId: string): Promise<void> {
    const now = this.clock.now();
    const info = await repo.tierOf(this.db, userId, now);
    if (!info) return;
    const change = await this.peers.slots.applyAmount(userId, info.slots, 'subscription');
    if (change && change.to < change.from) {
      const user = await repo.user(this.db, userId);
      if (user)
        await this.send(
          slotsTrimmedMail(user.email, change, `${this.publicUrl}/dashboard/subscriptions/flexible_licenses`),
        );
    }
  }

  // ---- views ------------------------------------------------------------------------------

  private userView(row: SubscriptionRow, email: string): UserSubscription {
    const end = row.endsAt?.getTime() ?? 0;
    return {
      uuid: row.id,
      type: row.overrideKind === OverrideKind.None ? 'plan' : 'grant',
      stripe_id: row.stripeId ?? '',
      user_id: row.userId,
      user_email: email,
      asset_id: row.productId,
      license_id: '',
      duration: end ? Math.max(0, Math.round((end - row.startsAt.getTime()) / 1000)) : 0,
      created_at: row.startsAt.getTime(),
      last_updated_at: row.updatedAt.getTime(),
      status: row.status,
      stripe_customer_id: row.stripeCustomerId ?? '',
      overrideReason: row.overrideKind as OverrideKindValue,
      cancel_at_period_end: row.cancelAtPeriodEnd,
      payment_failed_at: row.paymentFailedAt?.getTime() ?? 0,
      subscription_tier: row.tier,
      credits: 0,
    };
  }

  private driverView(row: DriverSubscriptionRow, email: string): RobotDriverSubscription {
    return {
      uuid: row.id,
      type: 'robot_driver',
      stripe_id: row.stripeId,
      user_id: row.userId,
      user_email: email,
      asset_id: row.assetId,
      license_id: row.robotLicenseId,
      duration: row.durationS,
      created_at: row.createdAt.getTime(),
      last_updated_at: row.updatedAt.getTime(),
      status: row.status,
      stripe_customer_id: row.stripeCustomerId,
      overrideReason: OverrideKind.None,
      cancel_at_period_end: row.cancelAtPeriodEnd,
      payment_failed_at: row.paymentFailedAt?.getTime() ?? 0,
      robot_license_id: row.robotLicenseId,
      credit_used: false,
      credit_entry_uuid: '',
    };
  }

  /**
   * GetActiveUserSubscription: the rows the tier comes from (the grants in force, else the paid plans
   * in force), so the spec's derivation over them gives the server's tier; the override kind of the
   * deciding grant, 99 when the tier is paid for or Lite.
   */
  async activeView(user: { userId: string; email: string }) {
    const info = await repo.tierOf(this.db, user.userId, this.clock.now());
    return {
      user_subscriptions: (info?.pool ?? []).map((r) => this.userView(r, user.email)),
      overrideReason: (info?.deciding?.overrideKind ?? OverrideKind.None) as OverrideKindValue,
    };
  }

  /** ListSubscriptions: every tier and robot-driver subscription of the user, every status. */
  async listView(user: { userId: string; email: string }) {
    const [plans, drivers] = await Promise.all([
      repo.ofUser(this.db, user.userId),
      repo.driversOf(this.db, user.userId),
    ]);
    return {
      user_subscriptions: plans.map((r) => this.userView(r, user.email)),
      robot_driver_subscriptions: drivers.map((r) => this.driverView(r, user.email)),
    };
  }

  /** GetSubscription: a provider subscription of the user (by its id, or one row's uuid), with its items. */
  async providerView(
    user: { userId: string; email: string },
    id: string,
  ): Promise<PaymentProviderSubscription | undefined> {
    const [plans, drivers] = await Promise.all([
      repo.ofUser(this.db, user.userId),
      repo.driversOf(this.db, user.userId),
    ]);
    const byRef = (ref: string | null) => Boolean(ref) && ref === id;
    let p = plans.filter((r) => byRef(r.stripeId));
    let d = drivers.filter((r) => byRef(r.stripeId));
    if (p.length + d.length === 0) {
      p = plans.filter((r) => r.id === id);
      d = drivers.filter((r) => r.id === id);
    }
    if (p.length + d.length === 0) return undefined;
    const starts = [...p.map((r) => r.startsAt), ...d.map((r) => r.createdAt)].map((x) => x.getTime());
    const ends = [...p.map((r) => r.endsAt?.getTime() ?? 0), ...d.map((r) => driverEnd(r).getTime())];
    const startMs = Math.min(...starts);
    const endMs = Math.max(...ends);
    const statuses = [...p, ...d].map((r) => r.status);
    const status = statuses.includes('active') ? 'active' : (statuses[0] ?? 'inactive');
    return {
      subscription_id: p[0]?.stripeId || d[0]?.stripeId || id,
      user_id: user.userId,
      user_email: user.email,
      duration: Math.max(0, Math.round((endMs - startMs) / 1000)),
      starts_at: Math.floor(startMs / 1000),
      ends_at: Math.floor(endMs / 1000),
      status,
      cancel_at_period_end: [...p, ...d].some((r) => r.cancelAtPeriodEnd),
      payment_method_id: '',
      stripe_customer_id: p[0]?.stripeCustomerId || d[0]?.stripeCustomerId || '',
      user_subscriptions: p.map((r) => this.userView(r, user.email)),
      robot_driver_subscriptions: d.map((r) => this.driverView(r, user.email)),
    };
  }

  /** The provider subscription ids of the user, with whether the user owns each (billing page, refunds). */
  async refsOf(userId: string): Promise<Map<string, RefRows>> {
    const [plans, drivers] = await Promise.all([repo.ofUser(this.db, userId), repo.driversOf(this.db, userId)]);
    const out = new Map<string, RefRows>();
    const at = (ref: string) => {
      let rows = out.get(ref);
      if (!rows) {
        rows = { plans: [], drivers: [] };
        out.set(ref, rows);
      }
      return rows;
    };
    for (const r of plans) if (r.stripeId) at(r.stripeId).plans.push(r);
    for (const r of drivers) if (r.stripeId) at(r.stripeId).drivers.push(r);
    return out;
  }

  /** The user's paid plan that still renews or may recover (active or payment failed), if any. */
  async livePlan(userId: string): Promise<SubscriptionRow | undefined> {
    return (await repo.ofUser(this.db, userId)).find(
      (r) => r.overrideKind === OverrideKind.None && r.stripeId && (r.status === 'active' || r.status === 'inactive'),
    );
  }

  /** Rows of a provider subscription, locked in the caller's transaction. */
  lockRows(tx: Executor, ref: string): Promise<RefRows> {
    return repo.lockRef(tx, ref);
  }

  /** Rows of a provider subscription, whoever owns them. */
  async rowsOfRef(ref: string): Promise<RefRows> {
    return this.db.transaction((tx) => repo.lockRef(tx, ref));
  }

  // ---- starting ---------------------------------------------------------------------------

  /**
   * A plan bought at checkout (inside fulfilment's transaction): the user subscription with the
   * plan's tier and slot count. Any other live paid plan of the user ends now, so two plans never
   * run; answers their provider ids, which the caller cancels at the provider after the commit.
   */
  async startPlan(
    tx: Executor,
    input: {
      userId: string;
      plan: PlanTerms;
      ref: string;
      customerId: string;
      sessionId: string;
      now: Date;
      periodEnd: Date;
    },
  ): Promise<string[]> {
    const others = (await repo.ofUser(tx, input.userId)).filter(
      (r) =>
        r.overrideKind === OverrideKind.None &&
        r.stripeId !== input.ref &&
        (r.status === 'active' || r.status === 'inactive'),
    );
    for (const o of others)
      await repo.updatePlan(tx, o.id, { status: 'cancelled', endsAt: input.now, updatedAt: input.now });
    await repo.insert(tx, {
      userId: input.userId,
      tier: input.plan.tier,
      status: 'active',
      overrideKind: OverrideKind.None,
      startsAt: input.now,
      endsAt: input.periodEnd,
      stripeId: input.ref,
      stripeCustomerId: input.customerId,
      productId: input.plan.productId,
      priceId: input.plan.priceId,
      flexSlots: input.plan.flexSlots,
      sessionId: input.sessionId,
      createdAt: input.now,
      updatedAt: input.now,
    });
    return others.flatMap((o) => (o.stripeId ? [o.stripeId] : []));
  }

  // ---- lifecycle transitions (Stripe's webhook and the sandbox's clock) --------------------
  //
  // Each transition runs inside the caller's transaction (`…In`), leaving what happens after the
  // commit (slot counts, mails) in an AfterCommit; the plain forms are one transaction each. Stripe's
  // webhook applies an event, its dedupe row and its order mark in one transaction (issue 31).

  /** What a committed change left to do: slot counts brought in line, then mails. */
  async finish(after: AfterCommit): Promise<void> {
    for (const m of after.mails) {
      const user = await repo.user(this.db, m.userId);
      if (user) await this.send(m.make(user.email));
    }
    for (const u of after.users) await this.reconcile(u);
  }

  /** One transition as its own transaction, then what it left. */
  private async own<T>(work: (tx: Executor, after: AfterCommit) => Promise<T>): Promise<T> {
    const after = new AfterCommit();
    const out = await this.db.transaction((tx) => work(tx, after));
    await this.finish(after);
    return out;
  }

  /**
   * One transition as its own transaction; when it changed something and `by` is given, one change
   * entry on the audit trail in that transaction (docs/decisions/072).
   */
  private recorded(
    by: LifecycleActor | undefined,
    ref: string,
    action: string,
    changes: AuditInput['changes'],
    work: (tx: Executor, after: AfterCommit) => Promise<boolean>,
  ): Promise<boolean> {
    return this.own(async (tx, after) => {
      const changed = await work(tx, after);
      if (changed && by) await this.recordIn(tx, by, ref, action, changes);
      return changed;
    });
  }

  /** A change to a provider subscription on the audit trail, in the caller's transaction (its customer the subject). */
  async recordIn(
    tx: Executor,
    by: LifecycleActor,
    ref: string,
    action: string,
    changes: AuditInput['changes'],
    personal?: AuditInput['personal'],
  ): Promise<void> {
    if (!this.peers.audit) return;
    const { plans, drivers } = await repo.lockRef(tx, ref);
    await this.peers.audit.record(tx, {
      actor: by,
      subjectUserId: plans[0]?.userId ?? drivers[0]?.userId ?? null,
      kind: 'change',
      action,
      target: ref,
      ...(changes ? { changes } : {}),
      ...(personal ? { personal } : {}),
    });
  }

  /**
   * The provider subscription was paid for a period ending at `periodEnd`: its working rows are
   * active until then (never shortened), a payment-failed flag is cleared, driver licences follow.
   * Rows held inactive by an open dispute stay so. Answers whether anything changed; a replay
   * changes nothing.
   */
  renew(ref: string, periodEnd: Date, by?: LifecycleActor): Promise<boolean> {
    return this.recorded(
      by,
      ref,
      'subscription.renew',
      { status: { before: null, after: 'active' }, ends_at: { before: null, after: periodEnd.getTime() } },
      (tx, after) => this.renewIn(tx, ref, periodEnd, after),
    );
  }

  async renewIn(tx: Executor, ref: string, periodEnd: Date, after: AfterCommit): Promise<boolean> {
    const now = this.clock.now();
    const { plans, drivers } = await repo.lockRef(tx, ref);
    let changed = false;
    for (const r of plans) {
      if (!RENEWABLE.includes(r.status)) continue;
      if (r.endsAt && r.endsAt >= periodEnd && r.status === 'active' && !r.paymentFailedAt) continue;
      const endsAt = r.endsAt && r.endsAt > periodEnd ? r.endsAt : periodEnd;
      await repo.updatePlan(tx, r.id, {
        status: 'active',
        endsAt,
        paymentFailedAt: null,
        paymentAttempts: 0,
        updatedAt: now,
      });
      after.users.add(r.userId);
      changed = true;
    }
    for (const r of drivers) {
      if (!RENEWABLE.includes(r.status)) continue;
      const end = driverEnd(r);
      if (end >= periodEnd && r.status === 'active' && !r.paymentFailedAt) continue;
      const endsAt = end > periodEnd ? end : periodEnd;
      const durationS = Math.round((endsAt.getTime() - r.createdAt.getTime()) / 1000);
      await repo.updateDriver(tx, r.id, {
        status: 'active',
        durationS,
        paymentFailedAt: null,
        paymentAttempts: 0,
        updatedAt: now,
      });
      await this.peers.licenses.setEnd(tx, r.robotLicenseId, endsAt);
      after.users.add(r.userId);
      changed = true;
    }
    return changed;
  }

  /**
   * A renewal's payment failed and the provider retries (Stripe's smart retries; the sandbox's
   * days 1, 3 and 5): the plan and its driver licences stay active, the tier stays, and the rows
   * carry the payment-failed flag (the dashboard's banner) and the attempts so far. The period
   * moves on as Stripe's does (`periodEnd`: the open invoice's). The customer is asked for a new
   * card once per failure. Answers whether the flag was newly set.
   */
  paymentFailed(ref: string, opts: PaymentFailure = {}, by?: LifecycleActor): Promise<boolean> {
    return this.recorded(
      by,
      ref,
      'subscription.payment_failed',
      { payment_failed: { before: null, after: true } },
      (tx, after) => this.paymentFailedIn(tx, ref, opts, after),
    );
  }

  async paymentFailedIn(tx: Executor, ref: string, opts: PaymentFailure, after: AfterCommit): Promise<boolean> {
    const now = this.clock.now();
    const { plans, drivers } = await repo.lockRef(tx, ref);
    const attempts = (had: number) =>
      opts.attempts !== undefined ? Math.max(had, opts.attempts) : opts.count === false ? Math.max(had, 1) : had + 1;
    const names: { userId: string; what: string }[] = [];
    for (const r of plans.filter((x) => x.status === 'active')) {
      const endsAt = opts.periodEnd && r.endsAt && opts.periodEnd > r.endsAt ? opts.periodEnd : r.endsAt;
      await repo.updatePlan(tx, r.id, {
        paymentFailedAt: r.paymentFailedAt ?? now,
        paymentAttempts: attempts(r.paymentAttempts),
        endsAt,
        updatedAt: now,
      });
      if (!r.paymentFailedAt) names.push({ userId: r.userId, what: `your ${r.tier}` });
    }
    const working = drivers.filter((x) => x.status === 'active' || x.status === 'pending_assignment');
    const licenses = await this.peers.licenses.byIds(
      tx,
      working.map((d) => d.robotLicenseId),
    );
    for (const r of working) {
      const end = driverEnd(r);
      const extend = opts.periodEnd && opts.periodEnd > end ? opts.periodEnd : undefined;
      await repo.updateDriver(tx, r.id, {
        paymentFailedAt: r.paymentFailedAt ?? now,
        paymentAttempts: attempts(r.paymentAttempts),
        ...(extend ? { durationS: Math.round((extend.getTime() - r.createdAt.getTime()) / 1000) } : {}),
        updatedAt: now,
      });
      if (extend) await this.peers.licenses.setEnd(tx, r.robotLicenseId, extend);
      const model = licenses.find((l) => l.id === r.robotLicenseId)?.robotModel ?? 'robot';
      if (!r.paymentFailedAt) names.push({ userId: r.userId, what: `your ${model} driver licence` });
    }
    after.notify(names, (email, what) => paymentFailedMail(email, what, this.manageUrl));
    return names.length > 0;
  }

  /**
   * The provider subscription ended: `cancelled` (the customer or an operator ended it) or
   * `expired` (it ran out: unpaid, or not renewed). `immediately` ends it now (a refund, a deleted
   * account); otherwise it ended at its period's end. Driver licences stop working at that end.
   */
  end(
    ref: string,
    status: 'cancelled' | 'expired',
    opts: { immediately?: boolean; notify?: boolean } = {},
    by?: LifecycleActor,
  ) {
    return this.recorded(by, ref, 'subscription.end', { status: { before: 'active', after: status } }, (tx, after) =>
      this.endIn(tx, ref, status, opts, after),
    );
  }

  async endIn(
    tx: Executor,
    ref: string,
    status: 'cancelled' | 'expired',
    opts: { immediately?: boolean; notify?: boolean },
    after: AfterCommit,
  ): Promise<boolean> {
    const now = this.clock.now();
    const { plans, drivers } = await repo.lockRef(tx, ref);
    const changed = await this.endRows(tx, { plans, drivers }, status, now, opts.immediately ?? false);
    if (opts.notify ?? true)
      after.notify(changed, (email, what) =>
        stoppedMail(
          email,
          what,
          status === 'cancelled' ? 'the subscription was cancelled' : 'the subscription ended',
          this.manageUrl,
        ),
      );
    for (const c of changed) after.users.add(c.userId);
    return changed.length > 0;
  }

  /** Whether a provider subscription's rows carry the payment-failed flag (Stripe gave up on a failed renewal). */
  async paymentFailing(tx: Executor, ref: string): Promise<boolean> {
    const { plans, drivers } = await repo.lockRef(tx, ref);
    return [...plans, ...drivers].some((r) => r.paymentFailedAt && LIVE_STATUSES.includes(r.status));
  }

  private async endRows(tx: Executor, rows: RefRows, status: SubscriptionStatus, now: Date, immediately: boolean) {
    const names: { userId: string; what: string; id: string; before: string }[] = [];
    for (const r of rows.plans.filter((x) => LIVE_STATUSES.includes(x.status))) {
      const endsAt = immediately && (!r.endsAt || r.endsAt > now) ? now : r.endsAt;
      await repo.updatePlan(tx, r.id, { status, endsAt, cancelAtPeriodEnd: false, updatedAt: now });
      names.push({ userId: r.userId, what: `your ${r.tier}`, id: r.id, before: r.status });
    }
    const live = rows.drivers.filter((x) => LIVE_STATUSES.includes(x.status));
    const licenses = await this.peers.licenses.byIds(
      tx,
      live.map((d) => d.robotLicenseId),
    );
    for (const r of live) {
      const end = driverEnd(r);
      const endsAt = immediately && end > now ? now : end;
      const durationS = Math.max(0, Math.round((endsAt.getTime() - r.createdAt.getTime()) / 1000));
      await repo.updateDriver(tx, r.id, { status, durationS, cancelAtPeriodEnd: false, updatedAt: now });
      await this.peers.licenses.setEnd(tx, r.robotLicenseId, endsAt);
      const model = licenses.find((l) => l.id === r.robotLicenseId)?.robotModel ?? 'robot';
      names.push({ userId: r.userId, what: `your ${model} driver licence`, id: r.id, before: r.status });
    }
    return names;
  }

  /** Cancel at period end (true) or resume (false): the rows keep working until their end either way. */
  setCancelAtPeriodEnd(ref: string, cancel: boolean): Promise<void> {
    return this.own((tx) => this.setCancelAtPeriodEndIn(tx, ref, cancel));
  }

  async setCancelAtPeriodEndIn(tx: Executor, ref: string, cancel: boolean): Promise<void> {
    const now = this.clock.now();
    const { plans, drivers } = await repo.lockRef(tx, ref);
    for (const r of plans.filter((x) => LIVE_STATUSES.includes(x.status) && x.cancelAtPeriodEnd !== cancel))
      await repo.updatePlan(tx, r.id, { cancelAtPeriodEnd: cancel, updatedAt: now });
    for (const r of drivers.filter((x) => LIVE_STATUSES.includes(x.status) && x.cancelAtPeriodEnd !== cancel))
      await repo.updateDriver(tx, r.id, { cancelAtPeriodEnd: cancel, updatedAt: now });
  }

  /**
   * The plan of a provider subscription changed (an upgrade or a downgrade): the same row takes the
   * new tier, price and slot count; slots shrink at once when the new plan has fewer. With
   * `periodEnd`, a new period starts (a change of interval). Answers the tiers before and after.
   */
  applyPlan(ref: string, plan: PlanTerms, periodEnd?: Date) {
    return this.own((tx, after) => this.applyPlanIn(tx, ref, plan, periodEnd, after));
  }

  async applyPlanIn(tx: Executor, ref: string, plan: PlanTerms, periodEnd: Date | undefined, after: AfterCommit) {
    const now = this.clock.now();
    const { plans } = await repo.lockRef(tx, ref);
    const row = plans.find((r) => LIVE_STATUSES.includes(r.status));
    if (!row || (row.priceId === plan.priceId && !periodEnd)) return undefined;
    await repo.updatePlan(tx, row.id, {
      tier: plan.tier,
      productId: plan.productId,
      priceId: plan.priceId,
      flexSlots: plan.flexSlots,
      ...(periodEnd ? { endsAt: periodEnd } : {}),
      updatedAt: now,
    });
    const done = { userId: row.userId, from: row.tier, to: plan.tier };
    if (done.from !== done.to)
      after.mails.push({
        userId: done.userId,
        make: (email) => planChangedMail(email, done.from, done.to, this.manageUrl),
      });
    after.users.add(done.userId);
    return done;
  }

  /**
   * A disputed payment (Stripe's charge.dispute.created): what it granted stops working while the
   * dispute is open (`hold`: active rows become inactive, shown as Inactive, and the tier rule drops
   * the tier); a dispute won gives it back (inactive rows active again). `sessionId` narrows the
   * rows to a checkout's. Answers the users whose rows changed.
   */
  async holdIn(
    tx: Executor,
    target: { ref: string | null; sessionId?: string | null | undefined },
    hold: boolean,
    after: AfterCommit,
  ): Promise<string[]> {
    if (!target.ref) return [];
    const now = this.clock.now();
    const rows = await repo.lockRef(tx, target.ref);
    const mine = (r: { sessionId: string | null }) =>
      !target.sessionId || r.sessionId === target.sessionId || !r.sessionId;
    const [from, to] = hold ? (['active', 'inactive'] as const) : (['inactive', 'active'] as const);
    const users = new Set<string>();
    for (const r of rows.plans.filter((x) => x.status === from && mine(x))) {
      await repo.updatePlan(tx, r.id, { status: to, updatedAt: now });
      users.add(r.userId);
    }
    for (const r of rows.drivers.filter((x) => x.status === from && mine(x))) {
      await repo.updateDriver(tx, r.id, { status: to, updatedAt: now });
      users.add(r.userId);
    }
    for (const u of users) after.users.add(u);
    return [...users];
  }

  /**
   * What a refunded checkout granted, taken back (inside the refund's transaction): its plan and
   * driver subscriptions end now. Answers the provider subscriptions to cancel and the users to reconcile.
   */
  async revokeSession(tx: Executor, sessionId: string, ref: string | null) {
    const now = this.clock.now();
    if (!ref) return [];
    const rows = await repo.lockRef(tx, ref);
    const mine: RefRows = {
      plans: rows.plans.filter((r) => r.sessionId === sessionId || !r.sessionId),
      drivers: rows.drivers.filter((r) => r.sessionId === sessionId || !r.sessionId),
    };
    return this.endRows(tx, mine, 'cancelled', now, true);
  }

  /** A refunded renewal or plan change takes back the period: the provider subscription ends now. */
  async revokeRef(tx: Executor, ref: string) {
    const rows = await repo.lockRef(tx, ref);
    return this.endRows(tx, rows, 'cancelled', this.clock.now(), true);
  }

  /** Live provider subscription ids of the user: what account deletion cancels first. */
  async liveRefsOf(userId: string): Promise<string[]> {
    const refs = await this.refsOf(userId);
    return [...refs.entries()]
      .filter(([, rows]) => [...rows.plans, ...rows.drivers].some((r) => LIVE_STATUSES.includes(r.status)))
      .map(([ref]) => ref);
  }

  // ---- the clock ----------------------------------------------------------------------------

  /** Provider subscription ids whose period has ended while live: the sandbox renews or ends them. */
  dueRefs(now: Date): Promise<string[]> {
    return repo.dueRefs(this.db, now);
  }

  /** Provider subscription ids whose renewal failed and is being retried (the sandbox retries them). */
  failingRefs(): Promise<string[]> {
    return repo.failingRefs(this.db);
  }

  /** Live rows past their period end that the lifecycle job or Stripe's webhook has yet to move on (a metric). */
  async overdue(): Promise<number> {
    const now = this.clock.now();
    const [refs, unbilled] = await Promise.all([repo.dueRefs(this.db, now), repo.dueUnbilled(this.db, now)]);
    return refs.length + unbilled.plans.length + unbilled.drivers.length;
  }

  /** Ends a row's current period now (the sandbox's EndSubscriptionPeriod): by row uuid or provider id. */
  async endPeriodNow(id: string): Promise<string | undefined> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      let rows = await repo.lockRef(tx, id);
      if (rows.plans.length + rows.drivers.length === 0) {
        const byId = await repo.rowById(tx, id);
        if (!byId?.ref) return undefined;
        rows = await repo.lockRef(tx, byId.ref);
      }
      const ref = rows.plans[0]?.stripeId ?? rows.drivers[0]?.stripeId;
      if (!ref) return undefined;
      for (const r of rows.plans.filter((x) => LIVE_STATUSES.includes(x.status)))
        await repo.updatePlan(tx, r.id, { endsAt: now, updatedAt: now });
      for (const r of rows.drivers.filter((x) => LIVE_STATUSES.includes(x.status))) {
        const durationS = Math.max(0, Math.floor((now.getTime() - r.createdAt.getTime()) / 1000));
        await repo.updateDriver(tx, r.id, { durationS, updatedAt: now });
        await this.peers.licenses.setEnd(tx, r.robotLicenseId, now);
      }
      return ref;
    });
  }

  /**
   * Rows no provider bills (operator grants, demo and operator drivers) whose end passed: expired.
   * Stripe rows long past their end with no renewal event: expired too. Answers how many ended.
   */
  async expireUnbilled(): Promise<number> {
    const now = this.clock.now();
    const due = await repo.dueUnbilled(this.db, now);
    const changed = await this.db.transaction(async (tx) => {
      const ended = await this.endRows(tx, due, 'expired', now, false);
      // One entry per subscription the job ended (docs/decisions/072).
      for (const c of ended)
        await this.peers.audit?.record(tx, {
          actor: LIFECYCLE_ACTOR,
          subjectUserId: c.userId,
          kind: 'change',
          action: 'subscription.expire',
          target: c.id,
          changes: { status: { before: c.before, after: 'expired' } },
        });
      return ended;
    });
    await this.notify(changed, (email, what) => stoppedMail(email, what, 'it reached its end date', this.manageUrl));
    let ended = changed.length;
    for (const ref of await repo.dueRefs(this.db, new Date(now.getTime() - MISSED_RENEWAL_GRACE_MS)))
      if (!repo.isSandboxRef(ref) && (await this.end(ref, 'expired', {}, LIFECYCLE_ACTOR))) ended += 1;
    for (const u of new Set(changed.map((c) => c.userId))) await this.reconcile(u);
    return ended;
  }

  /**
   * Reminders 30 and 7 days before a driver licence or a yearly plan renews or ends, once per
   * period each (the key names the period's end). A reminder whose window has passed is skipped:
   * a 30-day notice arriving 5 days ahead would mislead. Answers how many were sent.
   */
  async sendReminders(): Promise<number> {
    const now = this.clock.now();
    const { plans, drivers } = await repo.endingBefore(this.db, now, new Date(now.getTime() + 30 * ONE_DAY_MS));
    const products = await this.peers.products();
    const licenses = new Map(
      (
        await this.peers.licenses.byIds(
          this.db,
          drivers.map((d) => d.robotLicenseId),
        )
      ).map((l) => [l.id, l]),
    );
    const candidates = [
      ...plans
        .filter((r) => planOfPrice(products, r.priceId)?.interval === 'year')
        .map((r) => ({
          id: r.id,
          userId: r.userId,
          endsAt: r.endsAt as Date,
          renews: Boolean(r.stripeId) && !r.cancelAtPeriodEnd,
          what: `Your ${r.tier}`,
        })),
      ...drivers.map((r) => ({
        id: r.id,
        userId: r.userId,
        endsAt: driverEnd(r),
        renews: Boolean(r.stripeId) && !r.cancelAtPeriodEnd,
        what: `Your ${licenses.get(r.robotLicenseId)?.robotModel ?? 'robot'} driver licence`,
      })),
    ];
    let sent = 0;
    for (const c of candidates) {
      const left = c.endsAt.getTime() - now.getTime();
      const days = left <= 7 * ONE_DAY_MS ? 7 : 30;
      const key = `reminder:${days}:${c.id}:${c.endsAt.getTime()}`;
      if (!(await repo.claimNotice(this.db, key, c.userId, now))) continue;
      const user = await repo.user(this.db, c.userId);
      if (!user) continue;
      await this.send(
        reminderMail(user.email, { what: c.what, endsAt: c.endsAt, renews: c.renews, days }, this.manageUrl),
      );
      sent += 1;
    }
    return sent;
  }

  // ---- mail ---------------------------------------------------------------------------------

  private async notify(changed: { userId: string; what: string }[], make: (email: string, what: string[]) => Mail) {
    const byUser = new Map<string, string[]>();
    for (const c of changed) byUser.set(c.userId, [...(byUser.get(c.userId) ?? []), c.what]);
    for (const [userId, what] of byUser) {
      const user = await repo.user(this.db, userId);
      if (user) await this.send(make(user.email, what));
    }
  }

  /**
   * A mail to an account about its subscriptions or payments (a receipt, a refund, a dispute):
   * addressed to the account's email now; nothing when the account is gone. A failure is logged.
   */
  async mailAccount(userId: string, make: (email: string) => Mail): Promise<void> {
    const user = await repo.user(this.db, userId);
    if (user) await this.send(make(user.email));
  }

  /** A lifecycle email; a mail failure is logged and never undoes the change. */
  private async send(mail: Mail) {
    try {
      await this.mailer.send(mail);
    } catch (err) {
      this.log?.warn({ err, subject: mail.subject }, 'mail about a subscription or payment failed');
    }
  }
}
