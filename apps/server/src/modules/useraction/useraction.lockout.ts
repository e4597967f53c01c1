import { createHash } from 'node:crypto';
import { ApiError } from '@portal/contract';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import { type Db, type Executor, pgErrorCode, type Tx } from '../../db/client.ts';
import { loginFailures } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';

export const LOCKED = 'Account locked: too many failed attempts. Please try again later.';

/** The source of the row that counts an account's failures from every address together. */
export const ACCOUNT_WIDE = '*';

/** The lockout numbers of the configuration (docs/decisions/026, 057). */
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
 * One attempt at an account's password, counted before the password is checked (docs/decisions/057):
 * the rows of the address and of the account as the reservation left them, and the locks it set.
 */
export interface Reservation {
  key: string;
  source: string;
  state: Required<FailureState>;
  /** the address lock this attempt started (its count reached LOGIN_MAX_FAILURES), to lift if it is given back */
  addressLock: Date | undefined;
  /** the account-wide delay this attempt started, to lift if it is given back */
  accountLock: Date | undefined;
}

/** PostgreSQL's answer to a deadlock: it undid this transaction, which can simply run again. */
const DEADLOCK = '40P01';
const RESERVE_TRIES = 3;

/**
 * Guessing bounded per address and per account (docs/decisions/026, 057). Sign-in and the
 * current-password checks of password change and account deletion `reserve` an attempt before
 * verifying a password: the attempt is counted as a failure at once, in one transaction whose
 * upserts refuse it while the address or the account is locked, so however many run at once, an
 * account's count and its locks are those of the attempts one after the other. A wrong password
 * leaves it counted (`failed`); anything else gives it back (`release`): a right password, and an
 * attempt the server could not check (BUSY, a hashing thread gone). An email without an account is
 * counted exactly like one with.
 */
export class PasswordGuard {
  constructor(
    private readonly clock: Clock,
    private readonly policy: LockoutPolicy,
  ) {}

