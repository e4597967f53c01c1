import { createHash, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * A 32-byte key for one purpose, derived from JWT_SECRET (HKDF-SHA256), so one configured secret
 * serves every signature and seal without reusing a key across purposes.
 */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'robot-portal', purpose, 32));
}

/** Compares two secrets in constant time whatever their lengths (both are hashed first). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an id from a request can be a uuid; anything else is simply not found (never a SQL error). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
