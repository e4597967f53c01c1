import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { assetLicenses, assets, licenseShares, robotLicenses } from '../../db/schema.ts';

export type RobotLicenseRow = typeof robotLicenses.$inferSelect;
export type AssetLicenseRow = typeof assetLicenses.$inferSelect;
export type ShareRow = typeof licenseShares.$inferSelect;

export interface PairCodeWrite {
  hash: string;
  sealed: string;
  issuedAt: Date;
}

/** A share that is live: not stopped and not yet ended. */
const live = (now: Date) => and(isNull(licenseShares.stoppedAt), gt(licenseShares.endsAt, now));

export const licenseRepository = {
  async insert(db: Executor, row: typeof robotLicenses.$inferInsert): Promise<RobotLicenseRow> {
    const [created] = await db.insert(robotLicenses).values(row).returning();
    if (!created) throw new Error('robot license insert returned no row');
    return created;
  },

  /** The user's robot licenses; with `liveAt`, only those that have not ended by then. */
  async ofUser(db: Executor, userId: string, liveAt?: Date): Promise<RobotLicenseRow[]> {
    const own = eq(robotLicenses.userId, userId);
    return db
      .select()
      .from(robotLicenses)
      .where(liveAt ? and(own, gt(robotLicenses.endsAt, liveAt)) : own)
      .orderBy(desc(robotLicenses.createdAt), robotLicenses.id);
  },

  async byIdOfOwner(db: Executor, id: string, userId: string): Promise<RobotLicenseRow | undefined> {
    const [row] = await db
      .select()
      .from(robotLicenses)
      .where(and(eq(robotLicenses.id, id), eq(robotLicenses.userId, userId)));
    return row;
  },

  async byIds(db: Executor, ids: readonly string[]): Promise<RobotLicenseRow[]> {
    if (ids.length === 0) return [];
    return db
      .select()
      .from(robotLicenses)
      .where(inArray(robotLicenses.id, [...ids]));
  },

  /** Moves a license's end and keeps its duration in step (a renewal extends it, a revocation ends it). */
  async setEnd(db: Executor, id: string, endsAt: Date, now: Date): Promise<void> {
    await db
      .update(robotLicenses)
      .set({
        endsAt,
        durationS: sql`greatest(0, floor(extract(epoch from (${endsAt.toISOString()}::timestamptz - ${robotLicenses.startsAt}))))::int`,
        updatedAt: now,
      })
      .where(eq(robotLicenses.id, id));
  },

  async byRobot(db: Executor, robotId: string): Promise<RobotLicenseRow | undefined> {
    const [row] = await db.select().from(robotLicenses).where(eq(robotLicenses.robotId, robotId));
    return row;
  },

  async byRobots(db: Executor, robotIds: readonly string[]): Promise<RobotLicenseRow[]> {
    if (robotIds.length === 0) return [];
    return db
      .select()
      .from(robotLicenses)
      .where(inArray(robotLicenses.robotId, [...robotIds]));
  },

  async pairCodeTaken(db: Executor, hash: string): Promise<boolean> {
    const [row] = await db
      .select({ id: robotLicenses.id })
      .from(robotLicenses)
      .where(eq(robotLicenses.pairCodeHash, hash));
    return Boolean(row);
  },

  /** A new code for an unpaired license; undefined when the license is paired (or not there). */
  async setPairCode(db: Executor, id: string, code: PairCodeWrite): Promise<RobotLicenseRow | undefined> {
    const [row] = await db
      .update(robotLicenses)
      .set({
        pairCodeHash: code.hash,
        pairCodeSealed: code.sealed,
        pairCodeIssuedAt: code.issuedAt,
        updatedAt: code.issuedAt,
      })
      .where(and(eq(robotLicenses.id, id), isNull(robotLicenses.robotId)))
      .returning();
    return row;
  },

  /**
   * Redeems a code in one statement: only an unpaired license of this user holding exactly this
   * code is bound, and its code is cleared, so a code works once even when raced.
   */
  async redeem(
    db: Executor,
    input: { hash: string; userId: string; robotId: string; now: Date },
  ): Promise<RobotLicenseRow | undefined> {
    const [row] = await db
      .update(robotLicenses)
      .set({
        robotId: input.robotId,
        pairCodeHash: null,
        pairCodeSealed: null,
        pairCodeIssuedAt: null,
        pairedAt: input.now,
        updatedAt: input.now,
      })
      .where(
        and(
          eq(robotLicenses.pairCodeHash, input.hash),
          eq(robotLicenses.userId, input.userId),
          isNull(robotLicenses.robotId),
          gt(robotLicenses.endsAt, input.now),
        ),
      )
      .returning();
    return row;
  },

  /** Releases the robot of a license and gives the license a new code. */
  async unbind(db: Executor, id: string, code: PairCodeWrite): Promise<RobotLicenseRow | undefined> {
    const [row] = await db
      .update(robotLicenses)
      .set({
        robotId: null,
        pairedAt: null,
        unpairedAt: code.issuedAt,
        pairCodeHash: code.hash,
        pairCodeSealed: code.sealed,
        pairCodeIssuedAt: code.issuedAt,
        updatedAt: code.issuedAt,
      })
      .where(eq(robotLicenses.id, id))
      .returning();
    return row;
  },

  // ---- sharing ----

  /** The owner's license, locked until the transaction ends: shares of one license are made one at a time. */
  async lockOfOwner(tx: Executor, id: string, userId: string): Promise<RobotLicenseRow | undefined> {
    const [row] = await tx
      .select()
      .from(robotLicenses)
      .where(and(eq(robotLicenses.id, id), eq(robotLicenses.userId, userId)))
      .for('update');
    return row;
  },

  /** The live share of a license with an address, pending or not. */
  async liveShareTo(db: Executor, licenseId: string, recipientEmail: string, now: Date): Promise<ShareRow | undefined> {
    const [row] = await db
      .select()
      .from(licenseShares)
      .where(and(eq(licenseShares.licenseId, licenseId), eq(licenseShares.recipientEmail, recipientEmail), live(now)));
    return row;
  },

  async insertShare(db: Executor, row: typeof licenseShares.$inferInsert): Promise<ShareRow> {
    const [created] = await db.insert(licenseShares).values(row).returning();
    if (!created) throw new Error('share insert returned no row');
    return created;
  },

  /** Stops the live shares of a license: with one address, or with everyone. Answers how many stopped. */
  async stopShares(db: Executor, licenseId: string, recipientEmail: string | undefined, now: Date): Promise<number> {
    const rows = await db
      .update(licenseShares)
      .set({ stoppedAt: now })
      .where(
        and(
          eq(licenseShares.licenseId, licenseId),
          live(now),
          recipientEmail !== undefined ? eq(licenseShares.recipientEmail, recipientEmail) : undefined,
        ),
      )
      .returning({ id: licenseShares.id });
    return rows.length;
  },

  /** Binds the pending shares made to an address to the account that has just proved it owns it. */
  async claimPending(db: Executor, userId: string, email: string): Promise<number> {
    const rows = await db
      .update(licenseShares)
      .set({ recipientId: userId })
      .where(and(isNull(licenseShares.recipientId), eq(licenseShares.recipientEmail, email)))
      .returning({ id: licenseShares.id });
    return rows.length;
  },

  /** The owner's live shares, pending or not, with the license of each. */
  async sharesOfOwner(db: Executor, ownerId: string, now: Date) {
    return db
      .select({ share: licenseShares, license: robotLicenses })
      .from(licenseShares)
      .innerJoin(robotLicenses, eq(robotLicenses.id, licenseShares.licenseId))
      .where(and(eq(licenseShares.ownerId, ownerId), live(now)))
      .orderBy(licenseShares.createdAt, licenseShares.id);
  },

  /** Licenses shared with the recipient's account that are live now, with their share. */
  async sharedWith(db: Executor, recipientId: string, now: Date) {
    return db
      .select({ share: licenseShares, license: robotLicenses })
      .from(licenseShares)
      .innerJoin(robotLicenses, eq(robotLicenses.id, licenseShares.licenseId))
      .where(and(eq(licenseShares.recipientId, recipientId), live(now), gt(robotLicenses.endsAt, now)))
      .orderBy(licenseShares.createdAt);
  },

  // ---- asset licenses ----

  async insertAssetLicense(db: Executor, row: typeof assetLicenses.$inferInsert): Promise<AssetLicenseRow> {
    const [created] = await db.insert(assetLicenses).values(row).returning();
    if (!created) throw new Error('asset license insert returned no row');
    return created;
  },

  async assetLicensesOf(db: Executor, userId: string): Promise<AssetLicenseRow[]> {
    return db
      .select()
      .from(assetLicenses)
      .where(eq(assetLicenses.userId, userId))
      .orderBy(desc(assetLicenses.createdAt));
  },

  async asset(db: Executor, id: string) {
    const [row] = await db.select().from(assets).where(eq(assets.id, id));
    return row;
  },
};
