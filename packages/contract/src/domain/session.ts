import {
  ACCESS_TOKEN_EXPIRY_MARGIN_S,
  DEFAULT_ACCESS_TOKEN_LIFETIME_S,
  DEFAULT_REFRESH_TOKEN_LIFETIME_S,
  DEFAULT_TARGET,
  LOOPBACK_HOSTS,
  ONE_DAY_S,
  REFRESH_TOKEN_EXPIRY_MARGIN_S,
} from '../constants.ts';

export type SignInTarget = 'portal' | 'hub';

/** target must be portal or hub, else portal; loginMode login-to-hub maps to hub. */
export function parseTarget(target: unknown, loginMode?: unknown): SignInTarget {
  if (loginMode === 'login-to-hub') return 'hub';
  if (target === 'portal' || target === 'hub') return target;
  return DEFAULT_TARGET;
}

/** The `exp` claim of a JWT, read without verifying it (the server verifies). */
export function tokenExpiry(token: string | undefined | null): number | undefined {
  if (!token) return undefined;
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const json = JSON.parse(decodeBase64Url(part)) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp : undefined;
  } catch {
    return undefined;
  }
}

function decodeBase64Url(s: string): string {
  const b64 = s
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(s.length / 4) * 4, '=');
  return new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
}

/**
 * A token counts as expired `margin` seconds before its `exp`. Without a readable `exp` the
 * default lifetime counts from when it was stored (`storedAtS`).
 */
function expired(
  token: string | undefined | null,
  nowS: number,
  margin: number,
  defaultLifetime: number,
  storedAtS?: number,
) {
  if (!token) return true;
  const exp = tokenExpiry(token) ?? (storedAtS !== undefined ? storedAtS + defaultLifetime : undefined);
  if (exp === undefined) return true;
  return nowS >= exp - margin;
}

export function accessTokenExpired(token: string | undefined | null, nowS: number, storedAtS?: number): boolean {
  return expired(token, nowS, ACCESS_TOKEN_EXPIRY_MARGIN_S, DEFAULT_ACCESS_TOKEN_LIFETIME_S, storedAtS);
}

export function refreshTokenExpired(token: string | undefined | null, nowS: number, storedAtS?: number): boolean {
  return expired(token, nowS, REFRESH_TOKEN_EXPIRY_MARGIN_S, DEFAULT_REFRESH_TOKEN_LIFETIME_S, storedAtS);
}

/** Remaining days: (end - now) in seconds / 86400, rounded, never below 0. */
export function remainingDays(endS: number, nowS: number): number {
  return Math.max(0, Math.round((endS - nowS) / ONE_DAY_S));
}

/** Hub sign-in hands credentials only to a loopback http address (RFC 8252 §7.3). */
export function isLoopbackRedirect(url: string): boolean {
  try {
    const u = new URL(url);
    return (
      u.protocol === 'http:' &&
      (LOOPBACK_HOSTS as readonly string[]).includes(u.hostname) &&
      u.username === '' &&
      u.password === ''
    );
  } catch {
    return false;
  }
}

/** A portal redirect after sign-in must stay on this site (a path, not another origin). */
export function safePortalRedirect(redirect: string | undefined): string | undefined {
  if (!redirect) return undefined;
  if (!redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) return undefined;
  return redirect;
}
