import {
  ACCESS_TOKEN_EXPIRY_MARGIN_S,
  auth,
  DEFAULT_ACCESS_TOKEN_LIFETIME_S,
  DEFAULT_REFRESH_TOKEN_LIFETIME_S,
  REFRESH_TOKEN_EXPIRY_MARGIN_S,
  type TokenPair,
} from '@portal/contract';
import type { Client, Tokens } from './client.ts';
import { ClientError, MISSING_AUTH, NO_ACCESS_TOKEN, NO_ACCESS_TOKEN_IN_RESPONSE } from './client-error.ts';

/**
 * The claims of a compact JWS (header.payload.signature), read without verifying anything: the
 * server verifies. A few lines instead of jose's decodeJwt, which cost the browser ~1 KB gzip on
 * every signed-in page (issue 13); tokens.test.ts checks it reads as jose does.
 */
function jwtClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  const base64 = parts[1].replaceAll('-', '+').replaceAll('_', '/');
  if (!/^[A-Za-z0-9+/]+$/.test(base64) || base64.length % 4 === 1) return undefined;
  const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
  const claims: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  return claims !== null && typeof claims === 'object' && !Array.isArray(claims)
    ? (claims as Record<string, unknown>)
    : undefined;
}

/** The `exp` claim of a JWT, read without verifying it (the server verifies). */
export function tokenExpiry(token: string | undefined | null): number | undefined {
  if (!token) return undefined;
  try {
    const exp = jwtClaims(token)?.exp;
    return typeof exp === 'number' ? exp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A token counts as expired `margin` seconds before its `exp` (spec/000 §4). Without a readable
 * `exp`, the default lifetime counts from when it was received (`receivedAtS`).
 */
function expired(
  token: string | undefined | null,
  nowS: number,
  margin: number,
  lifetime: number,
  receivedAtS?: number,
) {
  if (!token) return true;
  const exp = tokenExpiry(token) ?? (receivedAtS !== undefined ? receivedAtS + lifetime : undefined);
  if (exp === undefined) return true;
  return nowS >= exp - margin;
}

export function accessTokenExpired(token: string | undefined | null, nowS: number, receivedAtS?: number): boolean {
  return expired(token, nowS, ACCESS_TOKEN_EXPIRY_MARGIN_S, DEFAULT_ACCESS_TOKEN_LIFETIME_S, receivedAtS);
}

export function refreshTokenExpired(token: string | undefined | null, nowS: number, receivedAtS?: number): boolean {
  return expired(token, nowS, REFRESH_TOKEN_EXPIRY_MARGIN_S, DEFAULT_REFRESH_TOKEN_LIFETIME_S, receivedAtS);
}

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
