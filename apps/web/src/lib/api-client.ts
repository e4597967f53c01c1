import { type Client, ClientError, createClient, refreshingTokens } from '@portal/client';
import { sessionStore } from './session';

/** The Web Lock every tab takes to refresh, so a rotated refresh token is never spent twice. */
const REFRESH_LOCK = 'portal-token-refresh';

function acrossTabs(): (<T>(run: () => Promise<T>) => Promise<T>) | undefined {
  if (typeof navigator === 'undefined' || !navigator.locks) return undefined;
  return <T>(run: () => Promise<T>) => navigator.locks.request(REFRESH_LOCK, run) as Promise<T>;
}

/**
 * The web app's action client: same origin, the session of this browser (lib/session.ts), one
 * refresh at a time across tabs. `fetch` is looked up at call time, so tests stub the global.
 */
export function createWebClient(): Client {
  const base = createClient({ baseUrl: '' });
  return base.withTokens(refreshingTokens({ client: base, store: sessionStore, exclusive: acrossTabs() }));
}

export const apiClient = createWebClient();

/**
 * A failed call as the spec names it ("Failed to fetch licenses", "Failed to check remaining
 * time"...), keeping its kind, status and code for the retry policy and the screens. A missing
 * session stays as it is: the user has to sign in again, whatever the call was.
 */
export function failedAs(err: unknown, message: string): ClientError {
  if (err instanceof ClientError) return err.kind === 'unauthenticated' ? err : err.withMessage(message);
  return new ClientError({ kind: 'server', status: 0, description: message });
}

/**
 * spec/000 §7: an error body with a Code becomes an error using its Description; a failure
 * without one (no error object) takes the call's own wording.
 */
export function describedOr(err: unknown, message: string): unknown {
  if (!(err instanceof ClientError) || err.code !== undefined) return err;
  if (err.kind === 'network' || err.kind === 'unauthenticated') return err;
  return err.withMessage(message);
}
