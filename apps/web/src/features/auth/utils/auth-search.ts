import { DEFAULT_TARGET, Target } from '@portal/contract';
import { z } from 'zod';

/**
 * Search parameters of the auth pages (spec/000 §2). Every field falls back with `.catch`, so a bad
 * link still opens a working page; the login route then rewrites the address to the canonical one.
 */

export const authLayoutSearchSchema = z.object({
  target: Target.default(DEFAULT_TARGET).catch(DEFAULT_TARGET),
});

export const LOGIN_MODES = ['login-to-portal', 'login-to-hub'] as const;

/** target must be portal or hub, else portal; loginMode login-to-hub maps to hub. */
export function parseTarget(target: unknown, loginMode?: unknown): Target {
  if (loginMode === 'login-to-hub') return 'hub';
  if (target === 'portal' || target === 'hub') return target;
  return DEFAULT_TARGET;
}

const SAME_SITE_BASE = 'https://portal.invalid';

/**
 * A portal redirect after sign-in must stay on this site: a path, never another origin. Browsers'
 * URL parsers drop tabs and newlines and read `\\` as `/`, so `/\t/evil.example` and `/\\evil.example`
 * are scheme-relative addresses in disguise: any control character or backslash refuses the
 * redirect, and what is left must resolve to this site's own origin.
 */
export function safePortalRedirect(redirect: string | undefined): string | undefined {
  if (!redirect?.startsWith('/')) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(redirect) || redirect.startsWith('//')) return undefined;
  let url: URL;
  try {
    url = new URL(redirect, SAME_SITE_BASE);
  } catch {
    return undefined;
  }
  return url.origin === SAME_SITE_BASE ? redirect : undefined;
}

export const loginSearchSchema = z.object({
  target: Target.default(DEFAULT_TARGET).catch(DEFAULT_TARGET),
  loginMode: z.enum(LOGIN_MODES).optional().catch(undefined),
  redirect: z.string().min(1).max(2048).optional().catch(undefined),
  /** Hub target: base64url of the hub's one-time P-256 public JWK (JSON). */
  hub_key: z.string().min(1).max(4096).optional().catch(undefined),
  /** Opens the Forgot Password section; the "already registered" email links here with forgot=1. */
  forgot: z
    .union([z.boolean(), z.literal(1), z.literal('1')])
    .transform((v) => v === true || v === 1 || v === '1')
    .optional()
    .catch(undefined),
});
export type LoginSearch = z.output<typeof loginSearchSchema>;

/** The one address a set of login parameters should have: loginMode login-to-hub means target hub. */
export function canonicalLoginSearch(search: LoginSearch): LoginSearch {
  const canonical: LoginSearch = { target: parseTarget(search.target, search.loginMode) };
  if (search.loginMode) canonical.loginMode = search.loginMode;
  if (search.redirect) canonical.redirect = search.redirect;
  if (search.hub_key) canonical.hub_key = search.hub_key;
  if (search.forgot) canonical.forgot = true;
  return canonical;
}

/**
 * Whether the address as typed differs from its canonical form (an invalid or unknown parameter,
 * or a loginMode that changes the target), in which case the login route redirects to the canonical one.
 */
export function loginSearchNeedsRewrite(raw: Record<string, unknown>, canonical: LoginSearch): boolean {
  const keys = new Set([...Object.keys(raw), ...Object.keys(canonical)]);
  for (const key of keys) if (raw[key] !== (canonical as Record<string, unknown>)[key]) return true;
  return false;
}

export const COMPLETE_PARSE_ERROR = 'Failed to parse search params. Did you mean to navigate to this page?';

export const completeSearchStrict = z.object({
  success: z.boolean(),
  error_message: z.string().max(2000).optional(),
  redirect: z.string().max(2048).optional(),
});

/** /auth/complete: unparsable parameters show as a failure that says so (spec/000 §2). */
export const completeSearchSchema = completeSearchStrict.catch({ success: false, error_message: COMPLETE_PARSE_ERROR });
export type CompleteSearch = z.output<typeof completeSearchSchema>;
