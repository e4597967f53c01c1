import type { LedgerEntry } from '@portal/contract';
import { type AnyColumn, and, eq, gt, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, epochMsOf, preparedSql, type SqlValue } from '../../db/client.ts';
import { robots, timeAccounts, timeLedger } from '../../db/schema.ts';

export type LedgerRow = typeof timeLedger.$inferSelect;

export interface LedgerWrite extends LedgerEntry {
  robotId?: string | null;
  robotModel?: string | null;
  reason?: string;
  idempotencyKey?: string | null;
  createdAt: Date;
}

const total = (column: AnyColumn) => sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);

/**
 * The ledger summed per kind and period, on every dial-time read. Exported so the benchmark's bare
 * baseline runs the same text; made into text once (preparedSql). The period start comes as epoch
 * milliseconds.
 */
export const ledgerSumsStatement = (userId: SqlValue): SQL => sql`
  select ${timeLedger.kind} as "kind", ${epochMsOf(timeLedger.periodStart)} as "periodStart",
    coalesce(sum(${timeLedger.perishable}), 0) as "perishable", coalesce(sum(${timeLedger.durable}), 0) as "durable",
    coalesce(sum(${timeLedger.minutes}), 0) as "minutes"
  from ${timeLedger} where ${timeLedger.userId} = ${userId}
  group by ${timeLedger.kind}, ${timeLedger.periodStart}`;
/** A bigint as a driver gives it: text from postgres.js, a number or a BigInt from PGlite. */
type Sum = number | string | bigint;
const sumsQuery = preparedSql<{
  kind: LedgerEntry['kind'];
  periodStart: number;
  perishable: Sum;
  durable: Sum;
  minutes: Sum;
}>(ledgerSumsStatement(sql.placeholder('userId')));

/** The UTC calendar day of an instant, as `YYYY-MM-DD` (docs/decisions/029). */
const utcDayOf = (column: AnyColumn) =>
  sql<string>`to_char(date_trunc('day', ${column} at time zone 'UTC'), 'YYYY-MM-DD')`;

/** Minutes used on one robot on one UTC day, and what names the robot. */
export interface UsageRow {
  day: string;
  robotId: string;
  minutes: number;
  /** the model the ledger recorded when it was dialled (null for older rows or robots the caller could not see) */
  recordedModel: string | null;
  /** the robot as registered to the user now; null when it is not the user's */
  currentName: string | null;
  currentModel: string | null;
}

export interface UsageEventRow {
  day: string;
  kind: 'allocation' | 'purchase' | 'grant';
  minutes: number;
}

export const timeRepository = {
  /**
   * Takes the user's dial-time lock for the rest of the transaction: creates the lock row if
   * needed, then SELECT ... FOR UPDATE. Concurrent writers for the same user wait here.
   */
  async lock(tx: Executor, userId: string, now: Date): Promise<void> {
    await tx.insert(timeAccounts).values({ userId, createdAt: now, updatedAt: now }).onConflictDoNothing();
    await tx
      .select({ userId: timeAccounts.userId })
      .from(timeAccounts)
      .where(eq(timeAccounts.userId, userId))
      .for('update');
  },

  /**
   * The ledger summed per kind and period: few rows, and the same arithmetic applies to them as to
   * the entries one by one (they are sums).
   */
  async sums(db: Executor, userId: string): Promise<LedgerEntry[]> {
    const rows = await sumsQuery(db, { userId });
    return rows.map((r) => ({
      kind: r.kind,
      perishable: Number(r.perishable),
      durable: Number(r.durable),
      minutes: Number(r.minutes),
      periodStart: r.periodStart,
    }));
  },

  async byIdempotencyKey(db: Executor, userId: string, key: string): Promise<LedgerRow | undefined> {
    const [row] = await db
      .select()
      .from(timeLedger)
      .where(and(eq(timeLedger.userId, userId), eq(timeLedger.idempotencyKey, key)));
    return row;
  },

  async append(db: Executor, userId: string, entries: readonly LedgerWrite[]): Promise<void> {
    if (entries.length === 0) return;
    await db.insert(timeLedger).values(
      entries.map((e) => ({
        userId,
        kind: e.kind,
        perishable: e.perishable,
        durable: e.durable,
        minutes: e.minutes,
        periodStart: new Date(e.periodStart),
        robotId: e.robotId ?? null,
        robotModel: e.robotModel ?? null,
        reason: e.reason ?? '',
        idempotencyKey: e.idempotencyKey ?? null,
        createdAt: e.createdAt,
      })),
    );
  },

  /**
   * Minutes used per UTC day and robot in [start, end), summed in SQL, so the answer has at most
   * days x robots rows whatever the ledger's size. A robot still registered to the user is joined
   * for its current name.
   */
  async usagePerDay(db: Executor, userId: string, start: Date, end: Date): Promise<UsageRow[]> {
    const day = utcDayOf(timeLedger.createdAt);
    const robotId = sql<string>`coalesce(${timeLedger.robotId}, '')`;
    return db
      .select({
        day,
        robotId,
        minutes: total(timeLedger.minutes),
        recordedModel: sql<string | null>`max(${timeLedger.robotModel})`,
        currentName: robots.name,
        currentModel: robots.model,
      })
      .from(timeLedger)
      .leftJoin(robots, and(eq(sql`${robots.id}::text`, timeLedger.robotId), eq(robots.userId, userId)))
      .where(
        and(
          eq(timeLedger.userId, userId),
          eq(timeLedger.kind, 'use'),
          gte(timeLedger.createdAt, start),
          lt(timeLedger.createdAt, end),
        ),
      )
      .groupBy(day, robotId, robots.id, robots.name, robots.model)
      .orderBy(day, robotId);
  },

  /**
   * Minutes added per UTC day and kind in [start, end): allocations on the day their period starts,
   * purchases and grants on the day they were written. A refund's take-back (a purchase row with a
   * negative durable change) is not an addition and is left out.
   */
  async additionsPerDay(db: Executor, userId: string, start: Date, end: Date): Promise<UsageEventRow[]> {
    const allocationDay = and(
      eq(timeLedger.kind, 'allocation'),
      gte(timeLedger.periodStart, start),
      lt(timeLedger.periodStart, end),
    );
    const creditDay = and(
      inArray(timeLedger.kind, ['purchase', 'grant']),
      gt(timeLedger.durable, 0),
      gte(timeLedger.createdAt, start),
      lt(timeLedger.createdAt, end),
    );
    const at = sql`case when ${timeLedger.kind} = 'allocation' then ${timeLedger.periodStart} else ${timeLedger.createdAt} end`;
    const day = sql<string>`to_char(date_trunc('day', ${at} at time zone 'UTC'), 'YYYY-MM-DD')`;
    const rows = await db
      .select({ day, kind: timeLedger.kind, minutes: total(timeLedger.minutes) })
      .from(timeLedger)
      .where(and(eq(timeLedger.userId, userId), or(allocationDay, creditDay)))
      .groupBy(day, timeLedger.kind)
      .orderBy(day, timeLedger.kind);
    return rows as UsageEventRow[];
  },

  async history(db: Executor, userId: string): Promise<LedgerRow[]> {
    return db.select().from(timeLedger).where(eq(timeLedger.userId, userId)).orderBy(timeLedger.createdAt);
  },
};
