import {
  ApiError,
  COMMON_PASSWORD_MESSAGE,
  changePasswordIssues,
  DEFAULT_TARGET,
  newPasswordIssues,
  type ParsedRequestOf,
  type PublicUser,
  type Target,
  type TokenPair,
  type useraction,
} from '@portal/contract';
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import type { Config } from '../../config.ts';
import type { Db, Executor } from '../../db/client.ts';
import type { AfterAnswer } from '../../lib/after-answer.ts';
import type { Clock } from '../../lib/clock.ts';
import { isCommonPassword } from '../../lib/common-passwords.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { dummyPasswordHash, hashGate, hashPassword, verifyPassword } from '../../lib/passwords.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import { hashLinkToken, newLinkToken, type TokenService } from '../../lib/tokens.ts';
import type { ResultOf } from '../../plugins/actions.ts';
import type { AuditInput, AuditService } from '../audit/audit.service.ts';
import { ACCOUNT_DISABLED, type Caller, type Sessions, type SignInMeta } from '../auth/auth.sessions.ts';
import { accountKey, PasswordGuard, type Reservation } from './useraction.lockout.ts';
import { alreadyRegisteredMail, passwordChangedMail, resetMail, verificationMail } from './useraction.mails.ts';
import { type EmailTokenKind, toPublicUser, type UserRow, userRepository as users } from './useraction.repository.ts';

type Input<A extends keyof (typeof useraction)['actions']> = ParsedRequestOf<typeof useraction, A>;

const INVALID_CREDENTIALS = 'Invalid email or password';
const NOT_VERIFIED = 'EMAIL_NOT_VERIFIED: please validate your email before signing in';
export const CHECK_EMAIL_REGISTER =
  'If this email can be used, we have sent a verification link to it. Please check your email to verify your account.';
export const CHECK_EMAIL_RESET = 'If an account exists for this email, we have sent a link to reset its password.';
const BAD_LINK = 'token: This link is invalid, has expired or was already used';

/** What other modules may know of an account. */
export interface AccountRef {
  id: string;
  email: string;
}

/** login's answer: the contract's union on `target`, without the error object. */
export type LoginResult = ResultOf<(typeof useraction)['actions']['login']>;

/** A session just started for a user who proved who they are some other way than a password (a passkey). */
export interface StartedSession {
  user: UserRow;
  pair: TokenPair;
}

/** Who signed in, and from where: what the sign-in notice (a browser not seen before) needs. */
export interface SignedInNotice {
  account: { id: string; email: string; name: string };
  meta: SignInMeta;
  /** how the person signed in, for the mail */
  method: 'password' | 'passkey';
}

/** Encrypts the hub's credentials to the public key the hub generated for this sign-in. */
async function encryptForHub(hubPublicKey: string, payload: unknown): Promise<string> {
  let jwk: JWK;
  try {
    jwk = JSON.parse(hubPublicKey) as JWK;
    if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || 'd' in jwk) throw new Error('not a P-256 public key');
  } catch {
    throw new ApiError('VALIDATION', 'hub_public_key: must be a P-256 public JWK (JSON)');
  }
  const key = await importJWK(jwk, 'ECDH-ES+A256KW').catch(() => {
    throw new ApiError('VALIDATION', 'hub_public_key: must be a P-256 public JWK (JSON)');
  });
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ECDH-ES+A256KW', enc: 'A256GCM', cty: 'hub-credentials' })
    .encrypt(key);
}

/**
 * Accounts: sign-in with lockout, registration and email verification, password reset
 * and change, profile and deletion. The /api/useraction routes call these; other modules look
 * accounts up through `byEmail` and `byId`, never through the users table.
 */
export class AccountService {
  constructor(
    private readonly deps: {
      config: Config;
      db: Db;
      clock: Clock;
      mailer: Mailer;
      limiter: RateLimiter;
      sessions: Sessions;
      tokens: TokenService;
      /** mails that must not delay the answer (forgot password, registration) */
      afterAnswer: AfterAnswer;
      /** runs before an account is deleted: cancels its subscriptions at the provider (docs/decisions/019) */
      beforeDelete?: (userId: string) => Promise<unknown>;
      /** the audit trail: a deletion is recorded and the account's personal audit data anonymised */
      audit?: AuditService;
      /** runs in the transaction that marks an address verified (sharing claims its pending shares) */
      onAddressVerified?: (ex: Executor, account: AccountRef) => Promise<void>;
      /** runs after the answer of every sign-in: the security centre's new-browser email (docs/decisions/033) */
      onSignedIn?: (notice: SignedInNotice) => Promise<void>;
    },
  ) {
    this.guard = new PasswordGuard(deps.clock, deps.config);
  }

