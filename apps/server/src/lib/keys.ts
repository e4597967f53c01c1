import { createHash, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * A 32-byte key for one purpose, derived from JWT_SECRET (HKDF-SHA256), so one configured secret
 * serves every signature and seal without reusing a key across purposes.
 */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'robot-portal', purpose, 32));
}

/**
 * The id of the key a secret makes (a token header's `kid`): 8 base64url characters (48 bits) of
 * HKDF under a purpose of its own. It tells which configured secret signed a token without telling
 * anything about the secret; a token's signature already lets anyone test guesses at it offline,
 * so the id gives a guesser nothing new (docs/decisions/058).
 */
export function keyId(secret: string): string {
  return Buffer.from(hkdfSync('sha256', secret, 'robot-portal', 'key-id-v1', 6)).toString('base64url');
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
