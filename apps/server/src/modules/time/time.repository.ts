import type { LedgerEntry } from '@portal/contract';
import { type AnyColumn, and, eq, sql } from 'drizzle-orm';
import { type Executor, preparedOn } from '../../db/client.ts';
import { timeAccounts, timeLedger } from '../../db/schema.ts';

export type LedgerRow = typeof timeLedger.$inferSelect;

export interface LedgerWrite extends LedgerEntry {
  robotId?: string | null;
  reason?: string;
  idempotencyKey?: string | null;
  createdAt: Date;
}

const total = (column: AnyColumn) => sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);

/** The ledger's sums, on every dial-time read: built once (preparedOn). */
const sumsQuery = preparedOn((db) =>
  db
    .select({
      kind: timeLedger.kind,
      periodStart: timeLedger.periodStart,
      perishable: total(timeLedger.perishable),
      durable: total(timeLedger.durable),
      minutes: total(timeLedger.minutes),
    })
    .from(timeLedger)
    .where(eq(timeLedger.userId, sql.placeholder('userId')))
    .groupBy(timeLedger.kind, timeLedger.periodStart)
    .prepare('ledger_sums'),
);

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
    const rows = await sumsQuery(db).execute({ userId });
    return rows.map((r) => ({ ...r, periodStart: r.periodStart.getTime() }));
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
        reason: e.reason ?? '',
        idempotencyKey: e.idempotencyKey ?? null,
        createdAt: e.createdAt,
      })),
    );
  },

  async history(db: Executor, userId: string): Promise<LedgerRow[]> {
    return db.select().from(timeLedger).where(eq(timeLedger.userId, userId)).orderBy(timeLedger.createdAt);
  },
};
