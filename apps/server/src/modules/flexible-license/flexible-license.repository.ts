import { effectiveSlotAmount } from '@portal/contract';
import { and, eq, gte, inArray, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { assets, flexSlotAllowances, flexSlots, robotLicenses } from '../../db/schema.ts';

export type FlexSlotRow = typeof flexSlots.$inferSelect;
export type AllowanceRow = typeof flexSlotAllowances.$inferSelect;

/** Flexible-license slots: how many a user may hold, and what each holds. */
export const flexSlotRepository = {
  async amount(db: Executor, userId: string): Promise<number> {
    const [row] = await db
      .select({ amount: flexSlotAllowances.amount })
      .from(flexSlotAllowances)
      .where(eq(flexSlotAllowances.userId, userId));
    return row?.amount ?? 0;
  },

  /** The user's counts, locked until the transaction ends; undefined when none was ever set. */
  async allowance(db: Executor, userId: string): Promise<AllowanceRow | undefined> {
    const [row] = await db.select().from(flexSlotAllowances).where(eq(flexSlotAllowances.userId, userId)).for('update');
    return row;
  },

  /** Deletes the user's slots numbered `from` and above (left by a smaller plan); answers what they held. */
  async deleteSlotsFrom(db: Executor, userId: string, from: number): Promise<FlexSlotRow[]> {
    return db
      .delete(flexSlots)
      .where(and(eq(flexSlots.userId, userId), gte(flexSlots.slotId, from)))
      .returning();
  },

  /**
   * Sets the plan's count (`subscription`) or an operator's grant (`operator`; null clears it), and
   * the count in force with it, the larger of the two (docs/decisions/061). Answers the row.
   */
  async setAmount(
    db: Executor,
    userId: string,
    amount: number | null,
    source: 'operator' | 'subscription',
    now: Date,
  ): Promise<AllowanceRow> {
    const plan = source === 'subscription' ? (amount ?? 0) : 0;
    const granted = source === 'operator' ? amount : null;
    const [row] = await db
      .insert(flexSlotAllowances)
      .values({
        userId,
        planAmount: plan,
        grantedAmount: granted,
        amount: effectiveSlotAmount(plan, granted),
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: flexSlotAllowances.userId,
        set:
          source === 'operator'
            ? {
                grantedAmount: granted,
                amount: sql`greatest(${flexSlotAllowances.planAmount}, ${granted ?? 0}::int)`,
                updatedAt: now,
              }
            : {
                planAmount: plan,
                amount: sql`greatest(${plan}::int, coalesce(${flexSlotAllowances.grantedAmount}, 0))`,
                updatedAt: now,
              },
      })
      .returning();
    return row as AllowanceRow;
  },

  async slots(db: Executor, userId: string): Promise<FlexSlotRow[]> {
    return db.select().from(flexSlots).where(eq(flexSlots.userId, userId)).orderBy(flexSlots.slotId);
  },

  async upsertSlot(
    db: Executor,
    row: { userId: string; slotId: number; robotId: string; licenseId: string | null; now: Date },
  ) {
    await db
      .insert(flexSlots)
      .values({
        userId: row.userId,
        slotId: row.slotId,
        robotId: row.robotId,
        licenseId: row.licenseId,
        updatedAt: row.now,
      })
      .onConflictDoUpdate({
        target: [flexSlots.userId, flexSlots.slotId],
        set: { robotId: row.robotId, licenseId: row.licenseId, updatedAt: row.now },
      });
  },

  /**
   * Holds the user's slots until the transaction ends: a second save or clear of the same user
   * waits here, so two racing saves apply one after the other and never interleave.
   */
  async lockUser(tx: Executor, userId: string): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`flex-slots:${userId}`}, 0))`);
  },

  /**
   * Deletes every flexible license of the user but `keep` (a robot paired with one is released with
   * it): after a save, the user's flexible licenses are exactly the slots' (docs/decisions/061).
   */
  async deleteFlexibleLicensesExcept(db: Executor, userId: string, keep: readonly string[]): Promise<void> {
    await db
      .delete(robotLicenses)
      .where(
        and(
          eq(robotLicenses.userId, userId),
          eq(robotLicenses.isFlexible, true),
          keep.length > 0 ? notInArray(robotLicenses.id, [...keep]) : undefined,
        ),
      );
  },

  /** Deletes the given flexible licenses of the user: the slots that held them were taken away. */
  async deleteFlexibleLicenses(db: Executor, userId: string, licenseIds: readonly string[]): Promise<void> {
    if (licenseIds.length === 0) return;
    await db
      .delete(robotLicenses)
      .where(
        and(
          eq(robotLicenses.userId, userId),
          eq(robotLicenses.isFlexible, true),
          inArray(robotLicenses.id, [...licenseIds]),
        ),
      );
  },

  /** Robot-driver assets by id: the catalogue robot ids a slot may hold. */
  async drivers(db: Executor, ids: readonly string[]) {
    if (ids.length === 0) return [];
    return db
      .select()
      .from(assets)
      .where(inArray(assets.id, [...ids]));
  },
};
