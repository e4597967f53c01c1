import { and, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { assetLicences, assets, licenceShares, robotLicences, users } from '../../db/schema.ts';

export type RobotLicenceRow = typeof robotLicences.$inferSelect;
export type AssetLicenceRow = typeof assetLicences.$inferSelect;
export type ShareRow = typeof licenceShares.$inferSelect;

export interface PairCodeWrite {
  hash: string;
  sealed: string;
  issuedAt: Date;
}

/** A share that is live: not stopped and not yet ended. */
const live = (now: Date) => and(isNull(licenceShares.stoppedAt), gt(licenceShares.endsAt, now));

export const licenceRepository = {
  async insert(db: Executor, row: typeof robotLicences.$inferInsert): Promise<RobotLicenceRow> {
    const [created] = await db.insert(robotLicences).values(row).returning();
    if (!created) throw new Error('robot licence insert returned no row');
    return created;
  },

  async ofUser(db: Executor, userId: string): Promise<RobotLicenceRow[]> {
    return db
      .select()
      .from(robotLicences)
      .where(eq(robotLicences.userId, userId))
      .orderBy(desc(robotLicences.createdAt), robotLicences.id);
  },

  async byIdOfOwner(db: Executor, id: string, userId: string): Promise<RobotLicenceRow | undefined> {
    const [row] = await db
      .select()
      .from(robotLicences)
      .where(and(eq(robotLicences.id, id), eq(robotLicences.userId, userId)));
    return row;
  },

  async byRobot(db: Executor, robotId: string): Promise<RobotLicenceRow | undefined> {
    const [row] = await db.select().from(robotLicences).where(eq(robotLicences.robotId, robotId));
    return row;
  },

  async byRobots(db: Executor, robotIds: readonly string[]): Promise<RobotLicenceRow[]> {
    if (robotIds.length === 0) return [];
    return db
      .select()
      .from(robotLicences)
      .where(inArray(robotLicences.robotId, [...robotIds]));
  },

  async pairCodeTaken(db: Executor, hash: string): Promise<boolean> {
    const [row] = await db
      .select({ id: robotLicences.id })
      .from(robotLicences)
      .where(eq(robotLicences.pairCodeHash, hash));
    return Boolean(row);
  },

  /** A new code for an unpaired licence; undefined when the licence is paired (or not there). */
  async setPairCode(db: Executor, id: string, code: PairCodeWrite): Promise<RobotLicenceRow | undefined> {
    const [row] = await db
      .update(robotLicences)
      .set({
        pairCodeHash: code.hash,
        pairCodeSealed: code.sealed,
        pairCodeIssuedAt: code.issuedAt,
        updatedAt: code.issuedAt,
      })
      .where(and(eq(robotLicences.id, id), isNull(robotLicences.robotId)))
      .returning();
    return row;
  },

  /**
   * Redeems a code in one statement: only an unpaired licence of this user holding exactly this
   * code is bound, and its code is cleared, so a code works once even when raced.
   */
  async redeem(
    db: Executor,
    input: { hash: string; userId: string; robotId: string; now: Date },
  ): Promise<RobotLicenceRow | undefined> {
    const [row] = await db
      .update(robotLicences)
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
          eq(robotLicences.pairCodeHash, input.hash),
          eq(robotLicences.userId, input.userId),
          isNull(robotLicences.robotId),
        ),
      )
      .returning();
    return row;
  },

  /** Releases the robot of a licence and gives the licence a new code. */
  async unbind(db: Executor, id: string, code: PairCodeWrite): Promise<RobotLicenceRow | undefined> {
    const [row] = await db
      .update(robotLicences)
      .set({
        robotId: null,
        pairedAt: null,
        pairCodeHash: code.hash,
        pairCodeSealed: code.sealed,
        pairCodeIssuedAt: code.issuedAt,
        updatedAt: code.issuedAt,
      })
      .where(eq(robotLicences.id, id))
      .returning();
    return row;
  },

  // ---- sharing ----

  async insertShare(db: Executor, row: typeof licenceShares.$inferInsert): Promise<ShareRow> {
    const [created] = await db.insert(licenceShares).values(row).returning();
    if (!created) throw new Error('share insert returned no row');
    return created;
  },

  /** Stops the live shares of a licence: with one recipient, or with everyone. Answers how many stopped. */
  async stopShares(db: Executor, licenceId: string, recipientId: string | undefined, now: Date): Promise<number> {
    const rows = await db
      .update(licenceShares)
      .set({ stoppedAt: now })
      .where(
        and(
          eq(licenceShares.licenceId, licenceId),
          live(now),
          recipientId ? eq(licenceShares.recipientId, recipientId) : undefined,
        ),
      )
      .returning({ id: licenceShares.id });
    return rows.length;
  },

  /** The owner's live shares with each recipient's email and the licence. */
  async sharesOfOwner(db: Executor, ownerId: string, now: Date) {
    return db
      .select({ share: licenceShares, licence: robotLicences, recipientEmail: users.email })
      .from(licenceShares)
      .innerJoin(robotLicences, eq(robotLicences.id, licenceShares.licenceId))
      .innerJoin(users, eq(users.id, licenceShares.recipientId))
      .where(and(eq(licenceShares.ownerId, ownerId), live(now)))
      .orderBy(licenceShares.createdAt);
  },

  /** Licences shared with the recipient that are live now, with their share. */
  async sharedWith(db: Executor, recipientId: string, now: Date) {
    return db
      .select({ share: licenceShares, licence: robotLicences })
      .from(licenceShares)
      .innerJoin(robotLicences, eq(robotLicences.id, licenceShares.licenceId))
      .where(and(eq(licenceShares.recipientId, recipientId), live(now), gt(robotLicences.endsAt, now)))
      .orderBy(licenceShares.createdAt);
  },

  // ---- asset licences ----

  async insertAssetLicence(db: Executor, row: typeof assetLicences.$inferInsert): Promise<AssetLicenceRow> {
    const [created] = await db.insert(assetLicences).values(row).returning();
    if (!created) throw new Error('asset licence insert returned no row');
    return created;
  },

  async assetLicencesOf(db: Executor, userId: string): Promise<AssetLicenceRow[]> {
    return db
      .select()
      .from(assetLicences)
      .where(eq(assetLicences.userId, userId))
      .orderBy(desc(assetLicences.createdAt));
  },

  async asset(db: Executor, id: string) {
    const [row] = await db.select().from(assets).where(eq(assets.id, id));
    return row;
  },
};