  /** Counts an attempt at the account from this address, or throws code 45 while it may not try. */
  async reserve(db: Db, key: string, source: string): Promise<Reservation> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.transaction((tx) => this.reserveIn(tx, key, source));
      } catch (err) {
        // Rows are taken in one order (the address's, then the account's); a statement that took
        // them in another (the retention job pruning old rows) may deadlock with it, once in a while.
        if (attempt < RESERVE_TRIES && pgErrorCode(err) === DEADLOCK) continue;
        throw err;
      }
    }
  }

  private async reserveIn(tx: Tx, key: string, source: string): Promise<Reservation> {
    const now = this.clock.now();
    const p = this.policy;
    const nowAt = sql`${now.toISOString()}::timestamptz`;
    const forgetBefore = sql`${new Date(now.getTime() - p.LOGIN_FAILURE_MEMORY_S * 1000).toISOString()}::timestamptz`;
    const notLocked = sql`(${loginFailures.lockedUntil} is null or ${loginFailures.lockedUntil} <= ${nowAt})`;
    const target = [loginFailures.accountKey, loginFailures.source];

    // The address: refused while it is locked out of the account; a lock that is over, or failures
    // forgotten, start its count again.
    const [address] = await tx
      .insert(loginFailures)
      .values({ accountKey: key, source, failures: 1, updatedAt: now })
      .onConflictDoUpdate({
        target,
        set: {
          failures: sql`case when ${loginFailures.lockedUntil} is not null or ${loginFailures.updatedAt} < ${forgetBefore} then 1 else ${loginFailures.failures} + 1 end`,
          lockedUntil: null,
          updatedAt: now,
        },
        setWhere: notLocked,
      })
      .returning();
    if (!address) throw new ApiError('ACCOUNT_LOCKED', LOCKED);
    let addressLock: Date | undefined;
    if (address.failures >= p.LOGIN_MAX_FAILURES) {
      addressLock = new Date(now.getTime() + p.LOCKOUT_S * 1000);
      await this.setLock(tx, key, source, addressLock);
      address.lockedUntil = addressLock;
    }

    // The account, from every address: refused during its delay, unless this address signed in to
    // it lately. The row stays locked until the transaction ends, so the delay this attempt starts
    // is in place before the next attempt at the account is counted.
    const known = knownAddress({ address }, now, p);
    const [account] = await tx
      .insert(loginFailures)
      .values({ accountKey: key, source: ACCOUNT_WIDE, failures: 1, updatedAt: now })
      .onConflictDoUpdate({
        target,
        set: {
          failures: sql`case when ${loginFailures.updatedAt} < ${forgetBefore} then 1 else ${loginFailures.failures} + 1 end`,
          updatedAt: now,
        },
        setWhere: known ? sql`true` : notLocked,
      })
      .returning();
    if (!account) throw new ApiError('ACCOUNT_LOCKED', LOCKED);
    let accountLock: Date | undefined;
    const delayS = accountDelayS(account.failures, p);
    // A delay in force (passed by a known address) is neither extended nor shortened.
    if (delayS > 0 && !(account.lockedUntil && account.lockedUntil > now)) {
      accountLock = new Date(now.getTime() + delayS * 1000);
      await this.setLock(tx, key, ACCOUNT_WIDE, accountLock);
      account.lockedUntil = accountLock;
    }
    return { key, source, state: { address, account }, addressLock, accountLock };
  }

  private async setLock(tx: Tx, key: string, source: string, until: Date): Promise<void> {
    await tx
      .update(loginFailures)
      .set({ lockedUntil: until })
      .where(and(eq(loginFailures.accountKey, key), eq(loginFailures.source, source)));
  }

  /**
   * A wrong password: the attempt stays counted. Throws code 45 when this attempt locked the
   * address out, or started a delay that holds it, else `refusal`.
   */
  failed(reservation: Reservation, refusal: ApiError): never {
    if (lockedNow(reservation.state, this.clock.now(), this.policy)) throw new ApiError('ACCOUNT_LOCKED', LOCKED);
    throw refusal;
  }

  /**
   * Gives an attempt back: it counts at neither row, and a lock it started is lifted (one started
   * by another attempt meanwhile stays). `signedIn`: the right password signed in from this
   * address, whose count restarts and which becomes a known address of the account. The
   * account-wide count is otherwise left to a password reset or to time, so an attacker's count
   * does not restart whenever the owner signs in. Rows are taken in the reservation's order.
   */
  async release(db: Executor, reservation: Reservation, { signedIn }: { signedIn: boolean }): Promise<void> {
    const { key, source, addressLock, accountLock } = reservation;
    const now = this.clock.now();
    const target = [loginFailures.accountKey, loginFailures.source];
    const giveBack = (lock: Date | undefined) => ({
      failures: sql`greatest(${loginFailures.failures} - 1, 0)`,
      ...(lock
        ? {
            lockedUntil: sql`case when ${loginFailures.lockedUntil} = ${lock.toISOString()}::timestamptz then null else ${loginFailures.lockedUntil} end`,
          }
        : {}),
    });
    // Upserts, so a row a password reset deleted meanwhile is no error.
    await db
      .insert(loginFailures)
      .values({ accountKey: key, source, failures: 0, lastSuccessAt: signedIn ? now : null, updatedAt: now })
      .onConflictDoUpdate({
        target,
        set: signedIn ? { failures: 0, lockedUntil: null, lastSuccessAt: now, updatedAt: now } : giveBack(addressLock),
      });
    await db
      .insert(loginFailures)
      .values({ accountKey: key, source: ACCOUNT_WIDE, failures: 0, updatedAt: now })
      .onConflictDoUpdate({ target, set: giveBack(accountLock) });
  }

  /**
   * A password reset proves the owner: every counter and lock of the account ends. The addresses'
   * rows go first and the account's last, the order in which attempts take them.
   */
  async clear(db: Executor, key: string): Promise<void> {
    await db
      .delete(loginFailures)
      .where(and(eq(loginFailures.accountKey, key), ne(loginFailures.source, ACCOUNT_WIDE)));
    await db
      .delete(loginFailures)
      .where(and(eq(loginFailures.accountKey, key), eq(loginFailures.source, ACCOUNT_WIDE)));
  }
}
