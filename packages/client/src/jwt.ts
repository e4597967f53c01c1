import {
  ACCESS_TOKEN_EXPIRY_MARGIN_S,
  DEFAULT_ACCESS_TOKEN_LIFETIME_S,
  DEFAULT_REFRESH_TOKEN_LIFETIME_S,
  REFRESH_TOKEN_EXPIRY_MARGIN_S,
} from '@portal/contract';

// Reading a token's expiry, apart from the refreshing (tokens.ts): the web app's entry asks whether
// a stored access token is still good before anything else loads, and this needs none of the
// contract's schemas.

/**
 * The claims of a compact JWS (header.payload.signature), read without verifying anything: the
 * server verifies. A few lines instead of jose's decodeJwt, which cost the browser ~1 KB gzip on
 * every signed-in page (issue 13); tokens.test.ts checks it reads as jose does.
 */
function jwtClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  const base64 = parts[1].replaceAll('-', '+').replaceAll('_', '/');
  if (!/^[A-Za-z0-9+/]+$/.test(base64) || base64.length % 4 === 1) return undefined;
  const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
  const claims: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  return claims !== null && typeof claims === 'object' && !Array.isArray(claims)
    ? (claims as Record<string, unknown>)
    : undefined;
}

/** The `exp` claim of a JWT, read without verifying it (the server verifies). */
export function tokenExpiry(token: string | undefined | null): number | undefined {
  if (!token) return undefined;
  try {
    const exp = jwtClaims(token)?.exp;
    return typeof exp === 'number' ? exp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A token counts as expired `margin` seconds before its `exp` (spec/000 §4). Without a readable
 * `exp`, the default lifetime counts from when it was received (`receivedAtS`).
 */
function expired(
  token: string | undefined | null,
  nowS: number,
  margin: number,
  lifetime: number,
  receivedAtS?: number,
) {
  if (!token) return true;
  const exp = tokenExpiry(token) ?? (receivedAtS !== undefined ? receivedAtS + lifetime : undefined);
  if (exp === undefined) return true;
  return nowS >= exp - margin;
}

export function accessTokenExpired(token: string | undefined | null, nowS: number, receivedAtS?: number): boolean {
  return expired(token, nowS, ACCESS_TOKEN_EXPIRY_MARGIN_S, DEFAULT_ACCESS_TOKEN_LIFETIME_S, receivedAtS);
}

export function refreshTokenExpired(token: string | undefined | null, nowS: number, receivedAtS?: number): boolean {
  return expired(token, nowS, REFRESH_TOKEN_EXPIRY_MARGIN_S, DEFAULT_REFRESH_TOKEN_LIFETIME_S, receivedAtS);
}
