import { CompactEncrypt, importJWK, type JWK } from 'jose';
import type { Credentials, HubCredentialsPayload } from './hub-credentials.ts';

/** Shared by the hub's tests: what the portal would send, and how a browser would post it. */

export function sampleCredentials(overrides: Partial<Credentials> = {}): Credentials {
  return {
    user: { user_id: 'u-1', email: 'ada@example.test', name: 'Ada' },
    token_pair: {
      access_token: 'access.jwt.value',
      refresh_token: 'refresh.jwt.value',
      access_token_expires_in: 900,
      refresh_token_expires_in: 604_800,
    },
    portal: 'http://localhost:3000',
    received_at: 1_700_000_000,
    ...overrides,
  };
}

/** The hub's public key as the portal reads it from the sign-in URL (`hub_key`, base64url JSON). */
export function hubKeyFromUrl(url: string): JWK {
  const hubKey = new URL(url).searchParams.get('hub_key');
  if (!hubKey) throw new Error(`no hub_key in ${url}`);
  return JSON.parse(Buffer.from(hubKey, 'base64url').toString('utf8')) as JWK;
}

/** What the portal's login action does for the hub target (ADR 005). */
export async function encryptForHub(jwk: JWK, payload: HubCredentialsPayload | unknown): Promise<string> {
  const key = await importJWK(jwk, 'ECDH-ES+A256KW');
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ECDH-ES+A256KW', enc: 'A256GCM' })
    .encrypt(key);
}

/** The browser's top-level form POST to the loopback callback; redirects are not followed. */
export function postForm(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}
