import type { StoredTokens, TokenStore } from '@portal/client';
import type { PublicUser, TokenPair } from '@portal/contract';

/**
 * The web app's side of a session (spec/000 §4): tokens in local storage (or session storage when
 * the user did not ask to be remembered), shared with the other tabs over a BroadcastChannel.
 * No calls are made here: the action client (lib/api-client.ts) refreshes through `sessionStore`.
 */

const KEYS = { access: 'access_token', refresh: 'refresh_token', email: 'user_email', userId: 'user_id' } as const;
const CHANNEL = 'portal-session';

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
export function endSessionEverywhere(): void {
  clearStoredSession();
  const event: SessionEvent = { type: 'logout' };
  for (const l of listeners) l(event);
  broadcast(event);
}

/**
 * The token store the action client refreshes through. A session without the user's email is
 * unusable (calls name the user beside the token), so it reads as signed out. A rotated pair is
 * told to the other tabs; a refused refresh ends the session in every tab (spec/000 §4).
 */
export const sessionStore: TokenStore = {
  read(): StoredTokens | undefined {
    const { accessToken, refreshToken, email } = readSession();
    if (!email || (!accessToken && !refreshToken)) return undefined;
    return { access_token: accessToken, refresh_token: refreshToken };
  },
  write(pair) {
    storeTokens(pair);
    broadcast({ type: 'refresh', pair });
  },
  end: endSessionEverywhere,
};
