import { createHash } from 'node:crypto';
import { ApiError, ONE_DAY_MS } from '@portal/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/client.ts';
import { loginFailures } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';

export const LOCKED = 'Account locked: too many failed attempts. Please try again later.';

/** The source of the row that counts an account's failures from every address together. */
export const ACCOUNT_WIDE = '*';

/** The lockout numbers of the configuration (docs/decisions/026). */
export type LockoutPolicy = Pick<
  Config,
  | 'LOGIN_MAX_FAILURES'
  | 'LOCKOUT_S'
  | 'LOGIN_ACCOUNT_FREE_FAILURES'
  | 'LOGIN_ACCOUNT_DELAY_S'
  | 'LOGIN_ACCOUNT_MAX_LOCK_S'
  | 'LOGIN_FAILURE_MEMORY_S'
  | 'LOGIN_KNOWN_ADDRESS_S'
>;

type FailureRow = typeof loginFailures.$inferSelect;

/** What is known of one address at one account: its own row and the account-wide row. */
export interface FailureState {
  address?: FailureRow | undefined;
  account?: FailureRow | undefined;
}

/**
 * How long the account-wide delay lasts after the `failures`-th failure from all addresses: none up
 * to LOGIN_ACCOUNT_FREE_FAILURES, then LOGIN_ACCOUNT_DELAY_S doubling with each failure, at most
 * LOGIN_ACCOUNT_MAX_LOCK_S.
 */
export function accountDelayS(failures: number, policy: LockoutPolicy): number {
  const over = failures - policy.LOGIN_ACCOUNT_FREE_FAILURES;
  if (over <= 0) return 0;
  // 2^over grows past any configured maximum long before it leaves the safe integers.
  const delay = policy.LOGIN_ACCOUNT_DELAY_S * 2 ** Math.min(over - 1, 40);
  return Math.min(delay, policy.LOGIN_ACCOUNT_MAX_LOCK_S);
}

/** Whether the address signed in to the account recently enough to pass the account-wide delay. */
export function knownAddress(state: FailureState, now: Date, policy: LockoutPolicy): boolean {
  const last = state.address?.lastSuccessAt;
  return Boolean(last && now.getTime() - last.getTime() < policy.LOGIN_KNOWN_ADDRESS_S * 1000);
}

/** Whether a password check from this address at this account is refused now, without checking it. */
export function lockedNow(state: FailureState, now: Date, policy: LockoutPolicy): boolean {
  if (state.address?.lockedUntil && state.address.lockedUntil > now) return true;
  return Boolean(state.account?.lockedUntil && state.account.lockedUntil > now && !knownAddress(state, now, policy));
}

/** The key of an address's counters: a hash, so the table holds no addresses, and any address can have one. */
export function accountKey(email: string): string {
  return createHash('sha256').update(`login:${email.trim().toLowerCase()}`).digest('hex').slice(0, 40);
}

/**
 * Guessing bounded per address and per account (docs/decisions/026). Sign-in and the current-password
 * checks of password change and account deletion ask `check` before verifying a password, and tell
 * `failed` or `succeeded` after. An email without an account is counted exactly like one with.
 */
export class PasswordGuard {
  constructor(
    private readonly clock: Clock,
    private readonly policy: LockoutPolicy,
  ) {}

  async state(db: Executor, key: string, source: string): Promise<FailureState> {
    const rows = await db
      .select()
      .from(loginFailures)
      .where(and(eq(loginFailures.accountKey, key), inArray(loginFailures.source, [source, ACCOUNT_WIDE])));
    return {
      address: rows.find((r) => r.source === source),
      account: rows.find((r) => r.source === ACCOUNT_WIDE),
    };
  }

  /** Throws code 45 while this address may not try this account. */
  async check(db: Executor, key: string, source: string): Promise<FailureState> {
    const state = await this.state(db, key, source);
    if (lockedNow(state, this.clock.now(), this.policy)) throw new ApiError('ACCOUNT_LOCKED', LOCKED);
    return state;
  }

  /**
   * Counts a wrong password at the address and at the account (both in one statement; failures
   * older than LOGIN_FAILURE_MEMORY_S are forgotten), locks what passed its limit, and throws code
   * 45 when this address is now locked out, else `refusal`.
   */
  async failed(db: Executor, key: string, source: string, state: FailureState, refusal: ApiError): Promise<never> {
    const now = this.clock.now();
    const p = this.policy;
    const forgetBefore = new Date(now.getTime() - p.LOGIN_FAILURE_MEMORY_S * 1000).toISOString();
    const rows = await db
      .insert(loginFailures)
      .values([
        { accountKey: key, source, failures: 1, updatedAt: now },
        { accountKey: key, source: ACCOUNT_WIDE, failures: 1, updatedAt: now },
      ])
      .onConflictDoUpdate({
        target: [loginFailures.accountKey, loginFailures.source],
        set: {
          failures: sql`case when ${loginFailures.updatedAt} < ${forgetBefore}::timestamptz then 1 else ${loginFailures.failures} + 1 end`,
          updatedAt: now,
        },
      })
      .returning();
    const address = rows.find((r) => r.source === source);
    const account = rows.find((r) => r.source === ACCOUNT_WIDE);
    const next: FailureState = { address: address && { ...address }, account: account && { ...account } };
    if (address && address.failures >= p.LOGIN_MAX_FAILURES) {
      const until = new Date(now.getTime() + p.LOCKOUT_S * 1000);
      await db
        .update(loginFailures)
        .set({ failures: 0, lockedUntil: until })
        .where(and(eq(loginFailures.accountKey, key), eq(loginFailures.source, source)));
      if (next.address) next.address.lockedUntil = until;
    }
    const delayS = account ? accountDelayS(account.failures, p) : 0;
    if (delayS > 0) {
      const until = new Date(now.getTime() + delayS * 1000);
      await db
        .update(loginFailures)
        .set({ lockedUntil: until })
        .where(and(eq(loginFailures.accountKey, key), eq(loginFailures.source, ACCOUNT_WIDE)));
      if (next.account) next.account.lockedUntil = until;
    }
    // The address's own success history is kept by the upsert (lastSuccessAt is not touched).
    if (next.address && state.address?.lastSuccessAt) next.address.lastSuccessAt = state.address.lastSuccessAt;
    if (lockedNow(next, now, p)) throw new ApiError('ACCOUNT_LOCKED', LOCKED);
    throw refusal;
  }

  /**
   * The right password from this address: its counter restarts and it becomes a known address of
   * the account. Nothing is written when there is nothing to change (the usual sign-in), and the
   * account-wide counter is left to a password reset or to time, so an attacker's count does not
   * restart whenever the owner signs in.
   */
  async succeeded(db: Executor, key: string, source: string, state: FailureState): Promise<void> {
    const now = this.clock.now();
    const row = state.address;
    const fresh = row?.lastSuccessAt && now.getTime() - row.lastSuccessAt.getTime() < ONE_DAY_MS;
    if (row && row.failures === 0 && !row.lockedUntil && fresh) return;
    await db
      .insert(loginFailures)
      .values({ accountKey: key, source, failures: 0, lastSuccessAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: [loginFailures.accountKey, loginFailures.source],
        set: { failures: 0, lockedUntil: null, lastSuccessAt: now, updatedAt: now },
      });
  }

  /** A password reset proves the owner: every counter and lock of the account ends. */
  async clear(db: Executor, key: string): Promise<void> {
    await db.delete(loginFailures).where(eq(loginFailures.accountKey, key));
  }
}
