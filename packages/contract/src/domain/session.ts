import { DEFAULT_TARGET, LOOPBACK_HOSTS, ONE_DAY_S } from '../constants.ts';

export type SignInTarget = 'portal' | 'hub';

/** target must be portal or hub, else portal; loginMode login-to-hub maps to hub. */
export function parseTarget(target: unknown, loginMode?: unknown): SignInTarget {
  if (loginMode === 'login-to-hub') return 'hub';
  if (target === 'portal' || target === 'hub') return target;
  return DEFAULT_TARGET;
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
