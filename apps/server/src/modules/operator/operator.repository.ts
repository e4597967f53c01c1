import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { assets, users } from '../../db/schema.ts';

/** Queries only the operator command line makes. */
export const operatorRepository = {
  async users(db: Executor) {
    return db
      .select({
        id: users.id,
        email: users.email,
        name: users.name,
        verified: users.emailValidated,
        joinedAt: users.joinedAt,
      })
      .from(users)
      .orderBy(users.joinedAt, users.email);
  },

  async verify(db: Executor, email: string, now: Date): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ emailValidated: true, updatedAt: now })
      .where(eq(users.email, email))
      .returning({ id: users.id });
    return rows.length > 0;
  },

  /** The robot-driver asset of a model, matched case-insensitively. */
  async driverFor(db: Executor, type: string, model: string) {
    const [row] = await db
      .select()
      .from(assets)
      .where(sql`${assets.type} = ${type} and lower(${assets.model}) = lower(${model})`);
    return row;
  },
};
