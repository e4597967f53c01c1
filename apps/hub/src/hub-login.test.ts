import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CredentialsStore } from './hub-credentials.ts';
import { completeUrl, type HubLogin, HubLoginError, startHubLogin } from './hub-login.ts';
import { encryptForHub, hubKeyFromUrl, postForm, sampleCredentials } from './hub-test-helpers.ts';

const PORTAL = 'http://portal.test:3000';
const { user, token_pair } = sampleCredentials();

let dir: string;
let store: CredentialsStore;
const started: HubLogin[] = [];
const rejected: string[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hub-login-'));
  store = new CredentialsStore(dir);
  rejected.length = 0;
});
afterEach(async () => {
  for (const login of started.splice(0)) login.cancel();
  await rm(dir, { recursive: true, force: true });
});

async function start(options: { timeoutMs?: number; portal?: string } = {}) {
  const login = await startHubLogin({
    portal: options.portal ?? PORTAL,
    store,
    timeoutMs: options.timeoutMs,
    onRejected: (reason) => rejected.push(reason),
    nowMs: () => 1_700_000_000_500,
  });
  started.push(login);
  return login;
}

/** What the portal's browser page does once the login action answered enc_creds. */
async function handOver(login: HubLogin, payload: unknown = { user, token_pair }) {
  const encCreds = await encryptForHub(hubKeyFromUrl(login.url), payload);
  return postForm(login.callbackUrl, { enc_creds: encCreds });
}

describe('the sign-in URL', () => {
  it('names the hub target, the loopback callback and a public P-256 key', async () => {
    const login = await start({ portal: `${PORTAL}/` });
    const url = new URL(login.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${PORTAL}/auth/login`);
    expect(url.searchParams.get('target')).toBe('hub');
    expect(login.callbackUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(url.searchParams.get('redirect')).toBe(login.callbackUrl);
    // The exact encoding matters to the portal's parser: redirect percent-encoded, key base64url.
    expect(login.url).toContain(`redirect=${encodeURIComponent(login.callbackUrl)}&hub_key=`);
    const jwk = hubKeyFromUrl(login.url);
    expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
    expect(jwk).not.toHaveProperty('d');
  });

  it('uses a new key pair and port for every sign-in', async () => {
    const [a, b] = [await start(), await start()];
    expect(hubKeyFromUrl(a.url)).not.toEqual(hubKeyFromUrl(b.url));
    expect(a.callbackUrl).not.toBe(b.callbackUrl);
  });
});

describe('the callback', () => {
  it('decrypts the credentials, stores them and sends the browser to /auth/complete', async () => {
    const login = await start();
    const res = await handOver(login);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${PORTAL}/auth/complete?success=true`);

    const credentials = await login.done;
    const expected = { user, token_pair, portal: PORTAL, received_at: 1_700_000_000 };
    expect(credentials).toEqual(expected);
    expect(await store.load()).toEqual(expected);
    if (process.platform !== 'win32') expect((await stat(store.file)).mode & 0o777).toBe(0o600);
  });

  it('stops listening once signed in', async () => {
    const login = await start();
    await handOver(login);
    await login.done;
    await expect(handOver(login)).rejects.toThrow();
  });

  it('refuses garbage with a failure redirect and keeps waiting for the real hand-over', async () => {
    const login = await start();
    const res = await postForm(login.callbackUrl, { enc_creds: 'not-a-jwe' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(`${PORTAL}/auth/complete`);
    expect(location.searchParams.get('success')).toBe('false');
    expect(location.searchParams.get('error_message')).toBe('The hub could not decrypt the sign-in credentials.');
    expect(rejected).toHaveLength(1);
    expect(await store.load()).toBeUndefined();

    // A stray post (any local page can make one) must not cancel the user's sign-in.
    expect((await handOver(login)).headers.get('location')).toBe(`${PORTAL}/auth/complete?success=true`);
    expect((await login.done).user.email).toBe(user.email);
  });

  it.each([
    ['no enc_creds', () => ({ other: 'x' }), 'The sign-in hand-over carried no credentials.'],
    [
      'an incomplete payload',
      async (l: HubLogin) => ({ enc_creds: await encryptJust(l, { user }) }),
      'The sign-in credentials were incomplete.',
    ],
    [
      'a JWE for another key',
      async () => ({ enc_creds: await encryptForOtherKey() }),
      'The hub could not decrypt the sign-in credentials.',
    ],
  ])('refuses %s', async (_label, fields, message) => {
    const login = await start();
    const res = await postForm(login.callbackUrl, await fields(login));
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get('location') ?? '').searchParams.get('error_message')).toBe(message);
    expect(await store.load()).toBeUndefined();
  });

  it('refuses a body that is not a form', async () => {
    const login = await start();
    const res = await fetch(login.callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ enc_creds: 'x' }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(
      completeUrl(PORTAL, { success: false, message: 'The sign-in hand-over was not a form post.' }),
    );
  });

  it('refuses an oversized body', async () => {
    const login = await start();
    const res = await postForm(login.callbackUrl, { enc_creds: 'x'.repeat(100_000) });
    expect(new URL(res.headers.get('location') ?? '').searchParams.get('error_message')).toBe(
      'The sign-in hand-over was too large.',
    );
  });

  it('refuses a GET and answers nothing on other paths', async () => {
    const login = await start();
    const get = await fetch(login.callbackUrl, { redirect: 'manual' });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const elsewhere = await fetch(login.callbackUrl.replace('/callback', '/other'), { method: 'POST' });
    expect(elsewhere.status).toBe(404);
    expect(await store.load()).toBeUndefined();
  });
});

describe('ending without credentials', () => {
  it('times out', async () => {
    const login = await start({ timeoutMs: 50 });
    await expect(login.done).rejects.toBeInstanceOf(HubLoginError);
    await expect(handOver(login)).rejects.toThrow();
  });

  it('can be cancelled', async () => {
    const login = await start();
    login.cancel('stop');
    await expect(login.done).rejects.toThrow('stop');
  });
});

async function encryptJust(login: HubLogin, payload: unknown) {
  return encryptForHub(hubKeyFromUrl(login.url), payload);
}

async function encryptForOtherKey() {
  const { publicKey } = await generateKeyPair('ECDH-ES+A256KW', { crv: 'P-256' });
  return encryptForHub(await exportJWK(publicKey), { user, token_pair });
}
