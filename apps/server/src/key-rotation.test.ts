import { createHmac } from 'node:crypto';
import { auth, ErrorCodes, time, useraction } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './db/client.ts';
import { keyId } from './lib/keys.ts';
import { freshDatabase, GOOD_PASSWORD, seedUser, type TestApp, testApp } from './test/harness.ts';

/**
 * Rotating JWT_SECRET (docs/decisions/058, docs/operations.md#rotating-keys-and-credentials): the
 * instance before the rotation, the one during it (the new secret, the old one as
 * JWT_SECRET_PREVIOUS) and the one after it (the new secret alone) share one database, as
 * instances restarted one by one do.
 */
const OLD = 'old-secret-Vq8Lr2Tk6Yw0Pn4Hx9Bz3Md7Gs1Cf5Ja';
const NEW = 'new-secret-Ke5Rm1Xq8Wt3Zp7Ld2Hv6Bn0Gc4Fs9Uy';

let database: Database;
let before: TestApp;
let during: TestApp;
let after: TestApp;
beforeAll(async () => {
  database = await freshDatabase();
  before = await testApp(database, { JWT_SECRET: OLD });
  during = await testApp(database, { JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD });
  after = await testApp(database, { JWT_SECRET: NEW });
});
afterAll(async () => {
  await Promise.all([before?.app.close(), during?.app.close(), after?.app.close()]);
  await database?.close();
});

type Pair = { access_token: string; refresh_token: string };
const kidOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString('utf8')).kid as unknown;
const signIn = async (on: TestApp, email: string): Promise<Pair> => {
  const res = await on.api.call(useraction, 'login', { user: { email, password: GOOD_PASSWORD } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token_pair as Pair;
};
const read = (on: TestApp, email: string, access: string) =>
  on.api.call(time, 'CHECK_REMAINING_TIME', { email }, { bearer: access });
const refresh = (on: TestApp, refresh_token: string) =>
  on.api.call(auth, 'refresh-access-token', { tokenPair: { refresh_token } });

describe('a JWT_SECRET rotation with JWT_SECRET_PREVIOUS signs nobody out', () => {
  it("the old key's access and refresh tokens verify and refresh into tokens of the new key", async () => {
    const user = await seedUser(before);
    const old = await signIn(before, user.email);
    expect([kidOf(old.access_token), kidOf(old.refresh_token)]).toEqual([keyId(OLD), keyId(OLD)]);

    expect((await read(during, user.email, old.access_token)).status).toBe(200);
    const renewed = await refresh(during, old.refresh_token);
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    const pair = renewed.body.tokenPair as Pair;
    expect([kidOf(pair.access_token), kidOf(pair.refresh_token)]).toEqual([keyId(NEW), keyId(NEW)]);

    // Once JWT_SECRET_PREVIOUS is gone, the renewed session goes on; only the old tokens stop.
    expect((await read(after, user.email, pair.access_token)).status).toBe(200);
    expect((await refresh(after, pair.refresh_token)).status).toBe(200);
  });

  it('without JWT_SECRET_PREVIOUS the old tokens are refused', async () => {
    const user = await seedUser(before);
    const old = await signIn(before, user.email);
    const refused = await read(after, user.email, old.access_token);
    expect(refused.status).toBe(401);
    expect(refused.body.error.Code).toBe(ErrorCodes.UNAUTHENTICATED.code);
    expect((await refresh(after, old.refresh_token)).status).toBe(401);
  });

  it('tokens of the new key verify on an instance not yet rotated that lists it as JWT_SECRET_PREVIOUS', async () => {
    // Several instances: first every one learns the new key (JWT_SECRET old, JWT_SECRET_PREVIOUS new),
    // then every one signs with it, so no instance meets a token it cannot verify.
    const learning = await testApp(database, { JWT_SECRET: OLD, JWT_SECRET_PREVIOUS: NEW });
    try {
      const user = await seedUser(after);
      const fresh = await signIn(after, user.email);
      expect((await read(learning, user.email, fresh.access_token)).status).toBe(200);
      expect((await read(before, user.email, fresh.access_token)).status).toBe(401);
    } finally {
      await learning.app.close();
    }
  });

  it('a CSRF token of the old key is taken while JWT_SECRET_PREVIOUS names it, and refused after', async () => {
    const user = await seedUser(before);
    const token = await before.api.csrf();
    const login = { action: 'login', user: { email: user.email, password: GOOD_PASSWORD } };
    expect((await during.api.post(useraction.path, login, { csrf: token })).status).toBe(200);
    const refused = await after.api.post(useraction.path, login, { csrf: token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.Code).toBe(ErrorCodes.CSRF.code);
  });

  it('a token whose kid names no configured key is refused, even signed with the current secret', async () => {
    const user = await seedUser(during);
    const [, payload] = (await signIn(during, user.email)).access_token.split('.') as [string, string];
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', kid: 'AAAAAAAA' })).toString('base64url');
    const signature = createHmac('sha256', NEW).update(`${header}.${payload}`).digest('base64url');
    expect((await read(during, user.email, `${header}.${payload}.${signature}`)).status).toBe(401);
  });
});
