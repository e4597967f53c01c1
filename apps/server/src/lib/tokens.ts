import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from './clock.ts';
import { type Hs256Key, hs256Key, signHs256, verifyHs256 } from './jwt-hs256.ts';

const ISSUER = 'robot-portal';

export interface AccessClaims {
  sub: string;
  sid: string;
  email: string;
}

export interface RefreshClaims {
  sub: string;
  sid: string;
  jti: string;
}

export type TokenProblem = 'expired' | 'invalid';

/** Access tokens remembered as verified, at most; past it the memory starts again (a token costs ~0.5 KB). */
export const VERIFIED_ACCESS_MAX = 10_000;

export class TokenService {
  /**
   * Access tokens this service has verified, with their claims and expiry: a browser sends the same
   * token with every call for its whole life, so its signature is checked once, not on every call.
   * Keyed by the token's exact text (any other text is verified in full), and only a token whose
   * signature was good gets in; its expiry is still checked on every use.
   */
  private readonly verifiedAccess = new Map<string, { claims: AccessClaims; exp: number }>();
  /**
   * The secrets as node:crypto keys, made on first use and kept (one set per service, so a new secret
   * means a new service): the first signs, and every one verifies the tokens whose `kid` names it
   * (lib/jwt-hs256.ts). jose's `SignJWT` through WebCrypto, which signed before, imported a raw key
   * on every use unless given an imported one, and was a trip to libuv's thread pool each time,
   * behind any argon2 hash.
   */
  private hmacKeys: readonly Hs256Key[] | undefined;
  /**
   * `previousSecret` is JWT_SECRET_PREVIOUS: during a rotation, tokens signed with it still verify
   * (and refresh into tokens of the current secret), so a rotation signs nobody out (docs/decisions/058).
   */
  constructor(
    private readonly secret: string,
    private readonly clock: Clock,
    readonly accessTtlS: number,
    readonly refreshTtlS: number,
    private readonly previousSecret?: string | undefined,
  ) {}

  private keys(): readonly Hs256Key[] {
    this.hmacKeys ??= [this.secret, this.previousSecret]
      .filter((secret): secret is string => secret !== undefined)
      .map((secret) => hs256Key(secret));
    return this.hmacKeys;
  }

  /** The signing key: the current secret's. */
  private key(): Hs256Key {
    return this.keys()[0] as Hs256Key;
  }

  private nowS() {
    return Math.floor(this.clock.now().getTime() / 1000);
  }

  async signAccess(claims: AccessClaims): Promise<string> {
    const now = this.nowS();
    return signHs256(
      {
        sid: claims.sid,
        email: claims.email,
        typ: 'access',
        sub: claims.sub,
        iss: ISSUER,
        aud: 'access',
        iat: now,
        exp: now + this.accessTtlS,
      },
      this.key(),
    );
  }

  async signRefresh(claims: RefreshClaims, expiresAtS: number): Promise<string> {
    return signHs256(
      {
        sid: claims.sid,
        typ: 'refresh',
        sub: claims.sub,
        jti: claims.jti,
        iss: ISSUER,
        aud: 'refresh',
        iat: this.nowS(),
        exp: expiresAtS,
      },
      this.key(),
    );
  }

  private claims(token: string, audience: 'access' | 'refresh'): Record<string, unknown> | TokenProblem {
    const result = verifyHs256(token, this.keys(), { issuer: ISSUER, audience, nowS: this.nowS() });
    return typeof result === 'string' ? result : result.payload;
  }

  async verifyAccess(token: string): Promise<AccessClaims | TokenProblem> {
    const known = this.verifiedAccess.get(token);
    if (known) return known.exp > this.nowS() ? known.claims : 'expired';
    const payload = this.claims(token, 'access');
    if (typeof payload === 'string') return payload;
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.email !== 'string')
      return 'invalid';
    const claims: AccessClaims = Object.freeze({ sub: payload.sub, sid: payload.sid, email: payload.email });
    if (this.verifiedAccess.size >= VERIFIED_ACCESS_MAX) this.verifiedAccess.clear();
    this.verifiedAccess.set(token, { claims, exp: payload.exp as number });
    return claims;
  }

  async verifyRefresh(token: string): Promise<RefreshClaims | TokenProblem> {
    const payload = this.claims(token, 'refresh');
    if (typeof payload === 'string') return payload;
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.jti !== 'string')
      return 'invalid';
    return { sub: payload.sub, sid: payload.sid, jti: payload.jti };
  }
}

export const newId = () => randomUUID();

/** A random single-use token for a link, and the hash that is stored instead of it. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashLinkToken(token) };
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
