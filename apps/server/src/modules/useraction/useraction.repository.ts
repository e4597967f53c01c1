import type { PublicUser } from '@portal/contract';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { emailTokens, users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type EmailTokenKind = (typeof emailTokens.$inferSelect)['kind'];

export function toPublicUser(u: UserRow): PublicUser {
  return {
    user_id: u.id,
    email: u.email,
    name: u.name,
    year_born: u.yearBorn,
    country: u.country,
    marketing: u.marketing,
    termsagreed: u.termsAgreed,
    company: u.company,
    profession: u.profession,
    join_date: u.joinedAt.toISOString(),
    email_validated: u.emailValidated,
  };
}

export const userRepository = {
  async byEmail(db: Executor, email: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.email, email));
    return row;
  },

  async byId(db: Executor, id: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.id, id));
    return row;
  },

  /** Inserts the user; answers undefined when the email is taken (a concurrent registration). */
  async insert(db: Executor, row: typeof users.$inferInsert): Promise<UserRow | undefined> {
    const [created] = await db.insert(users).values(row).onConflictDoNothing({ target: users.email }).returning();
    return created;
  },

  async update(
    db: Executor,
    id: string,
    patch: Partial<typeof users.$inferInsert>,
    at: Date,
  ): Promise<UserRow | undefined> {
    const [row] = await db
      .update(users)
      .set({ ...patch, updatedAt: at })
      .where(eq(users.id, id))
      .returning();
    return row;
  },

  async delete(db: Executor, id: string): Promise<void> {
    await db.delete(users).where(eq(users.id, id));
  },

  // ---- single-use email tokens ----

  async insertEmailToken(
    db: Executor,
    row: { userId: string; kind: EmailTokenKind; tokenHash: string; expiresAt: Date },
  ) {
    await db.insert(emailTokens).values(row);
  },

  /** Makes every earlier unused token of this kind useless, so only the newest link works. */
  async retireEmailTokens(db: Executor, userId: string, kind: EmailTokenKind, at: Date) {
    await db
      .update(emailTokens)
      .set({ usedAt: at })
      .where(and(eq(emailTokens.userId, userId), eq(emailTokens.kind, kind), isNull(emailTokens.usedAt)));
  },

  async liveEmailToken(db: Executor, tokenHash: string, kind: EmailTokenKind, now: Date) {
    const [row] = await db
      .select()
      .from(emailTokens)
      .where(
        and(
          eq(emailTokens.tokenHash, tokenHash),
          eq(emailTokens.kind, kind),
          isNull(emailTokens.usedAt),
          gt(emailTokens.expiresAt, now),
        ),
      );
    return row;
  },

  /** Marks a token used; answers false when another request used it first. */
  async consumeEmailToken(db: Executor, id: string, at: Date): Promise<boolean> {
    const rows = await db
      .update(emailTokens)
      .set({ usedAt: at })
      .where(and(eq(emailTokens.id, id), isNull(emailTokens.usedAt)))
      .returning({ id: emailTokens.id });
    return rows.length === 1;
  },
};
