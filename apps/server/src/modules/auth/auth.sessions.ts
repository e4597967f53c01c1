import type { StaffRole } from '@portal/contract';
import { ApiError, type Target, type TokenPair } from '@portal/contract';
import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId, type TokenService } from '../../lib/tokens.ts';
import { authRepository as repo } from './auth.repository.ts';

/** Where a sign-in comes from: kept with its session for the security centre (docs/decisions/033). */
export interface SignInMeta {
  userAgent: string;
  address: string;
}

/** The User-Agent header of a request, or '' (a header sent twice counts by its first). */
export function userAgentOf(request: { headers: Record<string, string | string[] | undefined> }): string {
  const header = request.headers['user-agent'];
  return (Array.isArray(header) ? header[0] : header) ?? '';
}

/** A live session as the security centre lists it. */
export interface LiveSession {
  id: string;
  target: string;
  userAgent: string;
  address: string;
  createdAt: Date;
  lastUsedAt: Date;
}

/**
 * Told, in the transaction that ends them, which sessions just ended (the live event streams of
 * those sessions end on every instance at once; docs/decisions/031).
 */
export type SessionsEnded = (ex: Executor, sessionIds: string[]) => Promise<void>;

export interface Caller {
  userId: string;
  email: string;
  sessionId: string;
  /**
   * The staff role in force for this call: the account's, read again on every call, and only in a
   * session started with a passkey (decision 070). Absent for customers.
   */
  staffRole?: StaffRole | null;
}

const INVALID = 'Authentication failed - invalid or expired token';
/** How much of a User-Agent header a session keeps. */
const USER_AGENT_KEPT = 512;
/** An account an operator disabled (portal-admin users:disable): the spec's 403 wording for sign-in. */
export const ACCOUNT_DISABLED = 'Account access is forbidden: this account is disabled. Please contact support.';

/**
 * Sessions as docs/architecture.md#sessions describes them: a session is a family of refresh tokens. Every refresh
 * rotates the token; a rotated token still works for a short grace window (two tabs refreshing at
 * once), and a rotated token used after it revokes the whole family (the token was stolen).
 */
export class Sessions {
  constructor(
    private readonly db: Db,
    private readonly tokens: TokenService,
    private readonly clock: Clock,
    private readonly graceS: number,
    private readonly onEnded: SessionsEnded = async () => {},
    /** a staff session's absolute and idle limits, checked at refresh (decision 070) */
    private readonly staffLimits: { maxS: number; idleS: number } = { maxS: 8 * 3_600, idleS: 30 * 60 },
  ) {}

  /** Tells which of these sessions ended, if any. */
  private async ended(ex: Executor, rows: readonly { id: string }[]): Promise<void> {
    const ids = rows.map((r) => r.id);
    if (ids.length) await this.onEnded(ex, ids);
  }

  private async sign(
    user: { id: string; email: string },
    sessionId: string,
    jti: string,
    refreshExpires: Date,
  ): Promise<TokenPair> {
    const [access_token, refresh_token] = await Promise.all([
      this.tokens.signAccess({ sub: user.id, sid: sessionId, email: user.email }),
      this.tokens.signRefresh({ sub: user.id, sid: sessionId, jti }, Math.floor(refreshExpires.getTime() / 1000)),
    ]);
    return {
      access_token,
      refresh_token,
      access_token_expires_in: this.tokens.accessTtlS,
      refresh_token_expires_in: this.tokens.refreshTtlS,
    };
  }

  private async issue(
    db: Executor,
    user: { id: string; email: string },
    sessionId: string,
    parentJti: string | null,
    refreshExpires: Date,
  ): Promise<TokenPair> {
    const jti = newId();
    await repo.insertRefreshToken(db, {
      jti,
      sessionId,
      parentJti,
      issuedAt: this.clock.now(),
      expiresAt: refreshExpires,
    });
    return this.sign(user, sessionId, jti, refreshExpires);
  }

  /** A new session for a user who just proved who they are; its expiry is written once, with it. */
  async start(
    db: Executor,
    user: { id: string; email: string },
    target: Target,
    meta: SignInMeta = { userAgent: '', address: '' },
    /** a passkey session is the only kind in which a staff role applies (decision 070) */
    method: 'password' | 'passkey' = 'password',
  ): Promise<TokenPair> {
    const now = this.clock.now();
    const sessionId = newId();
    const expiresAt = new Date(now.getTime() + this.tokens.refreshTtlS * 1000);
    await repo.insertSession(db, {
      id: sessionId,
      userId: user.id,
      target,
      createdAt: now,
      expiresAt,
      userAgent: meta.userAgent.slice(0, USER_AGENT_KEPT),
      address: meta.address,
      lastUsedAt: now,
      method,
    });
    return this.issue(db, user, sessionId, null, expiresAt);
  }

