import {
  accessTokenExpired,
  auth as authService,
  type PublicUser,
  refreshTokenExpired,
  type TokenPair,
  tokenPair as tokenPairSchema,
} from '@portal/contract';

/**
 * The client side of a session (spec/000 §4): tokens in local storage (or session storage when the
 * user did not ask to be remembered), shared with the other tabs over a BroadcastChannel, and one
 * refresh at a time across every tab (Web Locks), so a rotated refresh token is never replayed.
 */

const KEYS = { access: 'access_token', refresh: 'refresh_token', email: 'user_email', userId: 'user_id' } as const;
const CHANNEL = 'portal-session';
const REFRESH_LOCK = 'portal-token-refresh';

export interface StoredSession {
  accessToken: string | null;
  refreshToken: string | null;
  email: string | null;
  userId: string | null;
}

export type SessionEvent =
  | { type: 'login'; pair: TokenPair; user: PublicUser; remember: boolean }
  | { type: 'logout' }
  | { type: 'refresh'; pair: TokenPair }
  | { type: 'login-error'; title: string; message: string };

type Listener = (event: SessionEvent) => void;

function stores(): Storage[] {
  return [localStorage, sessionStorage];
}

/** Where the tokens live: session storage when the user chose not to be remembered. */
function activeStore(): Storage {
  return sessionStorage.getItem(KEYS.refresh) ? sessionStorage : localStorage;
}

export function readSession(): StoredSession {
  const s = activeStore();
  return {
    accessToken: s.getItem(KEYS.access),
    refreshToken: s.getItem(KEYS.refresh),
    email: s.getItem(KEYS.email),
    userId: s.getItem(KEYS.userId),
  };
}

export function storeSession(pair: TokenPair, user: Pick<PublicUser, 'email' | 'user_id'>, remember: boolean): void {
  clearStoredSession();
  const s = remember ? localStorage : sessionStorage;
  s.setItem(KEYS.access, pair.access_token);
  s.setItem(KEYS.refresh, pair.refresh_token);
  s.setItem(KEYS.email, user.email);
  s.setItem(KEYS.userId, user.user_id);
}

function storeTokens(pair: TokenPair): void {
  const s = activeStore();
  s.setItem(KEYS.access, pair.access_token);
  s.setItem(KEYS.refresh, pair.refresh_token);
}

export function isRemembered(): boolean {
  return activeStore() === localStorage;
}

export function clearStoredSession(): void {
  for (const s of stores()) for (const key of Object.values(KEYS)) s.removeItem(key);
}

// ---- cross-tab messages ----

const listeners = new Set<Listener>();
let channel: BroadcastChannel | undefined;

function getChannel(): BroadcastChannel | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined;
  if (!channel) {
    channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (e: MessageEvent<SessionEvent>) => {
      const event = e.data;
      // Another tab's refresh: keep the same tokens here, so this tab never replays a rotated one.
      if (event.type === 'refresh' && readSession().refreshToken) storeTokens(event.pair);
      for (const l of listeners) l(event);
    };
  }
  return channel;
}

export function onSessionEvent(listener: Listener): () => void {
  getChannel();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function broadcast(event: SessionEvent): void {
  getChannel()?.postMessage(event);
}

/** Forgets the session, tells this tab's listeners (a channel does not echo) and the other tabs. */
function endSessionEverywhere(): void {
  clearStoredSession();
  const event: SessionEvent = { type: 'logout' };
  for (const l of listeners) l(event);
  broadcast(event);
}

// ---- access tokens and refresh ----

export class SessionError extends Error {
  constructor(
    message: string,
    readonly kind: 'missing' | 'network' | 'rejected',
  ) {
    super(message);
    this.name = 'SessionError';
  }
}

const nowS = () => Math.floor(Date.now() / 1000);
let inFlight: Promise<string> | undefined;

/** Posts the refresh call itself; api-client builds on this module, so it cannot be used here. */
async function postRefresh(refreshToken: string): Promise<TokenPair> {
  let res: Response;
  try {
    const csrf = (await fetch('/api/useraction', { credentials: 'same-origin' })).headers.get('x-csrf-token') ?? '';
    res = await fetch(authService.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify({ action: 'refresh-access-token', tokenPair: { refresh_token: refreshToken } }),
    });
  } catch {
    throw new SessionError('No response received from server', 'network');
  }
  const body = (await res.json().catch(() => undefined)) as
    | { tokenPair?: unknown; error?: { Description?: string } }
    | undefined;
  if (!body) throw new SessionError('No response received from server', 'network');
  if (!res.ok)
    throw new SessionError(body.error?.Description || 'Authentication failed - invalid or expired token', 'rejected');
  const pair = tokenPairSchema.safeParse(body.tokenPair);
  if (!pair.success || !pair.data.access_token) throw new SessionError('No access token in response', 'rejected');
  return pair.data;
}

/**
 * Refreshes the token pair. Concurrent callers in this tab share one request; other tabs wait on
 * the same lock and then find the fresh tokens in storage instead of spending the refresh token again.
 */
export function refreshSession(force = false): Promise<string> {
  inFlight ??= (async () => {
    const run = async () => {
      const current = readSession();
      if (!current.refreshToken) throw new SessionError('No refresh token provided', 'missing');
      if (!force && current.accessToken && !accessTokenExpired(current.accessToken, nowS())) return current.accessToken;
      if (refreshTokenExpired(current.refreshToken, nowS()))
        throw new SessionError('No refresh token provided', 'missing');
      let pair: TokenPair;
      try {
        pair = await postRefresh(current.refreshToken);
      } catch (err) {
        // A refused refresh ends the session here and in every tab (spec/000 §4: failed refresh).
        if (err instanceof SessionError && err.kind === 'rejected') endSessionEverywhere();
        throw err;
      }
      storeTokens(pair);
      broadcast({ type: 'refresh', pair });
      return pair.access_token;
    };
    const tokenBefore = readSession().accessToken;
    if (typeof navigator !== 'undefined' && navigator.locks) {
      return navigator.locks.request(REFRESH_LOCK, async () => {
        // A forced refresh that another tab already did while we waited is done.
        const after = readSession().accessToken;
        if (force && after && after !== tokenBefore && !accessTokenExpired(after, nowS())) return after;
        return run();
      });
    }
    return run();
  })().finally(() => {
    inFlight = undefined;
  });
  return inFlight;
}

/** A usable access token, refreshed first when it is within 30 s of expiry. */
export async function validAccessToken(): Promise<string> {
  const { accessToken, refreshToken, email } = readSession();
  if (!accessToken && !refreshToken) throw new SessionError('Missing required authentication', 'missing');
  // Calls name the user's email beside the token; a session without it is unusable.
  if (!email) throw new SessionError('Missing required authentication data', 'missing');
  if (accessToken && !accessTokenExpired(accessToken, nowS())) return accessToken;
  const fresh = await refreshSession();
  if (!fresh) throw new SessionError('No access token found', 'missing');
  return fresh;
}
