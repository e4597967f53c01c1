import { auth, type TokenPair } from '@portal/contract';
import type { Client, Tokens } from './client.ts';
import { ClientError, MISSING_AUTH, NO_ACCESS_TOKEN, NO_ACCESS_TOKEN_IN_RESPONSE } from './client-error.ts';
import { accessTokenExpired, refreshTokenExpired } from './jwt.ts';

export { accessTokenExpired, refreshTokenExpired, tokenExpiry } from './jwt.ts';

export interface StoredTokens {
  access_token?: string | null | undefined;
  refresh_token?: string | null | undefined;
  /** epoch seconds the pair was received; the expiry fallback when a token has no `exp` */
  received_at?: number | undefined;
}

/** Where a session keeps its token pair. */
export interface TokenStore {
  /** The stored pair; undefined (or no refresh token) when signed out. */
  read(): StoredTokens | undefined | Promise<StoredTokens | undefined>;
  /** Keeps a rotated pair (the old refresh token is dead once rotated). */
  write(pair: TokenPair): void | Promise<void>;
  /** The server refused the refresh token: the session is over. */
  end(): void | Promise<void>;
}

export interface RefreshingTokensOptions {
  /** makes the refresh call; needs no session of its own */
  client: Client;
  store: TokenStore;
  nowMs?: () => number;
  /**
   * Runs the refresh exclusively across every holder of the same store (the web app: a Web Lock
   * shared by its tabs), so a rotated refresh token is never spent twice.
   */
  exclusive?: <T>(run: () => Promise<T>) => Promise<T>;
}

const missing = (description = MISSING_AUTH) => new ClientError({ kind: 'unauthenticated', status: 0, description });

/**
 * Tokens that renew themselves: an access token near expiry (or refused by the server) is traded
 * for a new pair with refresh-access-token. Concurrent callers share one refresh; a refusal ends
 * the session in the store; a refresh that never got an answer keeps it.
 */
export function refreshingTokens({ client, store, nowMs = Date.now, exclusive }: RefreshingTokensOptions): Tokens & {
  /** Trades the refresh token now, whatever the access token's expiry. */
  refreshNow(): Promise<string>;
} {
  const nowS = () => Math.floor(nowMs() / 1000);
  let inFlight: Promise<string> | undefined;

  const rotate = (rejected: string | undefined): Promise<string> => {
    inFlight ??= (async () => {
      const run = async () => {
        const current = await store.read();
        if (!current?.refresh_token) throw missing('No refresh token provided');
        // Another holder (a tab) renewed the pair while this one waited: use theirs.
        const stored = current.access_token;
        if (stored && stored !== rejected && !accessTokenExpired(stored, nowS(), current.received_at)) return stored;
        if (refreshTokenExpired(current.refresh_token, nowS(), current.received_at))
          throw missing('No refresh token provided');
        let pair: TokenPair;
        try {
          ({ tokenPair: pair } = await client.call(auth, 'refresh-access-token', {
            tokenPair: { refresh_token: current.refresh_token },
          }));
        } catch (err) {
          if (err instanceof ClientError && (err.kind === 'network' || err.kind === 'server')) throw err;
          await store.end();
          // An answer without a token pair ends the session as a refusal does.
          throw missing(
            err instanceof ClientError && err.kind === 'invalid_response' ? NO_ACCESS_TOKEN_IN_RESPONSE : MISSING_AUTH,
          );
        }
        await store.write(pair);
        return pair.access_token;
      };
      return exclusive ? exclusive(run) : run();
    })().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };

  return {
    async access() {
      const current = await store.read();
      if (!current?.access_token && !current?.refresh_token) throw missing(NO_ACCESS_TOKEN);
      if (current.access_token && !accessTokenExpired(current.access_token, nowS(), current.received_at))
        return current.access_token;
      return rotate(current.access_token ?? undefined);
    },
    refresh: (rejected) => rotate(rejected),
    refreshNow: () => rotate(undefined),
  };
}