  /**
   * Trades a refresh token for a new pair. Throws 401 for anything but a live token. A session has
   * one live refresh token at a time: the first rotation makes the child; the same token presented
   * again within the grace window (tabs or requests refreshing at once) answers that same live
   * token, not another child; presented later, it revokes the session (docs/decisions/002).
   */
  async rotate(refreshToken: string, address?: string): Promise<{ userId: string; pair: TokenPair }> {
    const claims = await this.tokens.verifyRefresh(refreshToken);
    if (typeof claims === 'string') throw new ApiError('UNAUTHENTICATED', INVALID);
    const outcome = await this.db.transaction(async (tx) => {
      // Locks the token and its session: a revocation (password change, logout) and a rotation of
      // one session run one after the other, so no rotation answers a session revoked meanwhile.
      const row = await repo.lockRefreshToken(tx, claims.jti);
      if (row?.userDisabledAt) return { kind: 'disabled' as const };
      const now = this.clock.now();
      if (!row || row.sessionRevokedAt || row.sessionExpiresAt <= now || row.sessionId !== claims.sid)
        return { kind: 'dead' as const };
      // A staff session (a passkey session of an account with a role) ends at its absolute limit,
      // and after an idle spell: the refresh that comes too late ends it (decision 070).
      if (row.sessionMethod === 'passkey' && row.staffRole) {
        const age = now.getTime() - row.sessionCreatedAt.getTime();
        const idle = now.getTime() - (row.sessionLastUsedAt ?? row.sessionCreatedAt).getTime();
        if (age > this.staffLimits.maxS * 1000 || idle > this.staffLimits.idleS * 1000) {
          const reason = age > this.staffLimits.maxS * 1000 ? 'staff session limit' : 'staff session idle';
          await this.ended(tx, await repo.revokeSession(tx, row.sessionId, reason, now));
          return { kind: 'dead' as const };
        }
      }
      const user = { id: row.userId, email: row.email };
      if (row.rotatedAt) {
        if (now.getTime() - row.rotatedAt.getTime() > this.graceS * 1000) {
          await this.ended(tx, await repo.revokeSession(tx, row.sessionId, 'refresh token reuse', now));
          return { kind: 'reused' as const };
        }
        const live = await repo.liveRefreshToken(tx, row.sessionId);
        if (!live) return { kind: 'dead' as const };
        return {
          kind: 'ok' as const,
          userId: row.userId,
          pair: await this.sign(user, row.sessionId, live.jti, live.expiresAt),
        };
      }
      await repo.markRotated(tx, row.jti, now);
      const refreshExpires = new Date(now.getTime() + this.tokens.refreshTtlS * 1000);
      const pair = await this.issue(tx, user, row.sessionId, row.jti, refreshExpires);
      // The rotation writes the session anyway: "last used" rides on it at no extra write (docs/decisions/033).
      await repo.extendSession(tx, row.sessionId, refreshExpires, now, address);
      return { kind: 'ok' as const, userId: row.userId, pair };
    });
    if (outcome.kind === 'disabled') throw new ApiError('FORBIDDEN', ACCOUNT_DISABLED);
    if (outcome.kind !== 'ok') throw new ApiError('UNAUTHENTICATED', INVALID);
    return { userId: outcome.userId, pair: outcome.pair };
  }

  /** Ends the session a refresh token belongs to. An already ended session is not an error. */
  async revoke(refreshToken: string, reason: string): Promise<{ userId: string }> {
    const claims = await this.tokens.verifyRefresh(refreshToken);
    if (typeof claims === 'string') {
      // An expired token's session is over anyway; only a forged one is refused.
      if (claims === 'invalid') throw new ApiError('UNAUTHENTICATED', INVALID);
      return { userId: '' };
    }
    await this.db.transaction(async (tx) =>
      this.ended(tx, await repo.revokeSession(tx, claims.sid, reason, this.clock.now())),
    );
    return { userId: claims.sub };
  }

  /**
   * Ends every session of a user (but one); answers how many live ones it ended. They are told
   * ended through `db`: in the caller's transaction when it is one, so only when it commits.
   */
  async revokeAll(db: Executor, userId: string, reason: string, exceptSessionId?: string): Promise<number> {
    const ended = await repo.revokeUserSessions(db, userId, reason, this.clock.now(), exceptSessionId);
    await this.ended(db, ended);
    return ended.length;
  }

  /** The user's live sessions, the most recently used first. */
  async list(userId: string): Promise<LiveSession[]> {
    const rows = await repo.liveSessions(this.db, userId, this.clock.now());
    return rows.map((r) => ({ ...r, lastUsedAt: r.lastUsedAt ?? r.createdAt }));
  }

  /**
   * Ends one live session of the user; false when the user has no live session of that id.
   * `andThen` runs in the same transaction when one ended (its audit entry).
   */
  revokeOwn(
    userId: string,
    sessionId: string,
    reason: string,
    andThen?: (tx: Executor) => Promise<void>,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const ended = await repo.revokeOwnedSession(tx, userId, sessionId, reason, this.clock.now());
      await this.ended(tx, ended);
      if (ended.length === 1) await andThen?.(tx);
      return ended.length === 1;
    });
  }

  /** The caller behind an access token, if its session is still alive. */
  async authenticate(accessToken: string): Promise<Caller> {
    const claims = await this.tokens.verifyAccess(accessToken);
    if (typeof claims === 'string') throw new ApiError('UNAUTHENTICATED', INVALID);
    const row = await repo.sessionForAccess(this.db, claims.sid);
    if (!row || row.revoked || row.userId !== claims.sub) throw new ApiError('UNAUTHENTICATED', INVALID);
    if (row.disabled) throw new ApiError('FORBIDDEN', ACCOUNT_DISABLED);
    if (!row.emailValidated)
      throw new ApiError('EMAIL_NOT_VERIFIED', 'Please verify your account: the email address is not validated yet');
    return { userId: row.userId, email: row.email, sessionId: claims.sid, staffRole: row.staffRole };
  }
}