  private readonly guard: PasswordGuard;

  private now() {
    return this.deps.clock.now();
  }

  /** A customer's security event on the audit trail, in the transaction of its outcome (decision 069). */
  async audited(tx: Executor, userId: string, action: string, personal: Record<string, unknown> = {}): Promise<void> {
    await this.deps.audit?.record(tx, {
      actor: { kind: 'customer', id: userId },
      subjectUserId: userId,
      kind: 'security',
      action,
      personal,
    });
  }

  private link(path: string) {
    return `${this.deps.config.PUBLIC_URL}${path}`;
  }

  // ---- lookups for other modules ----

  async byEmail(email: string): Promise<AccountRef | undefined> {
    const user = await users.byEmail(this.deps.db, email);
    return user && { id: user.id, email: user.email };
  }

  /** What a mail to the account needs: its address and name. */
  async profileOf(userId: string): Promise<{ id: string; email: string; name: string } | undefined> {
    const user = await users.byId(this.deps.db, userId);
    return user && { id: user.id, email: user.email, name: user.name };
  }

  /**
   * An address proven some other way than this service's links (a staff enrolment): what waits for
   * it applies now, in the caller's transaction, as when a verification link is followed.
   */
  async addressProven(ex: Executor, account: AccountRef): Promise<void> {
    await this.deps.onAddressVerified?.(ex, account);
  }

  /** The account as its owner sees it, and whether it is disabled: the support inbox and the data export read it. */
  async profileView(userId: string): Promise<(PublicUser & { disabled: boolean }) | undefined> {
    const user = await users.byId(this.deps.db, userId);
    return user && { ...toPublicUser(user), disabled: user.disabledAt !== null };
  }

  /** The account's row (the back office's customer view), undefined when there is none. */
  async row(userId: string): Promise<UserRow | undefined> {
    return users.byId(this.deps.db, userId);
  }

  /** The account of an email, only if its address is verified. */
  async verifiedByEmail(email: string): Promise<AccountRef | undefined> {
    const user = await users.byEmail(this.deps.db, email);
    return user?.emailValidated ? { id: user.id, email: user.email } : undefined;
  }

  /** The account of an email; 404 naming `field` when there is none. */
  async requireByEmail(email: string, field = 'email'): Promise<AccountRef> {
    const account = await this.byEmail(email);
    if (!account) throw new ApiError('NOT_FOUND', `${field}: no account with this email`);
    return account;
  }

  // ---- link tokens ----

  /** A new single-use link token of a kind; earlier unused ones of that kind stop working. */
  private async issueLinkToken(
    userId: string,
    kind: EmailTokenKind,
    ttlS: number,
    also?: (tx: Executor) => Promise<unknown>,
  ): Promise<string> {
    const { token, hash } = newLinkToken();
    await this.deps.db.transaction(async (tx) => {
      await also?.(tx);
      await users.retireEmailTokens(tx, userId, kind, this.now());
      await users.insertEmailToken(tx, {
        userId,
        kind,
        tokenHash: hash,
        expiresAt: new Date(this.now().getTime() + ttlS * 1000),
      });
    });
    return token;
  }

  private async sendVerification(user: { id: string; email: string }) {
    const ttlS = this.deps.config.VERIFY_TOKEN_TTL_S;
    const token = await this.issueLinkToken(user.id, 'verify', ttlS);
    await this.deps.mailer.send(
      verificationMail(user.email, this.link(`/auth/verify/${token}`), Math.round(ttlS / 3600)),
    );
  }

  /** A common or breached password is refused, naming the field (docs/decisions/026). */
  private refuseCommon(password: string, field: string): void {
    if (isCommonPassword(password)) throw new ApiError('VALIDATION', `${field}: ${COMMON_PASSWORD_MESSAGE}`);
  }

  // ---- actions ----

