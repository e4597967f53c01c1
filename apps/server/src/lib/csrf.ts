import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Stateless CSRF tokens: `issuedAtMs.nonce.hmac`. Any instance holding the secret can check one,
 * so nothing lives in process memory. Tokens last CSRF_TTL_MS.
 */
export const CSRF_TTL_MS = 2 * 60 * 60 * 1000;

export class CsrfTokens {
  private readonly key: Buffer;
  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('csrf').digest();
  }

  private mac(body: string) {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }

  issue(nowMs: number): string {
    const body = `${nowMs}.${randomBytes(16).toString('base64url')}`;
    return `${body}.${this.mac(body)}`;
  }

  check(token: string | undefined, nowMs: number): 'ok' | 'missing' | 'invalid' | 'expired' {
    if (!token) return 'missing';
    const parts = token.split('.');
    if (parts.length !== 3) return 'invalid';
    const [issued, nonce, mac] = parts as [string, string, string];
    const expected = Buffer.from(this.mac(`${issued}.${nonce}`));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    const issuedMs = Number(issued);
    if (!Number.isFinite(issuedMs) || issuedMs > nowMs + 60_000) return 'invalid';
    if (nowMs - issuedMs > CSRF_TTL_MS) return 'expired';
    return 'ok';
  }
}
