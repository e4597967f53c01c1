import type { SubscriptionStatus, TierName, TierShort } from '@portal/contract';
import { and, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, epochMsOf, preparedSql, type SqlValue } from '../../db/client.ts';
import { lifecycleNotices, robotDriverSubscriptions, subscriptions, users } from '../../db/schema.ts';
import { entitlementOf, inForce } from './subscriptions.rules.ts';

/**
 * A time as a parameter of a raw SQL fragment. A column comparison maps a Date itself, but a bare
 * Date in `sql` reaches the driver as it is, which postgres.js refuses (PGlite accepts it).
 */
const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

export type SubscriptionRow = typeof subscriptions.$inferSelect;

/**
 * The join date and the subscriptions of a user, in one statement, on every dial-time read. Exported
 * so the benchmark's bare baseline runs the same text; made into text once (preparedSql), its rows
 * mapped here (times come as epoch milliseconds).
 */
export const tierRowsStatement = (userId: SqlValue): SQL => sql`
  select ${epochMsOf(users.joinedAt)} as "joinedAt", ${subscriptions.id} as "id", ${subscriptions.userId} as "userId",
    ${subscriptions.tier} as "tier", ${subscriptions.status} as "status", ${subscriptions.overrideKind} as "overrideKind",
    ${epochMsOf(subscriptions.startsAt)} as "startsAt", ${epochMsOf(subscriptions.endsAt)} as "endsAt",
    ${subscriptions.stripeId} as "stripeId", ${subscriptions.stripeCustomerId} as "stripeCustomerId",
    ${subscriptions.productId} as "productId", ${subscriptions.priceId} as "priceId", ${subscriptions.flexSlots} as "flexSlots",
    ${subscriptions.cancelAtPeriodEnd} as "cancelAtPeriodEnd", ${subscriptions.sessionId} as "sessionId",
    ${epochMsOf(subscriptions.paymentFailedAt)} as "paymentFailedAt", ${subscriptions.paymentAttempts} as "paymentAttempts",
    ${epochMsOf(subscriptions.createdAt)} as "createdAt", ${epochMsOf(subscriptions.updatedAt)} as "updatedAt"
  from ${users} left join ${subscriptions} on ${subscriptions.userId} = ${users.id}
  where ${users.id} = ${userId}
  order by ${subscriptions.startsAt}`;

/** A row of tierRowsStatement: the user's join date, and a subscription's columns (all null when none). */
type TierJoinRow = { joinedAt: number } & {
  [K in keyof SubscriptionRow]: SubscriptionRow[K] extends Date ? number : SubscriptionRow[K];
};
const tierRowsQuery = preparedSql<TierJoinRow | ({ joinedAt: number } & Record<keyof SubscriptionRow, null>)>(
  tierRowsStatement(sql.placeholder('userId')),
);

/** A subscription of tierRowsStatement's row, its times as Dates (written out: a spread costs more). */
const subscriptionOf = (r: TierJoinRow): SubscriptionRow => ({
  id: r.id,
  userId: r.userId,
  tier: r.tier,
  status: r.status,
  overrideKind: r.overrideKind,
  startsAt: new Date(r.startsAt),
  endsAt: r.endsAt === null ? null : new Date(r.endsAt),
  stripeId: r.stripeId,
  stripeCustomerId: r.stripeCustomerId,
  productId: r.productId,
  priceId: r.priceId,
  flexSlots: r.flexSlots,
  cancelAtPeriodEnd: r.cancelAtPeriodEnd,
  sessionId: r.sessionId,
  paymentFailedAt: r.paymentFailedAt === null ? null : new Date(r.paymentFailedAt),
  paymentAttempts: r.paymentAttempts,
  createdAt: new Date(r.createdAt),
  updatedAt: new Date(r.updatedAt),
});

export type DriverSubscriptionRow = typeof robotDriverSubscriptions.$inferSelect;

export interface TierInfo {
  tier: TierShort;
  /** where the dial-time periods are counted from: the deciding subscription's start, else the join date */
  anchor: Date;
  /** the deciding subscription's current period end; null for Lite or an open-ended one */
  endsAt: Date | null;
  /** flexible slots the deciding subscription grants */
  slots: number;
  deciding: SubscriptionRow | undefined;
  /** the rows the tier comes from (GetActiveUserSubscription) */
  pool: SubscriptionRow[];
  /** when a renewal of the user's working paid plan failed (the provider still retries); null: none */
  paymentFailedAt: Date | null;
}

/** Statuses of a subscription that may still renew or recover (docs/decisions/019). */
export const LIVE_STATUSES: readonly SubscriptionStatus[] = ['active', 'inactive', 'pending_assignment'];

/** The end of a driver subscription's current period: created_at + duration (spec/001 §9). */
export const driverEnd = (row: Pick<DriverSubscriptionRow, 'createdAt' | 'durationS'>): Date =>
  new Date(row.createdAt.getTime() + row.durationS * 1000);

