import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import { deriveKey } from '../../lib/keys.ts';

export const DOWNLOAD_PATH = '/api/assets/download';

export type LinkCheck = { ok: true; userId: string; expiresAt: Date } | { ok: false; reason: 'forged' | 'expired' };

/**
 * Download links: `/api/assets/download/<artifact id>?u=<user id>&expires=<epoch s>&sig=<hmac>`.
 * The HMAC (a key derived from JWT_SECRET) covers the artifact, the user and the expiry, so a link
 * cannot be pointed at another file, another user or a later time; any instance can check it.
 */
export class DownloadLinks {
  private readonly key: Buffer;
  constructor(
    secret: string,
    private readonly ttlS: number,
    private readonly clock: Clock,
  ) {
    this.key = deriveKey(secret, 'download-link-v1');
  }

  private sign(artifactId: string, userId: string, expires: number): Buffer {
    return createHmac('sha256', this.key).update(`${artifactId}\n${userId}\n${expires}`).digest();
  }

  create(artifactId: string, userId: string): { link: string; expires: number } {
    const expires = Math.floor(this.clock.now().getTime() / 1000) + this.ttlS;
    const sig = this.sign(artifactId, userId, expires).toString('base64url');
    const query = new URLSearchParams({ u: userId, expires: String(expires), sig });
    return { link: `${DOWNLOAD_PATH}/${encodeURIComponent(artifactId)}?${query}`, expires };
  }

  check(artifactId: string, query: { u?: unknown; expires?: unknown; sig?: unknown }): LinkCheck {
    const { u, expires, sig } = query;
    if (typeof u !== 'string' || typeof expires !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(expires))
      return { ok: false, reason: 'forged' };
    const given = Buffer.from(sig, 'base64url');
    const expected = this.sign(artifactId, u, Number(expires));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'forged' };
    if (Number(expires) * 1000 <= this.clock.now().getTime()) return { ok: false, reason: 'expired' };
    return { ok: true, userId: u, expiresAt: new Date(Number(expires) * 1000) };
  }
}
