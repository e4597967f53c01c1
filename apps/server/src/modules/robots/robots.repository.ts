import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { robots } from '../../db/schema.ts';

export type RobotRow = typeof robots.$inferSelect;

export const robotRepository = {
  /** Registers a robot; the same hardware hash for the same user answers the robot already there. */
  async register(
    db: Executor,
    row: { userId: string; make: string; model: string; name: string; hardwareHash: string; now: Date },
  ): Promise<{ robot: RobotRow; created: boolean }> {
    const [created] = await db
      .insert(robots)
      .values({
        userId: row.userId,
        make: row.make,
        model: row.model,
        name: row.name,
        hardwareHash: row.hardwareHash,
        registeredAt: row.now,
        updatedAt: row.now,
      })
      .onConflictDoNothing({ target: [robots.userId, robots.hardwareHash] })
      .returning();
    if (created) return { robot: created, created: true };
    const [existing] = await db
      .select()
      .from(robots)
      .where(and(eq(robots.userId, row.userId), eq(robots.hardwareHash, row.hardwareHash)));
    if (!existing) throw new Error('robot neither inserted nor found');
    return { robot: existing, created: false };
  },

  /** `lock`: FOR UPDATE, so a read-merge-write in the caller's transaction is not raced. */
  async byIdOfOwner(
    db: Executor,
    id: string,
    userId: string,
    opts: { lock?: boolean } = {},
  ): Promise<RobotRow | undefined> {
    const query = db
      .select()
      .from(robots)
      .where(and(eq(robots.id, id), eq(robots.userId, userId)));
    const [row] = opts.lock ? await query.for('update') : await query;
    return row;
  },

  /** Whether any robot is registered under this id (any user's). */
  async exists(db: Executor, id: string): Promise<boolean> {
    const [row] = await db.select({ id: robots.id }).from(robots).where(eq(robots.id, id));
    return row !== undefined;
  },

  async ofUser(db: Executor, userId: string): Promise<RobotRow[]> {
    return db.select().from(robots).where(eq(robots.userId, userId)).orderBy(robots.registeredAt, robots.id);
  },

  async byIds(db: Executor, ids: readonly string[]): Promise<RobotRow[]> {
    if (ids.length === 0) return [];
    return db
      .select()
      .from(robots)
      .where(inArray(robots.id, [...ids]))
      .orderBy(robots.registeredAt, robots.id);
  },

  /** Updates name, availability and configuration (the whole new configuration: the service merges it). */
  async update(
    db: Executor,
    id: string,
    userId: string,
    patch: { name?: string; available?: boolean; config?: Record<string, unknown>; now: Date },
  ): Promise<RobotRow | undefined> {
    const [row] = await db
      .update(robots)
      .set({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.available !== undefined ? { available: patch.available } : {}),
        ...(patch.config !== undefined ? { config: patch.config } : {}),
        updatedAt: patch.now,
      })
      .where(and(eq(robots.id, id), eq(robots.userId, userId)))
      .returning();
    return row;
  },

  async delete(db: Executor, id: string, userId: string): Promise<boolean> {
    const rows = await db
      .delete(robots)
      .where(and(eq(robots.id, id), eq(robots.userId, userId)))
      .returning({ id: robots.id });
    return rows.length > 0;
  },
};
