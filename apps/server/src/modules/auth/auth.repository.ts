import type { StaffRole } from '@portal/contract';
import { and, desc, eq, gt, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { type Executor, preparedSql, type SqlValue } from '../../db/client.ts';
import { refreshTokens, sessions, users } from '../../db/schema.ts';

/** What authenticating an access token reads of its session and user. */
export interface SessionForAccess {
  revoked: boolean;
  userId: string;
  email: string;
  emailValidated: boolean;
  disabled: boolean;
  /** the account's staff role when the session was started with a passkey; else null (decision 070) */
  staffRole: StaffRole | null;
}

/**
 * The session behind an access token, on every signed-in request. Exported so the benchmark's bare
 * baseline runs the same text; made into text once (preparedSql), its rows used as the driver gives them.
 */
export const sessionForAccessStatement = (sessionId: SqlValue): SQL => sql`
  select ${sessions.revokedAt} is not null as "revoked", ${users.id} as "userId", ${users.email} as "email",
    ${users.emailValidated} as "emailValidated", ${users.disabledAt} is not null as "disabled",
    case when ${sessions.method} = 'passkey' then ${users.staffRole} end as "staffRole"
  from ${sessions} inner join ${users} on ${users.id} = ${sessions.userId}
  where ${sessions.id} = ${sessionId}`;
const sessionForAccessQuery = preparedSql<SessionForAccess>(sessionForAccessStatement(sql.placeholder('sessionId')));

/** Sessions and their refresh-token families. */
export const authRepository = {
  async insertSession(
    db: Executor,
    row: {
      id: string;
      userId: string;
      target: string;
      expiresAt: Date;
      createdAt: Date;
      userAgent: string;
      address: string;
      lastUsedAt: Date;
      method: 'password' | 'passkey';
    },
  ) {
    await db.insert(sessions).values(row);
  },

  async insertRefreshToken(
    db: Executor,
    row: { jti: string; sessionId: string; parentJti: string | null; issuedAt: Date; expiresAt: Date },
  ) {
    await db.insert(refreshTokens).values(row);
  },

  /** The token row, its session and its user, locked for the rotation that follows. */
  async lockRefreshToken(db: Executor, jti: string) {
    const [row] = await db
      .select({
        jti: refreshTokens.jti,
        rotatedAt: refreshTokens.rotatedAt,
        sessionId: sessions.id,
        sessionRevokedAt: sessions.revokedAt,
        sessionExpiresAt: sessions.expiresAt,
        sessionCreatedAt: sessions.createdAt,
        sessionLastUsedAt: sessions.lastUsedAt,
        sessionMethod: sessions.method,
        staffRole: users.staffRole,
        target: sessions.target,
        userId: users.id,
        email: users.email,
        userDisabledAt: users.disabledAt,
      })
      .from(refreshTokens)
      .innerJoin(sessions, eq(refreshTokens.sessionId, sessions.id))
      .innerJoin(users, eq(sessions.userId, users.id))
      .where(eq(refreshTokens.jti, jti))
      .for('update', { of: [refreshTokens, sessions] });
    return row;
  },

  /** The session's one live (not yet rotated) refresh token: its newest. */
  async liveRefreshToken(db: Executor, sessionId: string) {
    const [row] = await db
      .select({ jti: refreshTokens.jti, expiresAt: refreshTokens.expiresAt })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.sessionId, sessionId), isNull(refreshTokens.rotatedAt)))
      .orderBy(desc(refreshTokens.issuedAt))
      .limit(1);
    return row;
  },

  async markRotated(db: Executor, jti: string, at: Date) {
    await db
      .update(refreshTokens)
      .set({ rotatedAt: at })
      .where(and(eq(refreshTokens.jti, jti), isNull(refreshTokens.rotatedAt)));
  },

  /** A rotation: the session lives on, and this is when and where it was last used (docs/decisions/033). */
  async extendSession(db: Executor, sessionId: string, expiresAt: Date, usedAt: Date, address: string | undefined) {
    await db
      .update(sessions)
      .set({ expiresAt, lastUsedAt: usedAt, ...(address ? { address } : {}) })
      .where(eq(sessions.id, sessionId));
  },

  /** A user's sessions that are neither revoked nor expired, the most recently used first. */
  async liveSessions(db: Executor, userId: string, now: Date) {
    return db
      .select({
        id: sessions.id,
        target: sessions.target,
        userAgent: sessions.userAgent,
        address: sessions.address,
        createdAt: sessions.createdAt,
        lastUsedAt: sessions.lastUsedAt,
      })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .orderBy(desc(sql`coalesce(${sessions.lastUsedAt}, ${sessions.createdAt})`), desc(sessions.createdAt));
  },

  /** Revokes one live session of a user; answers its id, or none when the user had no such live session. */
  async revokeOwnedSession(db: Executor, userId: string, sessionId: string, reason: string, at: Date) {
    return db
      .update(sessions)
      .set({ revokedAt: at, revokedReason: reason })
      .where(
        and(
          eq(sessions.id, sessionId),
          eq(sessions.userId, userId),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, at),
        ),
      )
      .returning({ id: sessions.id });
  },

  /** Revokes a session unless it was already; answers its id if this revoked it. */
  async revokeSession(db: Executor, sessionId: string, reason: string, at: Date) {
    return db
      .update(sessions)
      .set({ revokedAt: at, revokedReason: reason })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
  },

  /** Revokes a user's sessions (but one); answers those it revoked that had not expired yet. */
  async revokeUserSessions(
    db: Executor,
    userId: string,
    reason: string,
    at: Date,
    exceptSessionId?: string,
  ): Promise<{ id: string }[]> {
    const where = exceptSessionId
      ? and(eq(sessions.userId, userId), isNull(sessions.revokedAt), ne(sessions.id, exceptSessionId))
      : and(eq(sessions.userId, userId), isNull(sessions.revokedAt));
    const rows = await db
      .update(sessions)
      .set({ revokedAt: at, revokedReason: reason })
      .where(where)
      .returning({ id: sessions.id, expiresAt: sessions.expiresAt });
    return rows.filter((r) => r.expiresAt > at).map((r) => ({ id: r.id }));
  },

  /** What authenticating an access token needs: is its session alive, and whose is it. */
  async sessionForAccess(db: Executor, sessionId: string): Promise<SessionForAccess | undefined> {
    const [row] = await sessionForAccessQuery(db, { sessionId });
    return row;
  },
};
