import { ApiError, type ParsedRequestOf, type Passkey, type SignInSession, type security } from '@portal/contract';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { COSEALG, decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { AfterAnswer } from '../../lib/after-answer.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import type { Caller, Sessions, SignInMeta } from '../auth/auth.sessions.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { AccountService, LoginResult, SignedInNotice } from '../useraction/useraction.service.ts';
import { newBrowserMail, passkeyAddedMail } from './security.mails.ts';
import { type ChallengePurpose, type PasskeyRow, securityRepository as repo } from './security.repository.ts';
import { browserLabel, parseUserAgent } from './security.user-agent.ts';

type Input<A extends keyof (typeof security)['actions']> = ParsedRequestOf<typeof security, A>;

const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);
const CHALLENGE_GONE = 'credential: this passkey request has expired or was already used; please start again';
const NOT_REGISTERED =
  'credential.id: this passkey is not registered with any account (it may have been removed); sign in with your password';

/** A user id (a UUID) as the 16 bytes WebAuthn keeps as the credential's user handle. */
function userHandle(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replace(/-/g, ''), 'hex'));
}

function toPasskey(row: PasskeyRow): Passkey {
  return {
    passkey_id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    synced: row.backedUp,
  };
}

/**
 * The account security centre (docs/decisions/032, 033): the user's sessions with a sign-out each,
 * passkeys (WebAuthn through @simplewebauthn/server) and the security emails. Challenges live in the
 * database, so any instance finishes a ceremony another began; each is used once.
 */
/**
 * The signature algorithms a new passkey may use: EdDSA, ES256, RS256, whatever the runtime. The library's
 * default puts ML-DSA-44 first where Node.js supports it (24 does, 22 does not): a passkey made so would stop
 * working on a server that runs an older Node, and its signatures exceed the contract's bound.
 */
export const PASSKEY_ALGORITHMS = [COSEALG.EdDSA, COSEALG.ES256, COSEALG.RS256];

export class SecurityService {
  constructor(
    private readonly deps: {
      config: Config;
      db: Db;
      clock: Clock;
      mailer: Mailer;
      limiter: RateLimiter;
      sessions: Sessions;
      accounts: AccountService;
      afterAnswer: AfterAnswer;
      /** staff enrolment links (issue 34): an enrolment registers a passkey through this centre */
      staff: StaffService;
    },
  ) {}

  private now() {
    return this.deps.clock.now();
  }

  private securityLink() {
    return `${this.deps.config.PUBLIC_URL}/dashboard/user/profile#security`;
  }

  // ---- sessions ----