  async login(input: Input<'login'>, meta: SignInMeta): Promise<LoginResult> {
    const { config, db, limiter, sessions } = this.deps;
    const ip = meta.address;
    // Past the hashing bound, refuse before any other work (docs/decisions/024).
    hashGate().admit();
    await limiter.hit(
      `login:addr:${ip}`,
      config.RATE_LOGIN_PER_ADDRESS,
      15 * 60,
      'Too many sign-in attempts from this address. Please try again later.',
    );
    const target = this.signInTarget(input.target, input.hub_public_key);
    // An unknown email goes through every step a known one does (the same counters, locks, answers
    // and one argon2 verify), so neither the answers nor the work tell whether it has an account.
    const key = accountKey(input.user.email);
    // The attempt is counted before the password is checked (docs/decisions/057).
    const [user, attempt] = await Promise.all([users.byEmail(db, input.user.email), this.guard.reserve(db, key, ip)]);
    const right = await this.verifyCounted(attempt, async () =>
      verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.user.password),
    );
    if (!user || !right) {
      // A failure that locked an account's sign-in is on its record (the owner asks why they cannot sign in).
      if (user && (attempt.accountLock || attempt.addressLock))
        await this.deps.audit?.recordAlone({
          actor: { kind: 'customer', id: user.id },
          subjectUserId: user.id,
          kind: 'security',
          action: 'auth.lock',
          personal: { ip, userAgent: meta.userAgent, scope: attempt.accountLock ? 'account' : 'address' },
        });
      return this.guard.failed(attempt, new ApiError('UNAUTHENTICATED', INVALID_CREDENTIALS));
    }
    // Told only to whoever knows the password, so a guesser learns nothing from it.
    if (user.disabledAt || !user.emailValidated) {
      await this.guard.release(db, attempt, { signedIn: false });
      if (user.disabledAt) throw new ApiError('FORBIDDEN', ACCOUNT_DISABLED);
      throw new ApiError('EMAIL_NOT_VERIFIED', NOT_VERIFIED);
    }
    const pair = await db.transaction(async (tx) => {
      await this.guard.release(tx, attempt, { signedIn: true });
      const started = await sessions.start(tx, user, target, meta);
      await this.audited(tx, user.id, 'auth.sign_in', { method: 'password', target, ip, userAgent: meta.userAgent });
      return started;
    });
    return this.signedIn({ user, pair }, target, input.hub_public_key, meta, 'password');
  }

  /**
   * A password check of a counted attempt. When the server could not check it (the hashing queue
   * full, a hashing thread gone), the attempt is given back before the error is answered: that is
   * the server's failure, not a guess.
   */
  private async verifyCounted(attempt: Reservation, verify: () => Promise<boolean>): Promise<boolean> {
    try {
      return await verify();
    } catch (err) {
      // Left counted if even that fails: it ages out like any failure.
      await this.guard.release(this.deps.db, attempt, { signedIn: false }).catch(() => {});
      throw err;
    }
  }

  /** The target of a sign-in, checked before any credential is: the hub target needs the hub's key. */
  signInTarget(target: Target | undefined, hubPublicKey: string | undefined): Target {
    const chosen = target ?? DEFAULT_TARGET;
    if (chosen === 'hub' && !hubPublicKey)
      throw new ApiError('VALIDATION', 'hub_public_key: Required when target is hub');
    return chosen;
  }

  /**
   * A session for the owner of a passkey that was just verified, in the transaction that records the
   * passkey's use. The account rules of a password sign-in apply: a disabled account is refused, and
   * so is an address not yet verified (docs/decisions/032).
   */
  async startVerifiedSession(ex: Executor, userId: string, target: Target, meta: SignInMeta): Promise<StartedSession> {
    const user = await users.byId(ex, userId);
    if (!user) throw new ApiError('UNAUTHENTICATED', 'credential: this passkey belongs to no account');
    if (user.disabledAt) throw new ApiError('FORBIDDEN', ACCOUNT_DISABLED);
    if (!user.emailValidated) throw new ApiError('EMAIL_NOT_VERIFIED', NOT_VERIFIED);
    const pair = await this.deps.sessions.start(ex, user, target, meta, 'passkey');
    await this.audited(ex, user.id, 'auth.sign_in', {
      method: 'passkey',
      target,
      ip: meta.address,
      userAgent: meta.userAgent,
    });
    return { user, pair };
  }

  /**
   * The answer of a sign-in whose session has started: the token pair for the portal, or for the hub
   * only credentials encrypted to its key (docs/decisions/005). The new-browser notice goes after the answer.
   */
  async signedIn(
    { user, pair }: StartedSession,
    target: Target,
    hubPublicKey: string | undefined,
    meta: SignInMeta,
    method: SignedInNotice['method'],
  ): Promise<LoginResult> {
    const answer: LoginResult =
      target === 'hub'
        ? {
            target: 'hub',
            enc_creds: await encryptForHub(hubPublicKey as string, {
              user: { user_id: user.id, email: user.email, name: user.name },
              token_pair: pair,
            }),
          }
        : { target: 'portal', user: toPublicUser(user), token_pair: pair };
    const { onSignedIn } = this.deps;
    if (onSignedIn)
      this.deps.afterAnswer.run('sign-in notice', () =>
        onSignedIn({ account: { id: user.id, email: user.email, name: user.name }, meta, method }),
      );
    return answer;
  }

  async logout(input: Input<'logout'>): Promise<void> {
    const claims = await this.deps.tokens.verifyRefresh(input.token_pair.refresh_token);
    if (typeof claims !== 'string') {
      const owner = await users.byId(this.deps.db, claims.sub);
      if (owner && owner.email !== input.user.email)
        throw new ApiError('FORBIDDEN', 'user.email: does not match the session');
    }
    await this.deps.sessions.revoke(input.token_pair.refresh_token, 'logout');
  }

  async getSelf(input: Input<'get-self'>, ip?: string): Promise<{ user: PublicUser; token_pair: TokenPair }> {
    const { userId, pair } = await this.deps.sessions.rotate(input.token_pair.refresh_token, ip);
    const user = await users.byId(this.deps.db, userId);
    if (!user) throw new ApiError('UNAUTHENTICATED', 'Authentication failed - invalid or expired token');
    if (!user.emailValidated) throw new ApiError('EMAIL_NOT_VERIFIED', NOT_VERIFIED);
    return { user: toPublicUser(user), token_pair: pair };
  }

  /** Answers the same whether the email was free or not: registration never tells who has an account. */
  async register(input: Input<'UserRegister'>, ip: string): Promise<void> {
    const { config, db, limiter, mailer } = this.deps;
    await limiter.hit(
      `register:addr:${ip}`,
      config.RATE_REGISTER_PER_ADDRESS,
      60 * 60,
      'Too many registrations from this address. Please try again later.',
    );
    const u = input.user;
    this.refuseCommon(u.password, 'user.password');
    const created = await users.insert(db, {
      email: u.email,
      passwordHash: await hashPassword(u.password),
      name: u.name,
      yearBorn: u.year_born,
      country: u.country,
      company: u.company,
      profession: u.profession,
      marketing: u.marketing,
      termsAgreed: u.termsagreed,
      emailValidated: false,
      joinedAt: this.now(),
    });
    // The mail goes after the answer, whichever it is, and at most REGISTER_MAILS_PER_RECIPIENT of
    // them a window reach one address (counted silently: a 429 would tell the address is in use).
    this.deps.afterAnswer.run('registration mail', async () => {
      const capped = await limiter
        .hit(
          `register:to:${accountKey(u.email)}`,
          config.REGISTER_MAILS_PER_RECIPIENT,
          config.REGISTER_MAIL_WINDOW_S,
          'capped',
        )
        .then(
          () => false,
          () => true,
        );
      if (capped) return;
      if (created) return this.sendVerification(created);
      const existing = await users.byEmail(db, u.email);
      if (existing && !existing.emailValidated) await this.sendVerification(existing);
      else if (existing)
        await mailer.send(
          alreadyRegisteredMail(
            existing.email,
            existing.name,
            this.link('/auth/login'),
            this.link('/auth/login?forgot=1'),
          ),
        );
    });
  }

  async verifyEmail(input: Input<'UserVerifyEmail'>): Promise<{ email: string }> {
    const { db } = this.deps;
    const row = await users.liveEmailToken(db, hashLinkToken(input.token), 'verify', this.now());
    if (!row) throw new ApiError('INVALID_TOKEN', BAD_LINK);
    const user = await db.transaction(async (tx) => {
      if (!(await users.consumeEmailToken(tx, row.id, this.now()))) throw new ApiError('INVALID_TOKEN', BAD_LINK);
      const verified = await users.update(tx, row.userId, { emailValidated: true }, this.now());
      if (verified) await this.deps.onAddressVerified?.(tx, { id: verified.id, email: verified.email });
      return verified;
    });
    return { email: user?.email ?? '' };
  }

  async checkToken(input: Input<'UserCheckToken'>): Promise<boolean> {
    const kind = input.tokentype === 2 ? 'reset' : 'verify';
    return Boolean(await users.liveEmailToken(this.deps.db, hashLinkToken(input.token), kind, this.now()));
  }

  /**
   * Answers before anything depends on the address: the per-account limit is counted for every
   * address alike (keyed by its hash), and the lookup, the link and the mail run after the answer.
   */
  async forgotPassword(input: Input<'UserForgotPassword'>, ip: string): Promise<void> {
    const { config, db, limiter, mailer } = this.deps;
    const message = 'Too many password reset requests. Please try again later.';
    await limiter.hit(`forgot:addr:${ip}`, config.RATE_FORGOT_PER_ADDRESS, 60 * 60, message);
    const email = input.user.email;
    // The per-account limit is counted silently: answering 429 would tell that the account exists.
    const withinLimit = await limiter
      .hit(`forgot:acct:${accountKey(email)}`, config.RATE_FORGOT_PER_ACCOUNT, 60 * 60, message)
      .then(
        () => true,
        () => false,
      );
    if (!withinLimit) return;
    this.deps.afterAnswer.run('reset mail', async () => {
      const user = await users.byEmail(db, email);
      if (!user) return;
      const token = await this.issueLinkToken(user.id, 'reset', config.RESET_TOKEN_TTL_S);
      await mailer.send(
        resetMail(
          user.email,
          user.name,
          this.link(`/auth/password/reset/${token}`),
          Math.round(config.RESET_TOKEN_TTL_S / 60),
        ),
      );
    });
  }

  /** A new password from an emailed reset link. */
  async resetPassword(input: Input<'UserChangePassword'>): Promise<void> {
    const { db, sessions, mailer } = this.deps;
    const row = await users.liveEmailToken(db, hashLinkToken(input.token), 'reset', this.now());
    const user = row ? await users.byId(db, row.userId) : undefined;
    if (!row || !user || user.email !== input.user.email) throw new ApiError('INVALID_TOKEN', BAD_LINK);
    const issues = newPasswordIssues(input.password, user.email);
    if (issues.length) throw new ApiError('VALIDATION', issues.map((m) => `password: ${m}`).join('; '));
    this.refuseCommon(input.password, 'password');
    const passwordHash = await hashPassword(input.password);
    await db.transaction(async (tx) => {
      if (!(await users.consumeEmailToken(tx, row.id, this.now()))) throw new ApiError('INVALID_TOKEN', BAD_LINK);
      // Opening the emailed link proves the address, so it also counts as verified.
      await users.update(tx, user.id, { passwordHash, emailValidated: true }, this.now());
      await this.deps.onAddressVerified?.(tx, { id: user.id, email: user.email });
      // The owner proved the address: every lock of the account ends (docs/decisions/026).
      await this.guard.clear(tx, accountKey(user.email));
      const ended = await sessions.revokeAll(tx, user.id, 'password reset');
      await this.audited(tx, user.id, 'auth.password_reset', { sessionsEnded: ended });
    });
    await mailer.send(passwordChangedMail(user.email, user.name));
  }

  private async signedInUser(caller: Caller): Promise<UserRow> {
    const user = await users.byId(this.deps.db, caller.userId);
    if (!user) throw new ApiError('UNAUTHENTICATED', 'Missing required authentication');
    return user;
  }

  /**
   * The current password of change and delete: a stolen access token must not be a way to guess it,
   * so wrong ones count as failed sign-ins of the account from this address, with the same locks.
   */
  private async checkCurrentPassword(user: UserRow, password: string, ip: string, wrong: string): Promise<void> {
    const { db } = this.deps;
    const attempt = await this.guard.reserve(db, accountKey(user.email), ip);
    if (!(await this.verifyCounted(attempt, () => verifyPassword(user.passwordHash, password))))
      this.guard.failed(attempt, new ApiError('VALIDATION', wrong));
    await this.guard.release(db, attempt, { signedIn: false });
  }

  /** A new password for a signed-in user who knows the current one; other sessions end. */
  async changePassword(input: Input<'UserUpdatePassword'>, caller: Caller, ip: string): Promise<void> {
    const { db, sessions, mailer } = this.deps;
    const user = await this.signedInUser(caller);
    await this.checkCurrentPassword(user, input.user.password, ip, 'user.password: Current password is incorrect');
    const issues = changePasswordIssues({
      currentPassword: input.user.password,
      newPassword: input.password,
      repeatPassword: input.password,
      email: user.email,
    });
    if (issues.length) throw new ApiError('VALIDATION', issues.map((i) => `password: ${i.message}`).join('; '));
    this.refuseCommon(input.password, 'password');
    const passwordHash = await hashPassword(input.password);
    await db.transaction(async (tx) => {
      await users.update(tx, user.id, { passwordHash }, this.now());
      const ended = await sessions.revokeAll(tx, user.id, 'password changed', caller.sessionId);
      await this.audited(tx, user.id, 'auth.password_change', { ip, sessionsEnded: ended });
    });
    await mailer.send(passwordChangedMail(user.email, user.name));
  }

  async updateProfile(input: Input<'UserUpdate'>, caller: Caller): Promise<PublicUser> {
    const u = input.user;
    const updated = await users.update(
      this.deps.db,
      caller.userId,
      {
        name: u.name,
        country: u.country,
        company: u.company,
        ...(u.profession !== undefined ? { profession: u.profession } : {}),
        // The profile form sends -1: the year is not on it, so the stored one stays.
        ...(u.year_born !== -1 ? { yearBorn: u.year_born } : {}),
      },
      this.now(),
    );
    if (!updated) throw new ApiError('NOT_FOUND', 'user: not found');
    return toPublicUser(updated);
  }

  async deleteAccount(input: Input<'UserDelete'>, caller: Caller, ip: string): Promise<void> {
    const user = await this.signedInUser(caller);
    await this.checkCurrentPassword(user, input.user.password, ip, 'user.password: Password is incorrect');
    await this.removeAccount(user.id, (tx) => this.audited(tx, user.id, 'account.delete', { ip }));
  }

  /**
   * A staff member deletes an account at its owner's request (issue 35, docs/decisions/075): the
   * customer's own deletion path, its entry naming the staff member and their reason. That entry is
   * written after the customer's personal audit data is anonymised, so the reason stays readable.
   */
  async deleteAccountFor(userId: string, by: NonNullable<AuditInput['actor']>): Promise<void> {
    const user = await users.byId(this.deps.db, userId);
    if (!user) throw new ApiError('NOT_FOUND', 'user_id: no account with this id');
    if (user.staffRole)
      throw new ApiError('CONFLICT', 'user_id: this is a staff account; take its role away before deleting it');
    await this.removeAccount(userId, undefined, async (tx) => {
      await this.deps.audit?.record(tx, {
        actor: by,
        subjectUserId: userId,
        kind: 'security',
        action: 'account.delete',
      });
    });
  }

  /**
   * Deletion (the customer's own and a staff member's): nothing may keep billing a deleted account,
   * so its subscriptions are cancelled at the provider first, and a provider failure leaves the
   * account in place. Deleting the row then ends its shares both ways (they cascade) with everything
   * else it owns.
   */
  private async removeAccount(
    userId: string,
    before: ((tx: Executor) => Promise<unknown>) | undefined,
    after?: (tx: Executor) => Promise<unknown>,
  ): Promise<void> {
    await this.deps.beforeDelete?.(userId);
    await this.deps.db.transaction(async (tx) => {
      await this.deps.sessions.revokeAll(tx, userId, 'account deleted');
      await users.delete(tx, userId);
      // The trail keeps that it happened; what it held about the person goes (decision 069).
      await before?.(tx);
      await this.deps.audit?.anonymiseUser(tx, userId, 'account deleted');
      await after?.(tx);
    });
  }

  /**
   * A staff member sends the verification link again (issue 35): a new link (earlier ones stop
   * working) and its entry in one transaction, the mail after the answer. Refused for a verified address.
   */
  async resendVerification(userId: string, by: NonNullable<AuditInput['actor']>): Promise<void> {
    const user = await users.byId(this.deps.db, userId);
    if (!user) throw new ApiError('NOT_FOUND', 'user_id: no account with this id');
    if (user.emailValidated) throw new ApiError('CONFLICT', 'user_id: this address is verified already');
    const ttlS = this.deps.config.VERIFY_TOKEN_TTL_S;
    const token = await this.issueLinkToken(userId, 'verify', ttlS, async (tx) => {
      await this.deps.audit?.record(tx, {
        actor: by,
        subjectUserId: userId,
        kind: 'change',
        action: 'verification.resend',
      });
    });
    const link = this.link(`/auth/verify/${token}`);
    this.deps.afterAnswer.run('verification mail', () =>
      this.deps.mailer.send(verificationMail(user.email, link, Math.round(ttlS / 3600))),
    );
  }
}
