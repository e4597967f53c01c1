import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { keyId } from './keys.ts';

/**
 * Signs and verifies compact HS256 JSON Web Tokens synchronously with node:crypto (docs/decisions/037, 048, 058).
 * Signing is `signHs256`: the header `{"alg":"HS256","kid":<key id>}`, the claims as given,
 * HMAC-SHA256 over both. Verifying:
 * every authenticated request checks one; through WebCrypto the check was a trip to libuv's thread
 * pool (behind any argon2 hashes queued there) and about a tenth of a read's CPU, and so was each
 * signature of a sign-in's two tokens (jose's `SignJWT`). It accepts exactly what `signHs256` issues
 * (and what jose's `SignJWT` issued before it) and refuses anything else:
 * - three base64url segments; the header is a JSON object whose `alg` is `HS256` and which has no
 *   `crit` (no extension we would have to understand);
 * - the header's `kid` names one of the keys given (the current one, or the previous one during a
 *   rotation: docs/decisions/058); a token without `kid` (signed before key ids) may be any of them;
 * - the signature is the canonical base64url of HMAC-SHA256 over `header.payload` under that key,
 *   compared in constant time;
 * - the payload is a JSON object; `iss` equals the issuer; `aud` equals the audience (or is a list
 *   holding it); `exp` is a number and later than now (`exp <= now` is expired, as in jose);
 *   `nbf`, if present, is a number not after now; `iat`, if present, is a number.
 */
export type Hs256Result = { payload: Record<string, unknown> } | 'expired' | 'invalid';

export interface Hs256Expect {
  issuer: string;
  audience: string;
  /** now, in whole seconds since the epoch */
  nowS: number;
}

const SEGMENT = /^[A-Za-z0-9_-]+$/;
const SIGNATURE_BYTES = 32;

/** One signing key: the secret as a node:crypto key, its id, and the header of the tokens it signs. */
export interface Hs256Key {
  readonly id: string;
  readonly key: KeyObject;
  /** the tokens' first segment: `{"alg":"HS256","kid":id}` in base64url */
  readonly header: string;
}

export function hs256Key(secret: string): Hs256Key {
  const id = keyId(secret);
  return {
    id,
    key: createSecretKey(Buffer.from(secret, 'utf8')),
    header: Buffer.from(JSON.stringify({ alg: 'HS256', kid: id })).toString('base64url'),
  };
}

function jsonObject(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Whether `given` (a signature's 32 bytes) is HMAC-SHA256 of `signing` under `key`, compared in constant time. */
function signedBy(key: KeyObject, signing: string, given: Buffer): boolean {
  return timingSafeEqual(given, createHmac('sha256', key).update(signing).digest());
}

/** Verifies a token against `keys`: the current key first, then any still accepted (decision 058). */
export function verifyHs256(token: string, keys: readonly Hs256Key[], expect: Hs256Expect): Hs256Result {
  const parts = token.split('.');
  if (parts.length !== 3) return 'invalid';
  const [h, p, s] = parts as [string, string, string];
  if (!SEGMENT.test(h) || !SEGMENT.test(p) || !SEGMENT.test(s)) return 'invalid';

  const header = jsonObject(h);
  if (header?.alg !== 'HS256' || 'crit' in header) return 'invalid';

  const given = Buffer.from(s, 'base64url');
  // One token, one spelling: trailing bits that decode to the same bytes are refused.
  if (given.length !== SIGNATURE_BYTES || given.toString('base64url') !== s) return 'invalid';
  const signing = `${h}.${p}`;
  if ('kid' in header) {
    // A key id that is not one of ours is refused without an HMAC.
    const key = keys.find((k) => k.id === header.kid);
    if (!key || !signedBy(key.key, signing, given)) return 'invalid';
  } else if (!keys.some((k) => signedBy(k.key, signing, given))) return 'invalid';

  const payload = jsonObject(p);
  if (!payload) return 'invalid';
  if (payload.iss !== expect.issuer) return 'invalid';
  const aud = payload.aud;
  if (!(aud === expect.audience || (Array.isArray(aud) && aud.includes(expect.audience)))) return 'invalid';
  if ('iat' in payload && !isNumber(payload.iat)) return 'invalid';
  if ('nbf' in payload && (!isNumber(payload.nbf) || payload.nbf > expect.nowS)) return 'invalid';
  if (!isNumber(payload.exp)) return 'invalid';
  if (payload.exp <= expect.nowS) return 'expired';
  return { payload };
}

/** A compact HS256 token of these claims (a JSON object; the caller sets iss, aud, iat, exp...). */
export function signHs256(claims: Record<string, unknown>, key: Hs256Key): string {
  const signing = `${key.header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${signing}.${createHmac('sha256', key.key).update(signing).digest('base64url')}`;
}
