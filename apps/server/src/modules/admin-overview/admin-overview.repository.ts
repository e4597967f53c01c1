import { and, count, eq, gte, isNotNull, isNull, max, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  outbox,
  payments,
  providerEvents,
  robotDriverSubscriptions,
  robots,
  subscriptions,
  supportRequests,
  users,
} from '../../db/schema.ts';

const PAID = 99;

/**
 * The overview's counts (docs/decisions/076). A read-only report across the modules' tables, each a
 * count or a grouped count the tables' indexes serve: going through every module's service would
 * load rows only to count them. Nothing here writes.
 */
export const overviewRepository = {
  async accounts(db: Executor, since: Date) {
    const [row] = await db
      .select({
        total: count(),
        recent: sql<number>`count(*) filter (where ${users.joinedAt} >= ${since.toISOString()}::timestamptz)`.mapWith(
          Number,
        ),
      })
      .from(users)
      .where(isNull(users.staffRole));
    return { total: row?.total ?? 0, recent: row?.recent ?? 0 };
  },

  /** Active tier subscriptions by tier, bought or granted. */
  async plansByTier(db: Executor) {
    const rows = await db
      .select({ tier: subscriptions.tier, overrideKind: subscriptions.overrideKind, n: count() })
      .from(subscriptions)
      .where(eq(subscriptions.status, 'active'))
      .groupBy(subscriptions.tier, subscriptions.overrideKind);
    return rows.map((r) => ({ tier: r.tier, paid: r.overrideKind === PAID, n: r.n }));
  },

  /** Active bought plans by the price they renew at ('' for a price not recorded). */
  async activePlanPrices(db: Executor) {
    return db
      .select({ priceId: subscriptions.priceId, n: count() })
      .from(subscriptions)
      .where(and(eq(subscriptions.status, 'active'), eq(subscriptions.overrideKind, PAID)))
      .groupBy(subscriptions.priceId);
  },

  /** Active robot-driver subscriptions by price ('' for demo and operator rows, which nobody pays). */
  async activeDriverPrices(db: Executor) {
    return db
      .select({ priceId: robotDriverSubscriptions.priceId, n: count() })
      .from(robotDriverSubscriptions)
      .where(eq(robotDriverSubscriptions.status, 'active'))
      .groupBy(robotDriverSubscriptions.priceId);
  },

  async robotsOnline(db: Executor, reportedSince: Date): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(robots)
      .where(and(eq(robots.available, true), gte(robots.lastSeenAt, reportedSince)));
    return row?.n ?? 0;
  },

  async openSupport(db: Executor) {
    return db
      .select({ status: supportRequests.status, n: count() })
      .from(supportRequests)
      .where(ne(supportRequests.status, 'closed'))
      .groupBy(supportRequests.status);
  },

  async failedRenewals(db: Executor) {
    const [[plans], [drivers]] = await Promise.all([
      db
        .select({ n: count() })
        .from(subscriptions)
        .where(and(eq(subscriptions.status, 'active'), isNotNull(subscriptions.paymentFailedAt))),
      db
        .select({ n: count() })
        .from(robotDriverSubscriptions)
        .where(and(eq(robotDriverSubscriptions.status, 'active'), isNotNull(robotDriverSubscriptions.paymentFailedAt))),
    ]);
    return { plans: plans?.n ?? 0, drivers: drivers?.n ?? 0 };
  },

  async openDisputes(db: Executor): Promise<number> {
    const [row] = await db.select({ n: count() }).from(payments).where(eq(payments.disputeStatus, 'open'));
    return row?.n ?? 0;
  },

  async outbox(db: Executor, now: Date) {
    const [row] = await db
      .select({
        due: sql<number>`count(*) filter (where ${outbox.runAfter} <= ${now.toISOString()}::timestamptz)`.mapWith(
          Number,
        ),
        failing:
          sql<number>`count(*) filter (where ${outbox.attempts} > 0 and ${outbox.lastError} is not null)`.mapWith(
            Number,
          ),
      })
      .from(outbox)
      .where(isNull(outbox.doneAt));
    return { due: row?.due ?? 0, failing: row?.failing ?? 0 };
  },

  async webhooks(db: Executor, since: Date) {
    const [[last], [recent]] = await Promise.all([
      db.select({ at: max(providerEvents.receivedAt) }).from(providerEvents),
      db.select({ n: count() }).from(providerEvents).where(gte(providerEvents.receivedAt, since)),
    ]);
    return { lastAt: last?.at ?? null, recent: recent?.n ?? 0 };
  },
};