  async listSessions(caller: Caller): Promise<SignInSession[]> {
    const rows = await this.deps.sessions.list(caller.userId);
    const sessions = rows.map((row) => ({
      sign_in_id: row.id,
      target: row.target === 'hub' ? ('hub' as const) : ('portal' as const),
      ...parseUserAgent(row.userAgent),
      address: row.address,
      started_at: row.createdAt.toISOString(),
      last_used_at: row.lastUsedAt.toISOString(),
      current: row.id === caller.sessionId,
    }));
    // The caller's own first, then by last use.
    return [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)];
  }

  /** A session that is not the user's is told apart from none at all by nothing: 404 either way. */
  async revokeSession(caller: Caller, sessionId: string): Promise<void> {
    const revoked = await this.deps.sessions.revokeOwn(
      caller.userId,
      sessionId,
      'signed out from the security centre',
      (tx) => this.deps.accounts.audited(tx, caller.userId, 'sessions.revoke', { sessionsEnded: 1 }),
    );
    if (!revoked) throw new ApiError('NOT_FOUND', 'sign_in_id: you have no live session with this id');
  }

  /** The sessions end and are announced ended in one transaction, so their streams end when it commits. */
  revokeOtherSessions(caller: Caller): Promise<number> {
    return this.deps.db.transaction(async (tx) => {
      const ended = await this.deps.sessions.revokeAll(
        tx,
        caller.userId,
        'signed out everywhere else from the security centre',
        caller.sessionId,
      );
      if (ended > 0) await this.deps.accounts.audited(tx, caller.userId, 'sessions.revoke', { sessionsEnded: ended });
      return ended;
    });
  }

  // ---- passkeys ----

  /** The relying party; passkeys are off on a deployment without a domain (docs/decisions/032). */
  private relyingParty(): { rpId: string; origins: string[] } {
    const { rpId, origins } = this.deps.config.webauthn;
    if (!rpId || origins.length === 0)
      throw new ApiError(
        'FORBIDDEN',
        'passkeys: not available on this deployment (its address is not a domain; set WEBAUTHN_RP_ID)',
      );
    return { rpId, origins };
  }

  private async newChallenge(challenge: string, purpose: ChallengePurpose, userId: string | null) {
    const now = this.now();
    await repo.insertChallenge(
      this.deps.db,
      {
        challenge,
        purpose,
        userId,
        expiresAt: new Date(now.getTime() + this.deps.config.WEBAUTHN_CHALLENGE_TTL_S * 1000),
      },
      now,
    );
  }

  /**
   * The challenge a browser's answer signed, taken out of the database for good before anything
   * is checked, so a failed attempt cannot be retried against it either. Throws `refusal` when it
   * is unknown (never issued, used already) or expired.
   */
  private async takeChallenge(clientDataJSON: string, purpose: ChallengePurpose, refusal: ApiError) {
    let challenge: string;
    try {
      challenge = decodeClientDataJSON(clientDataJSON).challenge;
    } catch {
      throw new ApiError('VALIDATION', 'credential.response.clientDataJSON: is not WebAuthn client data');
    }
    if (typeof challenge !== 'string' || challenge.length === 0 || challenge.length > 256) throw refusal;
    const row = await repo.takeChallenge(this.deps.db, challenge, purpose);
    if (!row || row.expiresAt <= this.now()) throw refusal;
    return { challenge, userId: row.userId };
  }

  async listPasskeys(caller: Caller): Promise<Passkey[]> {
    return (await repo.passkeysOf(this.deps.db, caller.userId)).map(toPasskey);
  }

  registrationOptions(caller: Caller) {
    return this.registrationOptionsFor({ userId: caller.userId, email: caller.email });
  }

  private async registrationOptionsFor(caller: { userId: string; email: string }) {
    const { rpId } = this.relyingParty();
    const existing = await repo.passkeysOf(this.deps.db, caller.userId);
    const options = await generateRegistrationOptions({
      rpName: this.deps.config.WEBAUTHN_RP_NAME,
      rpID: rpId,
      userName: caller.email,
      userDisplayName: caller.email,
      userID: userHandle(caller.userId),
      timeout: this.deps.config.WEBAUTHN_CHALLENGE_TTL_S * 1000,
      attestationType: 'none',
      // The same authenticator is not registered twice.
      excludeCredentials: existing.map((p) => ({
        id: p.credentialId,
        transports: p.transports ? p.transports.split(',') : [],
      })),
      // A passkey: kept on the authenticator (discoverable), so signing in needs no email, and
      // verified (a PIN or biometrics), so it is a whole sign-in, not a second factor.
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    });
    await this.newChallenge(options.challenge, 'register', caller.userId);
    return options;
  }

  /** Verifies a registration answer against a challenge issued to `userId`; answers the new credential. */
  private async verifyRegistration(userId: string, credential: Input<'AddPasskey'>['credential']) {
    const { rpId, origins } = this.relyingParty();
    const { challenge, userId: issuedTo } = await this.takeChallenge(
      credential.response.clientDataJSON,
      'register',
      new ApiError('VALIDATION', CHALLENGE_GONE),
    );
    // A challenge issued to another account is as good as none.
    if (issuedTo !== userId) throw new ApiError('VALIDATION', CHALLENGE_GONE);
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response: credential as Parameters<typeof verifyRegistrationResponse>[0]['response'],
        expectedChallenge: challenge,
        expectedOrigin: origins,
        expectedRPID: rpId,
        requireUserVerification: true,
      });
    } catch (err) {
      throw new ApiError('VALIDATION', `credential: could not be verified (${(err as Error).message})`);
    }
    if (!verified.verified) throw new ApiError('VALIDATION', 'credential: could not be verified');
    return verified.registrationInfo;
  }

  private passkeyRow(userId: string, info: Awaited<ReturnType<SecurityService['verifyRegistration']>>, name: string) {
    return {
      userId,
      credentialId: info.credential.id,
      publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
      counter: info.credential.counter,
      transports: (info.credential.transports ?? []).filter((t) => TRANSPORTS.has(t)).join(','),
      backedUp: info.credentialBackedUp,
      name,
      createdAt: this.now(),
    };
  }

  async addPasskey(caller: Caller, input: Input<'AddPasskey'>): Promise<Passkey> {
    const info = await this.verifyRegistration(caller.userId, input.credential);
    const now = this.now();
    const created = await this.deps.db.transaction(async (tx) => {
      const row = await repo.insertPasskey(tx, this.passkeyRow(caller.userId, info, input.name));
      if (row) await this.deps.accounts.audited(tx, caller.userId, 'passkey.add', { passkey: row.name });
      return row;
    });
    if (!created) throw new ApiError('CONFLICT', 'credential.id: this passkey is registered already');
    this.deps.afterAnswer.run('passkey added mail', async () => {
      const account = await this.deps.accounts.profileOf(caller.userId);
      if (!account) return;
      await this.deps.mailer.send(
        passkeyAddedMail({
          to: account.email,
          name: account.name,
          passkeyName: created.name,
          at: now,
          securityLink: this.securityLink(),
        }),
      );
    });
    return toPasskey(created);
  }

  // ---- staff enrolment (issue 34, decision 071) ----

  /** The enrolment a link stands for, and its account; 404 naming the token when it is unknown, used or expired. */
  private async openEnrolment(token: string) {
    const enrolment = await this.deps.staff.enrolment(token);
    const account = enrolment && (await this.deps.staff.accountOf(enrolment.userId));
    if (!enrolment || !account)
      throw new ApiError(
        'NOT_FOUND',
        'enrolment_token: this enrolment link is unknown, used or expired; ask an admin for a new one',
      );
    return { enrolment, account };
  }

  /** Counted like the other calls anyone may make: per address, with password and passkey sign-ins. */
  async staffEnrolmentOptions(input: Input<'StaffEnrolmentOptions'>, ip: string) {
    this.relyingParty();
    await this.limitSignIn(ip);
    const { enrolment, account } = await this.openEnrolment(input.enrolment_token);
    const options = await this.registrationOptionsFor({ userId: account.id, email: account.email });
    return { email: account.email, role: account.role ?? enrolment.role, options };
  }

  /**
   * Registers the staff member's passkey, uses up the link, marks the address verified and starts a
   * passkey session (so the role applies), all in one transaction: a failure leaves the link usable.
   */
  async staffEnrol(input: Input<'StaffEnrol'>, meta: SignInMeta) {
    this.relyingParty();
    await this.limitSignIn(meta.address);
    const { enrolment, account } = await this.openEnrolment(input.enrolment_token);
    const info = await this.verifyRegistration(account.id, input.credential);
    const started = await this.deps.db.transaction(async (tx) => {
      const row = await repo.insertPasskey(tx, this.passkeyRow(account.id, info, input.name));
      if (!row) throw new ApiError('CONFLICT', 'credential.id: this passkey is registered already');
      if (!(await this.deps.staff.completeEnrolment(tx, enrolment)))
        throw new ApiError('NOT_FOUND', 'enrolment_token: this enrolment link was used meanwhile');
      // The link proved the address: shares waiting for it apply, as a verification link's would.
      await this.deps.accounts.addressProven(tx, { id: account.id, email: account.email });
      return this.deps.accounts.startVerifiedSession(tx, account.id, 'portal', meta);
    });
    const answer = await this.deps.accounts.signedIn(started, 'portal', undefined, meta, 'passkey');
    if (answer.target !== 'portal') throw new ApiError('INTERNAL', 'a staff enrolment signs in to the portal');
    return { user: answer.user, token_pair: answer.token_pair };
  }

  async renamePasskey(caller: Caller, passkeyId: string, name: string): Promise<Passkey> {
    const row = await repo.rename(this.deps.db, caller.userId, passkeyId, name);
    if (!row) throw new ApiError('NOT_FOUND', 'passkey_id: you have no passkey with this id');
    return toPasskey(row);
  }

  async removePasskey(caller: Caller, passkeyId: string): Promise<void> {
    const removed = await this.deps.db.transaction(async (tx) => {
      const done = await repo.remove(tx, caller.userId, passkeyId);
      if (done) await this.deps.accounts.audited(tx, caller.userId, 'passkey.remove', { passkeyId });
      return done;
    });
    if (!removed) throw new ApiError('NOT_FOUND', 'passkey_id: you have no passkey with this id');
  }

  /** Counted with password sign-ins from the same address (RATE_LOGIN_PER_ADDRESS). */
  private limitSignIn(ip: string) {
    return this.deps.limiter.hit(
      `login:addr:${ip}`,
      this.deps.config.RATE_LOGIN_PER_ADDRESS,
      15 * 60,
      'Too many sign-in attempts from this address. Please try again later.',
    );
  }

  async signInOptions(ip: string) {
    const { rpId } = this.relyingParty();
    await this.limitSignIn(ip);
    // No allowCredentials: the browser offers the passkeys it holds for this site, whoever's.
    const options = await generateAuthenticationOptions({
      rpID: rpId,
      userVerification: 'required',
      timeout: this.deps.config.WEBAUTHN_CHALLENGE_TTL_S * 1000,
    });
    await this.newChallenge(options.challenge, 'authenticate', null);
    return options;
  }

  /**
   * Signs in with a passkey under the rules of a password sign-in (docs/decisions/032): the same
   * per-address limit; a disabled account or an unverified address is refused, and told only to
   * whoever proved they hold the passkey. The password lockout does not hold a passkey back: the
   * lock is there to stop password guessing, which a passkey sign-in is not.
   */
  async signIn(input: Input<'PasskeySignIn'>, meta: SignInMeta): Promise<LoginResult> {
    const { db } = this.deps;
    const { rpId, origins } = this.relyingParty();
    await this.limitSignIn(meta.address);
    const target = this.deps.accounts.signInTarget(input.target, input.hub_public_key);
    const { credential } = input;
    const { challenge } = await this.takeChallenge(
      credential.response.clientDataJSON,
      'authenticate',
      new ApiError('UNAUTHENTICATED', CHALLENGE_GONE),
    );
    const passkey = await repo.byCredentialId(db, credential.id);
    if (!passkey) throw new ApiError('UNAUTHENTICATED', NOT_REGISTERED);
    const handle = credential.response.userHandle;
    if (handle && handle !== isoBase64URL.fromBuffer(userHandle(passkey.userId)))
      throw new ApiError('UNAUTHENTICATED', "credential.response.userHandle: is not the passkey's account");
    let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verified = await verifyAuthenticationResponse({
        response: credential as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
        expectedChallenge: challenge,
        expectedOrigin: origins,
        expectedRPID: rpId,
        credential: {
          id: passkey.credentialId,
          publicKey: isoBase64URL.toBuffer(passkey.publicKey),
          counter: passkey.counter,
          transports: passkey.transports ? (passkey.transports.split(',') as never[]) : [],
        },
        requireUserVerification: true,
      });
    } catch (err) {
      // The library refuses a counter that went backwards (a cloned authenticator) here too.
      throw new ApiError('UNAUTHENTICATED', `credential: could not be verified (${(err as Error).message})`);
    }
    if (!verified.verified)
      throw new ApiError('UNAUTHENTICATED', "credential.response.signature: does not match the passkey's public key");
    const info = verified.authenticationInfo;
    const started = await db.transaction(async (tx) => {
      const recorded = await repo.recordUse(
        tx,
        passkey.id,
        { counter: passkey.counter, backedUp: passkey.backedUp },
        { counter: info.newCounter, backedUp: info.credentialBackedUp },
        this.now(),
      );
      if (!recorded)
        throw new ApiError(
          'UNAUTHENTICATED',
          'credential: this passkey was used by another sign-in at the same moment',
        );
      return this.deps.accounts.startVerifiedSession(tx, passkey.userId, target, meta);
    });
    return this.deps.accounts.signedIn(started, target, input.hub_public_key, meta, 'passkey');
  }

  // ---- security emails ----

  /** After every sign-in: a mail when the browser is new to an account that has used another (docs/decisions/033). */
  async noteSignIn({ account, meta, method }: SignedInNotice): Promise<void> {
    const browser = browserLabel(parseUserAgent(meta.userAgent));
    const at = this.now();
    if (!(await repo.noteBrowser(this.deps.db, account.id, browser, at))) return;
    await this.deps.mailer.send(
      newBrowserMail({
        to: account.email,
        name: account.name,
        browser,
        address: meta.address,
        at,
        method,
        securityLink: this.securityLink(),
      }),
    );
  }
}
