import { and, asc, count, eq, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { knownBrowsers, passkeys, webauthnChallenges } from '../../db/schema.ts';

export type PasskeyRow = typeof passkeys.$inferSelect;
export type ChallengePurpose = (typeof webauthnChallenges.$inferSelect)['purpose'];

/** Passkeys, their challenges and the browsers an account has used (docs/decisions/032, 033). */
export const securityRepository = {
  // ---- challenges ----

  /** A new challenge; expired ones go first (the index on expires_at keeps that cheap). */
  async insertChallenge(
    db: Executor,
    row: { challenge: string; purpose: ChallengePurpose; userId: string | null; expiresAt: Date },
    now: Date,
  ) {
    await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
    await db.insert(webauthnChallenges).values(row);
  },

  /**
   * Takes a challenge out for good: whoever deletes it is its one user, so a replay, or the same
   * answer sent twice at once, finds nothing. Answers the row, expired or not.
   */
  async takeChallenge(db: Executor, challenge: string, purpose: ChallengePurpose) {
    const [row] = await db
      .delete(webauthnChallenges)
      .where(and(eq(webauthnChallenges.challenge, challenge), eq(webauthnChallenges.purpose, purpose)))
      .returning({ userId: webauthnChallenges.userId, expiresAt: webauthnChallenges.expiresAt });
    return row;
  },

  // ---- passkeys ----

  passkeysOf(db: Executor, userId: string): Promise<PasskeyRow[]> {
    return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));
  },

  async byCredentialId(db: Executor, credentialId: string): Promise<PasskeyRow | undefined> {
    const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
    return row;
  },

  /** Undefined when the credential is registered already (to this account or another). */
  async insertPasskey(db: Executor, row: typeof passkeys.$inferInsert): Promise<PasskeyRow | undefined> {
    const [created] = await db
      .insert(passkeys)
      .values(row)
      .onConflictDoNothing({ target: passkeys.credentialId })
      .returning();
    return created;
  },

  async rename(db: Executor, userId: string, id: string, name: string): Promise<PasskeyRow | undefined> {
    const [row] = await db
      .update(passkeys)
      .set({ name })
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .returning();
    return row;
  },

  async remove(db: Executor, userId: string, id: string): Promise<boolean> {
    const rows = await db
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .returning({ id: passkeys.id });
    return rows.length === 1;
  },

  /**
   * Records a sign-in with a passkey: the new counter, only if the counter is still the one the
   * signature was checked against (two sign-ins with one assertion cannot both pass).
   */
  async recordUse(
    db: Executor,
    id: string,
    seen: { counter: number; backedUp: boolean },
    next: { counter: number; backedUp: boolean },
    at: Date,
  ): Promise<boolean> {
    const rows = await db
      .update(passkeys)
      .set({ counter: next.counter, backedUp: next.backedUp, lastUsedAt: at })
      .where(and(eq(passkeys.id, id), eq(passkeys.counter, seen.counter)))
      .returning({ id: passkeys.id });
    return rows.length === 1;
  },

  // ---- known browsers ----

  /**
   * Notes a sign-in from a browser; answers whether it is new to an account that had signed in
   * from another before (an account's first browser is not news).
   */
  async noteBrowser(db: Executor, userId: string, browser: string, at: Date): Promise<boolean> {
    const inserted = await db
      .insert(knownBrowsers)
      .values({ userId, browser, firstSeenAt: at, lastSeenAt: at })
      .onConflictDoNothing()
      .returning({ browser: knownBrowsers.browser });
    if (inserted.length === 0) {
      await db
        .update(knownBrowsers)
        .set({ lastSeenAt: at })
        .where(and(eq(knownBrowsers.userId, userId), eq(knownBrowsers.browser, browser)));
      return false;
    }
    const [row] = await db.select({ n: count() }).from(knownBrowsers).where(eq(knownBrowsers.userId, userId));
    return Number(row?.n ?? 0) > 1;
  },
};
