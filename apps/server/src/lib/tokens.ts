import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from './clock.ts';

const ISSUER = 'robot-portal';
const ALG = 'HS256';

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

export class TokenService {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    private readonly clock: Clock,
    readonly accessTtlS: number,
    readonly refreshTtlS: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  private nowS() {
    return Math.floor(this.clock.now().getTime() / 1000);
  }

  async signAccess(claims: AccessClaims): Promise<string> {
    const now = this.nowS();
    return new SignJWT({ sid: claims.sid, email: claims.email, typ: 'access' })
      .setProtectedHeader({ alg: ALG })
      .setSubject(claims.sub)
      .setIssuer(ISSUER)
      .setAudience('access')
      .setIssuedAt(now)
      .setExpirationTime(now + this.accessTtlS)
      .sign(this.key);
  }

  async signRefresh(claims: RefreshClaims, expiresAtS: number): Promise<string> {
    return new SignJWT({ sid: claims.sid, typ: 'refresh' })
      .setProtectedHeader({ alg: ALG })
      .setSubject(claims.sub)
      .setJti(claims.jti)
      .setIssuer(ISSUER)
      .setAudience('refresh')
      .setIssuedAt(this.nowS())
      .setExpirationTime(expiresAtS)
      .sign(this.key);
  }

  async verifyAccess(token: string): Promise<AccessClaims | TokenProblem> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: 'access',
        algorithms: [ALG],
        currentDate: this.clock.now(),
      });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.email !== 'string')
        return 'invalid';
      return { sub: payload.sub, sid: payload.sid, email: payload.email };
    } catch (err) {
      return err instanceof errors.JWTExpired ? 'expired' : 'invalid';
    }
  }

  async verifyRefresh(token: string): Promise<RefreshClaims | TokenProblem> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: 'refresh',
        algorithms: [ALG],
        currentDate: this.clock.now(),
      });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.jti !== 'string')
        return 'invalid';
      return { sub: payload.sub, sid: payload.sid, jti: payload.jti };
    } catch (err) {
      return err instanceof errors.JWTExpired ? 'expired' : 'invalid';
    }
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
