/**
 * Hub sign-in hands credentials only to these hosts (RFC 8252 loopback redirect). IPv6 literals are
 * left out: a CSP form-action source cannot name them, so the handover could not post there.
 */
const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost'];

/** Hub sign-in hands credentials only to a loopback http address (RFC 8252 §7.3). */
export function isLoopbackRedirect(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' && LOOPBACK_HOSTS.includes(u.hostname) && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

/** Why a hub sign-in link cannot be used, in words for the person holding it; undefined when it can. */
export function hubLoginProblem(redirect: string | undefined, hubKey: string | undefined): string | undefined {
  if (!redirect) return 'This Hub sign-in link does not say where to return. Start the sign-in again from the Hub.';
  if (!isLoopbackRedirect(redirect))
    return 'Refused: the Hub sign-in only returns to an address on this computer (http://127.0.0.1 or http://localhost). This link did not come from your Hub; do not sign in with it.';
  if (decodeHubKey(hubKey) === undefined)
    return 'This Hub sign-in link is missing its key or the key is damaged. Start the sign-in again from the Hub.';
  return undefined;
}

/**
 * The hub's public key travels as base64url of its JWK JSON; the login call takes the JSON itself.
 * Only the shape is checked here: the server refuses anything but a P-256 public key.
 */
export function decodeHubKey(hubKey: string | undefined): string | undefined {
  if (!hubKey || !/^[A-Za-z0-9_-]+={0,2}$/.test(hubKey)) return undefined;
  try {
    const b64 = hubKey.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(b64.padEnd(Math.ceil(b64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
    const json = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    const jwk = JSON.parse(json) as unknown;
    if (!jwk || typeof jwk !== 'object' || Array.isArray(jwk) || typeof (jwk as { kty?: unknown }).kty !== 'string')
      return undefined;
    return json;
  } catch {
    return undefined;
  }
}
