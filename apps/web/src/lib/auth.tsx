import { ClientError, NO_RESPONSE } from '@portal/client';
import { LOGOUT_WAIT_CAP_MS, type PublicUser, type TokenPair } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import * as React from 'react';
import { LOGOUT_BROADCAST_REPEATS_MS, LOGOUT_TOAST_MS, TOKEN_STORE_PAUSE_MS } from '@/config/constants';
import { toast } from '@/lib/toast';
import {
  broadcast,
  clearStoredSession,
  isRemembered,
  onSessionEvent,
  readSession,
  type SessionEvent,
  storeSession,
} from './session';

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

/** What the router context carries about the session. */
export interface AuthSnapshot {
  status: AuthStatus;
  user: PublicUser | null;
}

export interface Auth extends AuthSnapshot {
  /** Stores a fresh session (after sign-in), tells the other tabs and sets the user. */
  signIn(pair: TokenPair, user: PublicUser, remember: boolean): Promise<void>;
  /** Replaces the user after a profile change. */
  setUser(user: PublicUser): void;
  /** spec/000 §4 Logout: broadcast, revoke (at most 5 s), toast, clear, go to sign-in. */
  logout(): Promise<void>;
  /** Forgets the session without calling the server (a failed sign-in, a deleted account). */
  clear(): void;
}

const AuthContext = React.createContext<Auth | null>(null);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The session's own calls, loaded on first use (lib/session-calls.ts). A module that could not be
 * fetched is a network failure like any other: it keeps the stored session for the next load.
 */
const sessionCalls = () =>
  import('./session-calls').catch(() => {
    throw new ClientError({ kind: 'network', status: 0, description: NO_RESPONSE });
  });

export function AuthProvider({
  children,
  onSignedOut,
  onChange,
}: {
  children: React.ReactNode;
  /** where to go after a logout (the router's sign-in page) */
  onSignedOut: () => void;
  /** the session went from `previous` to `next` (the router re-checks its guards) */
  onChange: (previous: AuthSnapshot, next: AuthSnapshot) => void;
}) {
  const queryClient = useQueryClient();
  // Without a stored session there is nothing to check: the app starts signed out at once, as the
  // build prerendered the public pages (docs/decisions/038), and no loading screen shows.
  const [snapshot, setSnapshot] = React.useState<AuthSnapshot>(() =>
    typeof window !== 'undefined' && readSession().refreshToken
      ? { status: 'loading', user: null }
      : { status: 'unauthenticated', user: null },
  );

  const clear = React.useCallback(() => {
    clearStoredSession();
    queryClient.clear();
    setSnapshot({ status: 'unauthenticated', user: null });
  }, [queryClient]);

  // Start-up: fetch the current user with the stored refresh token (spec/000 §4 Session).
  React.useEffect(() => {
    let cancelled = false;
    const { refreshToken } = readSession();
    if (!refreshToken) return;
    sessionCalls()
      .then(({ fetchSelf }) => fetchSelf(refreshToken))
      .then((res) => {
        if (cancelled) return;
        // An unverified email cannot hold a session (spec/000 §4 Session).
        if (!res.user.email_validated) {
          clearStoredSession();
          setSnapshot({ status: 'unauthenticated', user: null });
          return;
        }
        storeSession(res.token_pair, res.user, isRemembered());
        broadcast({ type: 'refresh', pair: res.token_pair });
        setSnapshot({ status: 'authenticated', user: res.user });
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        // Only an answer read whole ends the stored session; a request without one (the page was
        // left before or during the answer, the network dropped: `network` in packages/client)
        // keeps it for the next load.
        if (!(err instanceof ClientError && err.kind === 'network')) clearStoredSession();
        setSnapshot({ status: 'unauthenticated', user: null });
      });
    return () => {
      cancelled = true;
    };
  }, []);

  // Other tabs' logins and logouts.
  React.useEffect(
    () =>
      onSessionEvent((event: SessionEvent) => {
        if (event.type === 'login') {
          storeSession(event.pair, event.user, event.remember);
          setSnapshot({ status: 'authenticated', user: event.user });
        } else if (event.type === 'logout') {
          clearStoredSession();
          queryClient.clear();
          setSnapshot((s) => (s.status === 'unauthenticated' ? s : { status: 'unauthenticated', user: null }));
        } else if (event.type === 'login-error') {
          toast.error(event.title, { description: event.message });
        }
      }),
    [queryClient],
  );

  // The router re-checks its guards whenever the session changes (not on the first render).
  const seen = React.useRef(snapshot);
  React.useEffect(() => {
    if (seen.current === snapshot) return;
    const previous = seen.current;
    seen.current = snapshot;
    onChange(previous, snapshot);
  }, [snapshot, onChange]);

  const signIn = React.useCallback(async (pair: TokenPair, user: PublicUser, remember: boolean) => {
    storeSession(pair, user, remember);
    await sleep(TOKEN_STORE_PAUSE_MS);
    broadcast({ type: 'login', pair, user, remember });
    setSnapshot({ status: 'authenticated', user });
  }, []);

  const logout = React.useCallback(async () => {
    const { accessToken, refreshToken, email } = readSession();
    // Tabs may miss one message while busy, so it is repeated.
    broadcast({ type: 'logout' });
    for (const ms of LOGOUT_BROADCAST_REPEATS_MS) setTimeout(() => broadcast({ type: 'logout' }), ms);
    if (refreshToken) {
      const revoke = sessionCalls().then(({ revokeSession }) => revokeSession(refreshToken, accessToken, email));
      await Promise.race([revoke.catch(() => undefined), sleep(LOGOUT_WAIT_CAP_MS)]);
    }
    toast.success('Logged Out', { duration: LOGOUT_TOAST_MS });
    clear();
    onSignedOut();
  }, [clear, onSignedOut]);

  const setUser = React.useCallback((user: PublicUser) => setSnapshot({ status: 'authenticated', user }), []);

  const value = React.useMemo<Auth>(
    () => ({ ...snapshot, signIn, setUser, logout, clear }),
    [snapshot, signIn, setUser, logout, clear],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const ctx = React.useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside AuthProvider');
  return ctx;
}