/**
 * Tier subscriptions and robot-driver subscriptions (docs/decisions/018, 019). Every method takes
 * the executor so the lifecycle runs inside its callers' transactions.
 */
export const subscriptionRepository = {
  async user(db: Executor, userId: string) {
    const [row] = await db
      .select({ id: users.id, email: users.email, name: users.name, joinedAt: users.joinedAt })
      .from(users)
      .where(eq(users.id, userId));
    return row;
  },

  /** The user's tier subscriptions in force (active, period not ended). */
  async active(db: Executor, userId: string, now: Date): Promise<SubscriptionRow[]> {
    return (await this.ofUser(db, userId)).filter((r) => inForce(r, now));
  },

  /** The user's tier by the one rule (subscriptions.rules.ts); undefined for an unknown user. */
  async tierOf(db: Executor, userId: string, now: Date): Promise<TierInfo | undefined> {
    // One statement: the join date (the anchor without a subscription) and the user's subscriptions.
    const rows = await tierRowsQuery(db, { userId });
    const user = rows[0];
    if (!user) return undefined;
    const subs = rows.flatMap((r) => (r.id === null ? [] : [subscriptionOf(r)]));
    const e = entitlementOf(subs, now);
    let paymentFailedAt: Date | null = null;
    for (const r of subs)
      if (
        r.paymentFailedAt &&
        r.status === 'active' &&
        r.stripeId &&
        (!paymentFailedAt || r.paymentFailedAt < paymentFailedAt)
      )
        paymentFailedAt = r.paymentFailedAt;
    return {
      tier: e.tier,
      anchor: e.deciding?.startsAt ?? new Date(user.joinedAt),
      endsAt: e.deciding?.endsAt ?? null,
      slots: e.slots,
      deciding: e.deciding,
      pool: e.pool,
      paymentFailedAt,
    };
  },

  /**
   * An operator's grant: the user's earlier grants end and the new one starts now (granting Lite only
   * ends them). Paid plans are left alone: they keep billing, and the grant wins while it lasts.
   */
  async grant(
    db: Executor,
    input: { userId: string; tier: TierName; overrideKind: number; now: Date; endsAt: Date | null; flexSlots?: number },
  ): Promise<SubscriptionRow | undefined> {
    await this.endGrants(db, input.userId, input.now);
    if (input.tier === 'Lite Subscription') return undefined;
    return this.insertGrant(db, { ...input, flexSlots: input.flexSlots ?? 0 });
  },

  ofUser(db: Executor, userId: string): Promise<SubscriptionRow[]> {
    return db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(subscriptions.startsAt);
  },

  driversOf(db: Executor, userId: string): Promise<DriverSubscriptionRow[]> {
    return db
      .select()
      .from(robotDriverSubscriptions)
      .where(eq(robotDriverSubscriptions.userId, userId))
      .orderBy(robotDriverSubscriptions.createdAt);
  },

  async insert(db: Executor, row: typeof subscriptions.$inferInsert): Promise<SubscriptionRow> {
    const [created] = await db.insert(subscriptions).values(row).returning();
    if (!created) throw new Error('subscription insert returned no row');
    return created;
  },

  /** The rows of a provider subscription, locked until the transaction ends: events for it queue here. */
  async lockRef(db: Executor, ref: string) {
    const plans = await db.select().from(subscriptions).where(eq(subscriptions.stripeId, ref)).for('update');
    const drivers = await db
      .select()
      .from(robotDriverSubscriptions)
      .where(eq(robotDriverSubscriptions.stripeId, ref))
      .for('update');
    return { plans, drivers };
  },

  async updatePlan(db: Executor, id: string, set: Partial<typeof subscriptions.$inferInsert>) {
    await db.update(subscriptions).set(set).where(eq(subscriptions.id, id));
  },

  async updateDriver(db: Executor, id: string, set: Partial<typeof robotDriverSubscriptions.$inferInsert>) {
    await db.update(robotDriverSubscriptions).set(set).where(eq(robotDriverSubscriptions.id, id));
  },

  /** Operator grants (override kind other than 99) of the user that are active end now. */
  async endGrants(db: Executor, userId: string, now: Date) {
    await db
      .update(subscriptions)
      .set({ status: 'cancelled', endsAt: now, updatedAt: now })
      .where(
        and(
          eq(subscriptions.userId, userId),
          eq(subscriptions.status, 'active'),
          or(ne(subscriptions.overrideKind, 99), sql`${subscriptions.stripeId} is null`),
        ),
      );
  },

  async insertGrant(
    db: Executor,
    input: { userId: string; tier: TierName; overrideKind: number; now: Date; endsAt: Date | null; flexSlots: number },
  ) {
    return this.insert(db, {
      userId: input.userId,
      tier: input.tier,
      status: 'active',
      overrideKind: input.overrideKind,
      startsAt: input.now,
      endsAt: input.endsAt,
      flexSlots: input.flexSlots,
      createdAt: input.now,
      updatedAt: input.now,
    });
  },

  /** Provider subscription ids with a row whose period has ended and that is still live. */
  async dueRefs(db: Executor, now: Date): Promise<string[]> {
    const plans = await db
      .selectDistinct({ ref: subscriptions.stripeId })
      .from(subscriptions)
      .where(
        and(
          inArray(subscriptions.status, [...LIVE_STATUSES]),
          sql`${subscriptions.stripeId} is not null and ${subscriptions.stripeId} <> ''`,
          sql`${subscriptions.endsAt} <= ${at(now)}`,
        ),
      );
    const drivers = await db
      .selectDistinct({ ref: robotDriverSubscriptions.stripeId })
      .from(robotDriverSubscriptions)
      .where(
        and(
          inArray(robotDriverSubscriptions.status, [...LIVE_STATUSES]),
          ne(robotDriverSubscriptions.stripeId, ''),
          sql`${robotDriverSubscriptions.createdAt} + make_interval(secs => ${robotDriverSubscriptions.durationS}) <= ${at(now)}`,
        ),
      );
    return [...new Set([...plans, ...drivers].map((r) => r.ref ?? '').filter(Boolean))];
  },

  /** Provider subscription ids with a working row whose renewal failed (the provider still retries). */
  async failingRefs(db: Executor): Promise<string[]> {
    const plans = await db
      .selectDistinct({ ref: subscriptions.stripeId })
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.status, 'active'),
          sql`${subscriptions.paymentFailedAt} is not null and ${subscriptions.stripeId} is not null`,
        ),
      );
    const drivers = await db
      .selectDistinct({ ref: robotDriverSubscriptions.stripeId })
      .from(robotDriverSubscriptions)
      .where(
        and(
          inArray(robotDriverSubscriptions.status, ['active', 'pending_assignment']),
          sql`${robotDriverSubscriptions.paymentFailedAt} is not null`,
          ne(robotDriverSubscriptions.stripeId, ''),
        ),
      );
    return [...new Set([...plans, ...drivers].map((r) => r.ref ?? '').filter(Boolean))];
  },

  /** Rows without a provider subscription (grants, demo and operator drivers) whose end has passed while live. */
  async dueUnbilled(db: Executor, now: Date) {
    const plans = await db
      .select()
      .from(subscriptions)
      .where(
        and(
          inArray(subscriptions.status, [...LIVE_STATUSES]),
          or(sql`${subscriptions.stripeId} is null`, eq(subscriptions.stripeId, '')),
          sql`${subscriptions.endsAt} <= ${at(now)}`,
        ),
      );
    const drivers = await db
      .select()
      .from(robotDriverSubscriptions)
      .where(
        and(
          inArray(robotDriverSubscriptions.status, [...LIVE_STATUSES]),
          eq(robotDriverSubscriptions.stripeId, ''),
          sql`${robotDriverSubscriptions.createdAt} + make_interval(secs => ${robotDriverSubscriptions.durationS}) <= ${at(now)}`,
        ),
      );
    return { plans, drivers };
  },

  /** Active rows whose period ends within `until`: the reminders' candidates. */
  async endingBefore(db: Executor, now: Date, until: Date) {
    const plans = await db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.status, 'active'),
          sql`${subscriptions.endsAt} > ${at(now)} and ${subscriptions.endsAt} <= ${at(until)}`,
        ),
      );
    const drivers = await db
      .select()
      .from(robotDriverSubscriptions)
      .where(
        and(
          eq(robotDriverSubscriptions.status, 'active'),
          sql`${robotDriverSubscriptions.createdAt} + make_interval(secs => ${robotDriverSubscriptions.durationS}) > ${at(now)}`,
          sql`${robotDriverSubscriptions.createdAt} + make_interval(secs => ${robotDriverSubscriptions.durationS}) <= ${at(until)}`,
        ),
      );
    return { plans, drivers };
  },

  /** Claims a notice's key; false when it was sent before (each notice goes out once). */
  async claimNotice(db: Executor, key: string, userId: string, now: Date): Promise<boolean> {
    const rows = await db
      .insert(lifecycleNotices)
      .values({ key, userId, sentAt: now })
      .onConflictDoNothing({ target: lifecycleNotices.key })
      .returning({ key: lifecycleNotices.key });
    return rows.length === 1;
  },

  /** The provider subscription id of a tier or driver row by its uuid. */
  async rowById(db: Executor, id: string): Promise<{ ref: string } | undefined> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
    const [plan] = await db.select({ ref: subscriptions.stripeId }).from(subscriptions).where(eq(subscriptions.id, id));
    if (plan) return { ref: plan.ref ?? '' };
    const [driver] = await db
      .select({ ref: robotDriverSubscriptions.stripeId })
      .from(robotDriverSubscriptions)
      .where(eq(robotDriverSubscriptions.id, id));
    return driver ? { ref: driver.ref } : undefined;
  },

  /** Sandbox provider subscription ids look like this (docs/decisions/019). */
  isSandboxRef: (ref: string) => ref.startsWith('sub_sandbox_'),
};
