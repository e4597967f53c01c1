import { ApiError, changePasswordIssues, newPasswordIssues, useraction } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { hashLinkToken, newLinkToken } from '../../lib/tokens.ts';
import { mountService } from '../../plugins/actions.ts';
import { alreadyRegisteredMail, passwordChangedMail, resetMail, verificationMail } from './useraction.mails.ts';
import { toPublicUser, userRepository as users } from './useraction.repository.ts';

const INVALID_CREDENTIALS = 'Invalid email or password';
const CHECK_EMAIL_REGISTER =
  'If this email can be used, we have sent a verification link to it. Please check your email to verify your account.';
const CHECK_EMAIL_RESET = 'If an account exists for this email, we have sent a link to reset its password.';
const BAD_LINK = 'token: This link is invalid, has expired or was already used';

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

export async function useractionRoutes(app: FastifyInstance): Promise<void> {
  const { config, db, clock, mailer, limiter, sessions } = app.deps;
  const link = (path: string) => `${config.PUBLIC_URL}${path}`;
  const now = () => clock.now();

  /** A new single-use link token of a kind; earlier unused ones of that kind stop working. */
  async function issueLinkToken(userId: string, kind: 'verify' | 'reset', ttlS: number): Promise<string> {
    const { token, hash } = newLinkToken();
    await db.transaction(async (tx) => {
      await users.retireEmailTokens(tx, userId, kind, now());
      await users.insertEmailToken(tx, {
        userId,
        kind,
        tokenHash: hash,
        expiresAt: new Date(now().getTime() + ttlS * 1000),
      });
    });
    return token;
  }

  async function sendVerification(user: { id: string; email: string; name: string }) {
    const token = await issueLinkToken(user.id, 'verify', config.VERIFY_TOKEN_TTL_S);
    await mailer.send(
      verificationMail(
        user.email,
        user.name,
        link(`/auth/verify/${token}`),
        Math.round(config.VERIFY_TOKEN_TTL_S / 3600),
      ),
    );
  }

  mountService(app, useraction, {
    async login(input, { ip }) {
      await limiter.hit(
        `login:addr:${ip}`,
        config.RATE_LOGIN_PER_ADDRESS,
        15 * 60,
        'Too many sign-in attempts from this address. Please try again later.',
      );
      const target = input.target ?? 'portal';
      if (target === 'hub' && !input.hub_public_key)
        throw new ApiError('VALIDATION', 'hub_public_key: Required when target is hub');
      const user = await users.byEmail(db, input.user.email);
      if (!user) {
        await verifyPassword(await dummyPasswordHash(), input.user.password);
        throw new ApiError('UNAUTHENTICATED', INVALID_CREDENTIALS);
      }
      const lock = await users.lockState(db, user.id, ip);
      if (lock?.lockedUntil && lock.lockedUntil > now())
        throw new ApiError('ACCOUNT_LOCKED', 'Account locked: too many failed attempts. Please try again later.');
      if (!(await verifyPassword(user.passwordHash, input.user.password))) {
        const lockUntil = new Date(now().getTime() + config.LOCKOUT_S * 1000);
        const { locked } = await users.recordFailure(db, user.id, ip, config.LOGIN_MAX_FAILURES, lockUntil, now());
        if (locked)
          throw new ApiError('ACCOUNT_LOCKED', 'Account locked: too many failed attempts. Please try again later.');
        throw new ApiError('UNAUTHENTICATED', INVALID_CREDENTIALS);
      }
      if (!user.emailValidated)
        throw new ApiError('EMAIL_NOT_VERIFIED', 'EMAIL_NOT_VERIFIED: please validate your email before signing in');
      const pair = await db.transaction(async (tx) => {
        await users.clearFailures(tx, user.id, ip);
        return sessions.start(tx, user, target);
      });
      if (target === 'hub') {
        const enc_creds = await encryptForHub(input.hub_public_key as string, {
          user: { user_id: user.id, email: user.email, name: user.name },
          token_pair: pair,
        });
        return { target: 'hub', enc_creds };
      }
      return { target: 'portal', user: toPublicUser(user), token_pair: pair };
    },

    async logout(input) {
      const claims = await app.tokens.verifyRefresh(input.token_pair.refresh_token);
      if (typeof claims !== 'string') {
        const owner = await users.byId(db, claims.sub);
        if (owner && owner.email !== input.user.email)
          throw new ApiError('FORBIDDEN', 'user.email: does not match the session');
      }
      await sessions.revoke(input.token_pair.refresh_token, 'logout');
      return {};
    },

    async 'get-self'(input) {
      const { userId, pair } = await sessions.rotate(input.token_pair.refresh_token);
      const user = await users.byId(db, userId);
      if (!user) throw new ApiError('UNAUTHENTICATED', 'Authentication failed - invalid or expired token');
      if (!user.emailValidated)
        throw new ApiError('EMAIL_NOT_VERIFIED', 'EMAIL_NOT_VERIFIED: please validate your email before signing in');
      return { user: toPublicUser(user), token_pair: pair };
    },

    async UserRegister(input, { ip }) {
      await limiter.hit(
        `register:addr:${ip}`,
        config.RATE_REGISTER_PER_ADDRESS,
        60 * 60,
        'Too many registrations from this address. Please try again later.',
      );
      const u = input.user;
      const passwordHash = await hashPassword(u.password);
      const created = await users.insert(db, {
        email: u.email,
        passwordHash,
        name: u.name,
        yearBorn: u.year_born,
        country: u.country,
        company: u.company,
        profession: u.profession,
        marketing: u.marketing,
        termsAgreed: u.termsagreed,
        emailValidated: false,
        joinedAt: now(),
      });
      if (created) {
        await sendVerification(created);
      } else {
        const existing = await users.byEmail(db, u.email);
        if (existing && !existing.emailValidated) await sendVerification(existing);
        else if (existing)
          await mailer.send(
            alreadyRegisteredMail(existing.email, existing.name, link('/auth/login'), link('/auth/login?forgot=1')),
          );
      }
      return { error: { Success: true, Code: 0, Description: CHECK_EMAIL_REGISTER } };
    },

    async UserVerifyEmail(input) {
      const row = await users.liveEmailToken(db, hashLinkToken(input.token), 'verify', now());
      if (!row) throw new ApiError('INVALID_TOKEN', BAD_LINK);
      const user = await db.transaction(async (tx) => {
        if (!(await users.consumeEmailToken(tx, row.id, now()))) throw new ApiError('INVALID_TOKEN', BAD_LINK);
        return users.update(tx, row.userId, { emailValidated: true }, now());
      });
      return { user: { email: user?.email ?? '' } };
    },

    async UserCheckToken(input) {
      const kind = input.tokentype === 2 ? 'reset' : 'verify';
      const row = await users.liveEmailToken(db, hashLinkToken(input.token), kind, now());
      return { valid: Boolean(row) };
    },

    async UserForgotPassword(input, { ip }) {
      const message = 'Too many password reset requests. Please try again later.';
      await limiter.hit(`forgot:addr:${ip}`, config.RATE_FORGOT_PER_ADDRESS, 60 * 60, message);
      const user = await users.byEmail(db, input.user.email);
      // The per-account limit is counted silently: answering 429 would tell that the account exists.
      if (user) {
        try {
          await limiter.hit(`forgot:acct:${user.id}`, config.RATE_FORGOT_PER_ACCOUNT, 60 * 60, message);
        } catch {
          return { error: { Success: true, Code: 0, Description: CHECK_EMAIL_RESET } };
        }
        const token = await issueLinkToken(user.id, 'reset', config.RESET_TOKEN_TTL_S);
        await mailer.send(
          resetMail(
            user.email,
            user.name,
            link(`/auth/password/reset/${token}`),
            Math.round(config.RESET_TOKEN_TTL_S / 60),
          ),
        );
      }
      return { error: { Success: true, Code: 0, Description: CHECK_EMAIL_RESET } };
    },

    async UserChangePassword(input) {
      const row = await users.liveEmailToken(db, hashLinkToken(input.token), 'reset', now());
      const user = row ? await users.byId(db, row.userId) : undefined;
      if (!row || !user || user.email !== input.user.email) throw new ApiError('INVALID_TOKEN', BAD_LINK);
      const issues = newPasswordIssues(input.password, user.email);
      if (issues.length) throw new ApiError('VALIDATION', issues.map((m) => `password: ${m}`).join('; '));
      const passwordHash = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        if (!(await users.consumeEmailToken(tx, row.id, now()))) throw new ApiError('INVALID_TOKEN', BAD_LINK);
        // Opening the emailed link proves the address, so it also counts as verified.
        await users.update(tx, user.id, { passwordHash, emailValidated: true }, now());
        await users.clearFailures(tx, user.id);
        await sessions.revokeAll(tx, user.id, 'password reset');
      });
      await mailer.send(passwordChangedMail(user.email, user.name));
      return {};
    },

    async UserUpdatePassword(input, { caller }) {
      const user = await users.byId(db, caller.userId);
      if (!user) throw new ApiError('UNAUTHENTICATED', 'Missing required authentication');
      if (!(await verifyPassword(user.passwordHash, input.user.password)))
        throw new ApiError('VALIDATION', 'user.password: Current password is incorrect');
      const issues = changePasswordIssues({
        currentPassword: input.user.password,
        newPassword: input.password,
        repeatPassword: input.password,
        email: user.email,
      });
      if (issues.length) throw new ApiError('VALIDATION', issues.map((i) => `password: ${i.message}`).join('; '));
      const passwordHash = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        await users.update(tx, user.id, { passwordHash }, now());
        await sessions.revokeAll(tx, user.id, 'password changed', caller.sessionId);
      });
      await mailer.send(passwordChangedMail(user.email, user.name));
      return {};
    },

    async UserUpdate(input, { caller }) {
      const u = input.user;
      const updated = await users.update(
        db,
        caller.userId,
        {
          name: u.name,
          country: u.country,
          company: u.company,
          ...(u.profession !== undefined ? { profession: u.profession } : {}),
          // The profile form sends -1: the year is not on it, so the stored one stays.
          ...(u.year_born !== -1 ? { yearBorn: u.year_born } : {}),
        },
        now(),
      );
      if (!updated) throw new ApiError('NOT_FOUND', 'user: not found');
      return { user: toPublicUser(updated) };
    },

    async UserDelete(input, { caller }) {
      const user = await users.byId(db, caller.userId);
      if (!user) throw new ApiError('UNAUTHENTICATED', 'Missing required authentication');
      if (!(await verifyPassword(user.passwordHash, input.user.password)))
        throw new ApiError('VALIDATION', 'user.password: Password is incorrect');
      await db.transaction(async (tx) => {
        await sessions.revokeAll(tx, user.id, 'account deleted');
        await users.delete(tx, user.id);
      });
      return {};
    },
  });
}
