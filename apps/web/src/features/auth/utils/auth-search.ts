import { DEFAULT_TARGET, type Target } from '@portal/contract';
import { defined, oneOf, searchParser, text } from '@/lib/search-params';

/**
 * Search parameters of the auth pages (spec/000 §2). Every field falls back to its default (or is
 * dropped), so a bad link still opens a working page; the login route then rewrites the address to
 * the canonical one. Plain functions, not zod: these run in the entry of every page, and the
 * sign-in page loads no schema library (docs/decisions/025).
 */

type Raw = Record<string, unknown>;

export const authLayoutSearchSchema = searchParser((raw): { target: Target } => ({ target: parseTarget(raw.target) }));

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

export type LoginSearch = {
  target: Target;
  loginMode?: (typeof LOGIN_MODES)[number];
  redirect?: string;
  /** Hub target: base64url of the hub's one-time P-256 public JWK (JSON). */
  hub_key?: string;
  /** Opens the Forgot Password section; the "already registered" email links here with forgot=1. */
  forgot?: boolean;
};

export const loginSearchSchema = searchParser((raw): LoginSearch => {
  const { forgot } = raw;
  return defined({
    target: parseTarget(raw.target),
    loginMode: oneOf(LOGIN_MODES, raw.loginMode),
    redirect: text(raw.redirect, { min: 1, max: 2048 }),
    hub_key: text(raw.hub_key, { min: 1, max: 4096 }),
    forgot: forgot === false ? false : forgot === true || forgot === 1 || forgot === '1' ? true : undefined,
  });
});

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

export type CompleteSearch = {
  success: boolean;
  error_message?: string;
  redirect?: string;
};

function optionalString(value: unknown, max: number): boolean {
  return value === undefined || (typeof value === 'string' && value.length <= max);
}

/** The /auth/complete parameters exactly as given: success a boolean, the rest short strings when present. */
export const completeSearchStrict = {
  safeParse: (raw: Raw): { success: true; data: CompleteSearch } | { success: false } =>
    typeof raw.success === 'boolean' && optionalString(raw.error_message, 2000) && optionalString(raw.redirect, 2048)
      ? {
          success: true,
          data: defined({
            success: raw.success,
            error_message: raw.error_message as string | undefined,
            redirect: raw.redirect as string | undefined,
          }),
        }
      : { success: false },
};

/** /auth/complete: unparsable parameters show as a failure that says so (spec/000 §2). */
export const completeSearchSchema = searchParser((raw): CompleteSearch => {
  const parsed = completeSearchStrict.safeParse(raw);
  return parsed.success ? parsed.data : { success: false, error_message: COMPLETE_PARSE_ERROR };
});
