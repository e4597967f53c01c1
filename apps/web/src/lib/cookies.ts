/** Cookie text handling kept pure so it can be tested without a browser. */

export interface CookieOptions {
  path?: string;
  maxAgeSeconds?: number;
  sameSite?: 'Lax' | 'Strict' | 'None';
  secure?: boolean;
}

let prerenderCookies = '';

/**
 * The page's cookies: the browser's, or, when the build prerenders a page (docs/decisions/038), the
 * ones that page is prerendered for (the server picks the variant by the request's cookies).
 */
export function documentCookies(): string {
  return typeof document === 'undefined' ? prerenderCookies : document.cookie;
}

/** Sets the cookies `documentCookies()` answers outside a browser (the build's prerendering). */
export function renderingCookies(cookies: string): void {
  prerenderCookies = cookies;
}

/** The value of cookie `name` in a `document.cookie` string, or null when it is absent. */
export function readCookie(cookieString: string, name: string): string | null {
  for (const part of cookieString.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      // A cookie written by something else may hold a stray '%'; its raw text is still useful.
      return raw;
    }
  }
  return null;
}

/** A string to assign to `document.cookie`. */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  const parts = [`${name}=${encodeURIComponent(value)}`];
  if (options.path) parts.push(`path=${options.path}`);
  if (options.maxAgeSeconds !== undefined) parts.push(`max-age=${Math.floor(options.maxAgeSeconds)}`);
  if (options.sameSite) parts.push(`SameSite=${options.sameSite}`);
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
