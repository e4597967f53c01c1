import { and, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { assets, sessions, users } from '../../db/schema.ts';

/** Queries only the operator command line makes. */
export const operatorRepository = {
  async users(db: Executor) {
    return db
      .select({
        id: users.id,
        email: users.email,
        name: users.name,
        verified: users.emailValidated,
        disabledAt: users.disabledAt,
        joinedAt: users.joinedAt,
      })
      .from(users)
      .orderBy(users.joinedAt, users.email);
  },

  /** Marks the account verified; answers whether it was not before. */
  async verify(db: Executor, userId: string, now: Date): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ emailValidated: true, updatedAt: now })
      .where(and(eq(users.id, userId), eq(users.emailValidated, false)))
      .returning({ id: users.id });
    return rows.length > 0;
  },

  /** When the account was disabled (null: it is not), read in the caller's transaction. */
  async disabledAt(db: Executor, userId: string): Promise<Date | null> {
    const [row] = await db.select({ at: users.disabledAt }).from(users).where(eq(users.id, userId));
    return row?.at ?? null;
  },

  /** The robot-driver asset of a model, matched case-insensitively. */
  async driverFor(db: Executor, type: string, model: string) {
    const [row] = await db
      .select()
      .from(assets)
      .where(sql`${assets.type} = ${type} and lower(${assets.model}) = lower(${model})`);
    return row;
  },

  /** Sets or clears disabled_at; answers whether the account changed state. */
  async setDisabled(db: Executor, userId: string, at: Date | null): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ disabledAt: at })
      .where(and(eq(users.id, userId), at ? isNull(users.disabledAt) : isNotNull(users.disabledAt)))
      .returning({ id: users.id });
    return rows.length > 0;
  },

  async liveSessions(db: Executor, userId: string, now: Date): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
    return row?.n ?? 0;
  },
};
