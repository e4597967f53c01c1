import { generateKeyPairSync } from 'node:crypto';
import { auth, ONE_DAY_MS, type SignInSession, security, useraction } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { compactDecrypt, importJWK, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import { nextIp, useTestApp } from '../../test/fixtures.ts';
import { type Answer, GOOD_PASSWORD, seedUser } from '../../test/harness.ts';
import { SoftwareAuthenticator } from '../../test/software-authenticator.ts';

/**
 * The account security centre over HTTP (issue 15 part 3, docs/decisions/032 and 033): sessions
 * listed and signed out, passkeys added, used and refused, and the security emails. One app and
 * database for the file; every test seeds its own users.
 */

const t = useTestApp({ WEBAUTHN_CHALLENGE_TTL_S: '60' });

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

interface Pair {
  access_token: string;
  refresh_token: string;
}

async function login(email: string, opts: { ua?: string; ip?: string; body?: Record<string, unknown> } = {}) {
  const res = await t.api.post(
    '/api/useraction',
    { action: 'login', user: { email, password: GOOD_PASSWORD }, ...opts.body },
    { headers: { 'user-agent': opts.ua ?? FIREFOX_WINDOWS }, ip: opts.ip ?? nextIp() },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token_pair as Pair;
}

const call = (action: keyof (typeof security)['actions'] & string, access: string, body = {}) =>
  t.api.call(security, action, body, { bearer: access });
const refresh = (pair: Pair, ip?: string) =>
  t.api.call(auth, 'refresh-access-token', { tokenPair: { refresh_token: pair.refresh_token } }, ip ? { ip } : {});
const sessionsOf = async (access: string) => {
  const res = await call('ListSessions', access);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.sessions as SignInSession[];
};
const profile = (access: string, email: string) =>
  t.api.call(useraction, 'UserUpdate', {
    token: access,
    user: { email, name: 'Still Here', year_born: -1, country: 'France', company: '' },
  });

function hubKeyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    publicJwk: JSON.stringify(publicKey.export({ format: 'jwk' })),
    privateJwk: privateKey.export({ format: 'jwk' }),
  };
}

describe('where you are signed in', () => {
  it('lists every live session with its browser, system, address and times, the caller marked current', async () => {
    const user = await seedUser(t);
    const first = await login(user.email, { ua: FIREFOX_WINDOWS, ip: '203.0.113.5' });
    t.clock.advance(60_000);
    const second = await login(user.email, { ua: CHROME_MAC, ip: '198.51.100.7' });
    const hub = hubKeyPair();
    await login(user.email, {
      ua: SAFARI_IPHONE,
      ip: '192.0.2.9',
      body: { target: 'hub', hub_public_key: hub.publicJwk },
    });
    const ended = await login(user.email);
    await t.api.call(auth, 'revoke-token-pair', { tokenPair: { refresh_token: ended.refresh_token } });

    const list = await sessionsOf(second.access_token);
    expect(
      list.map(({ browser, os, address, target, current }) => ({ browser, os, address, target, current })),
    ).toEqual([
      { browser: 'Chrome', os: 'macOS', address: '198.51.100.7', target: 'portal', current: true },
      { browser: 'Safari', os: 'iOS', address: '192.0.2.9', target: 'hub', current: false },
      { browser: 'Firefox', os: 'Windows', address: '203.0.113.5', target: 'portal', current: false },
    ]);
    const firefox = list[2] as SignInSession;
    expect(Date.parse(firefox.started_at)).toBeLessThan(Date.parse((list[0] as SignInSession).started_at));
    expect(firefox.last_used_at).toBe(firefox.started_at);
    // Another caller sees the same list with its own session current.
    expect((await sessionsOf(first.access_token)).filter((s) => s.current).map((s) => s.browser)).toEqual(['Firefox']);
  });

  it('moves "last used" and the address with a refresh, not with every call', async () => {
    const user = await seedUser(t);
    const pair = await login(user.email, { ip: '203.0.113.20' });
    const [before] = await sessionsOf(pair.access_token);
    t.clock.advance(120_000);
    expect((await profile(pair.access_token, user.email)).status).toBe(200);
    const [afterCall] = await sessionsOf(pair.access_token);
    expect(afterCall?.last_used_at).toBe(before?.last_used_at);

    const renewed = await refresh(pair, '203.0.113.21');
    expect(renewed.status).toBe(200);
    const [afterRefresh] = await sessionsOf((renewed.body.tokenPair as Pair).access_token);
    expect(Date.parse(afterRefresh?.last_used_at ?? '')).toBeGreaterThanOrEqual(
      Date.parse(before?.last_used_at ?? '') + 120_000,
    );
    expect(afterRefresh?.address).toBe('203.0.113.21');
    expect(afterRefresh?.started_at).toBe(before?.started_at);
  });

  it('signs out one session: its next call and its refresh are refused, the others go on', async () => {
    const user = await seedUser(t);
    const mine = await login(user.email);
    const other = await login(user.email, { ua: CHROME_MAC });
    const target = (await sessionsOf(mine.access_token)).find((s) => !s.current) as SignInSession;

    const res = await call('RevokeSession', mine.access_token, { sign_in_id: target.sign_in_id });
    expect(res.status).toBe(200);
    expect((await profile(other.access_token, user.email)).status).toBe(401);
    expect((await refresh(other)).status).toBe(401);
    expect((await profile(mine.access_token, user.email)).status).toBe(200);
    expect((await sessionsOf(mine.access_token)).map((s) => s.sign_in_id)).not.toContain(target.sign_in_id);
    // Signed out already: there is no live session of that id any more.
    expect((await call('RevokeSession', mine.access_token, { sign_in_id: target.sign_in_id })).status).toBe(404);
  });

  it("refuses to sign out another user's session, which stays live", async () => {
    const owner = await seedUser(t);
    const ownerPair = await login(owner.email);
    const [ownerSession] = await sessionsOf(ownerPair.access_token);
    const intruder = await login((await seedUser(t)).email);

    const res = await call('RevokeSession', intruder.access_token, { sign_in_id: ownerSession?.sign_in_id });
    expect(res.status).toBe(404);
    expect(res.body.error.Description).toMatch(/^sign_in_id: /);
    expect((await profile(ownerPair.access_token, owner.email)).status).toBe(200);
  });

  it('signs out everywhere else and keeps the current session', async () => {
    const user = await seedUser(t);
    const mine = await login(user.email);
    const others = [await login(user.email, { ua: CHROME_MAC }), await login(user.email, { ua: SAFARI_IPHONE })];
    const res = await call('RevokeOtherSessions', mine.access_token);
    expect(res.status).toBe(200);
    expect(res.body.revoked).toBe(2);
    for (const pair of others) expect((await profile(pair.access_token, user.email)).status).toBe(401);
    expect((await sessionsOf(mine.access_token)).map((s) => s.current)).toEqual([true]);
  });
});

/** A signed-in user with a passkey made by a software authenticator. */
async function withPasskey(name = 'Laptop') {
  const user = await seedUser(t);
  const pair = await login(user.email);
  const key = new SoftwareAuthenticator();
  const options = await call('PasskeyRegistrationOptions', pair.access_token);
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const added = await call('AddPasskey', pair.access_token, {
    name,
    credential: key.register(options.body.options as never),
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  return { user, pair, key, passkeyId: (added.body.passkey as { passkey_id: string }).passkey_id };
}

async function signInOptions() {
  const res = await t.api.call(security, 'PasskeySignInOptions', {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.options as { challenge: string; rpId: string };
}

function passkeySignIn(credential: unknown, body: Record<string, unknown> = {}, ua = FIREFOX_WINDOWS): Promise<Answer> {
  return t.api.post(
    '/api/security',
    { action: 'PasskeySignIn', credential, ...body },
    { headers: { 'user-agent': ua }, ip: nextIp() },
  );
}

describe('passkeys', () => {
  it('offers EdDSA, ES256 and RS256 only, whatever the runtime supports (no ML-DSA: Node 24 has it, 22 does not)', async () => {
    const user = await seedUser(t);
    const pair = await login(user.email);
    const options = await call('PasskeyRegistrationOptions', pair.access_token);
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    const params = (options.body.options as { pubKeyCredParams: { alg: number; type: string }[] }).pubKeyCredParams;
    expect(params).toEqual([
      { alg: -8, type: 'public-key' },
      { alg: -7, type: 'public-key' },
      { alg: -257, type: 'public-key' },
    ]);
  });

  it('adds a passkey (with a mail), lists, renames and removes it', async () => {
    const { user, pair, passkeyId } = await withPasskey('Work laptop');
    const mail = t.mailer.lastTo(user.email);
    expect(mail?.subject).toBe('A passkey was added to your Robot Portal account');
    expect(mail?.text).toContain('"Work laptop"');

    const listed = await call('ListPasskeys', pair.access_token);
    expect(listed.body.passkeys).toEqual([
      expect.objectContaining({ passkey_id: passkeyId, name: 'Work laptop', last_used_at: null, synced: false }),
    ]);
    const renamed = await call('RenamePasskey', pair.access_token, { passkey_id: passkeyId, name: '  Desk key  ' });
    expect(renamed.status).toBe(200);
    expect((renamed.body.passkey as { name: string }).name).toBe('Desk key');
    expect((await call('RemovePasskey', pair.access_token, { passkey_id: passkeyId })).status).toBe(200);
    expect((await call('ListPasskeys', pair.access_token)).body.passkeys).toEqual([]);
  });

  it('signs in with a passkey for the portal, raising its counter and telling of the new browser', async () => {
    const { user, key } = await withPasskey();
    const options = await signInOptions();
    expect(options.rpId).toBe('localhost');
    const res = await passkeySignIn(key.authenticate(options), { target: 'portal' }, CHROME_MAC);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.target).toBe('portal');
    expect((res.body.user as { email: string }).email).toBe(user.email);
    const pair = res.body.token_pair as Pair;
    expect((await profile(pair.access_token, user.email)).status).toBe(200);
    const [current] = await sessionsOf(pair.access_token);
    expect(current).toMatchObject({ browser: 'Chrome', os: 'macOS', current: true });
    const [listed] = (await call('ListPasskeys', pair.access_token)).body.passkeys as { last_used_at: string }[];
    expect(listed?.last_used_at).not.toBeNull();
    const mail = t.mailer.lastTo(user.email);
    expect(mail?.subject).toBe('New sign-in to your Robot Portal account');
    expect(mail?.text).toContain('with a passkey from a browser it has not used before: Chrome on macOS');
  });

  it('signs the hub in with a passkey: only credentials encrypted to the hub key come back', async () => {
    const { user, key } = await withPasskey();
    const hub = hubKeyPair();
    const res = await passkeySignIn(key.authenticate(await signInOptions()), {
      target: 'hub',
      hub_public_key: hub.publicJwk,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['enc_creds', 'error', 'target']);
    const { plaintext } = await compactDecrypt(
      res.body.enc_creds as string,
      await importJWK(hub.privateJwk as JWK, 'ECDH-ES+A256KW'),
    );
    const creds = JSON.parse(new TextDecoder().decode(plaintext)) as { user: { email: string }; token_pair: Pair };
    expect(creds.user.email).toBe(user.email);
    expect((await sessionsOf(creds.token_pair.access_token))[0]?.target).toBe('hub');
    // The hub target without its key is refused before the passkey is checked.
    const noKey = await passkeySignIn(key.authenticate(await signInOptions()), { target: 'hub' });
    expect(noKey.status).toBe(400);
    expect(noKey.body.error.Description).toMatch(/^hub_public_key: /);
  });

  it('refuses a replayed sign-in (the challenge is single-use)', async () => {
    const { key } = await withPasskey();
    const answer = key.authenticate(await signInOptions());
    expect((await passkeySignIn(answer)).status).toBe(200);
    const replay = await passkeySignIn(answer);
    expect(replay.status).toBe(401);
    expect(replay.body.error.Description).toMatch(/expired or was already used/);
  });

  it('refuses an expired challenge, and a challenge the server never issued', async () => {
    const { key } = await withPasskey();
    const options = await signInOptions();
    t.clock.advance(61_000);
    expect((await passkeySignIn(key.authenticate(options))).body.error.Description).toMatch(/expired/);
    const made = await passkeySignIn(key.authenticate({ challenge: 'bm90LWlzc3VlZC1ieS10aGUtc2VydmVy' }));
    expect(made.status).toBe(401);
  });

  it('refuses an answer from another origin or for another RP id, and spends its challenge', async () => {
    const { key } = await withPasskey();
    const wrongOrigin = await signInOptions();
    const res = await passkeySignIn(key.authenticate(wrongOrigin, { origin: 'https://portal.evil.example' }));
    expect(res.status).toBe(401);
    expect(res.body.error.Description).toMatch(/origin/i);
    // A refused answer used the challenge up: the right answer to it is too late.
    expect((await passkeySignIn(key.authenticate(wrongOrigin))).status).toBe(401);

    const wrongRp = await passkeySignIn(key.authenticate(await signInOptions(), { rpId: 'evil.example' }));
    expect(wrongRp.status).toBe(401);
    expect(wrongRp.body.error.Description).toMatch(/RP ID/i);

    const options = await t.api.call(
      security,
      'PasskeyRegistrationOptions',
      {},
      { bearer: (await withPasskey()).pair.access_token },
    );
    const stranger = new SoftwareAuthenticator();
    const registered = await call('AddPasskey', (await login((await seedUser(t)).email)).access_token, {
      name: 'Stolen options',
      credential: stranger.register(options.body.options as never),
    });
    // Another user's registration challenge is as good as none.
    expect(registered.status).toBe(400);
  });

  it('refuses an added passkey from the wrong origin or without user verification', async () => {
    const user = await seedUser(t);
    const pair = await login(user.email);
    const key = new SoftwareAuthenticator();
    for (const bend of [{ origin: 'https://portal.evil.example' }, { rpId: 'evil.example' }, { verified: false }]) {
      const options = await call('PasskeyRegistrationOptions', pair.access_token);
      const res = await call('AddPasskey', pair.access_token, {
        name: 'Bent',
        credential: key.register(options.body.options as never, bend),
      });
      expect(res.status, JSON.stringify(bend)).toBe(400);
      expect(res.body.error.Description).toMatch(/^credential: could not be verified/);
    }
    expect((await call('ListPasskeys', pair.access_token)).body.passkeys).toEqual([]);
  });

  it("refuses another user's credential: registering it again, or signing with another key in its name", async () => {
    const a = await withPasskey();
    const b = await withPasskey();
    // B's authenticator signs an answer that names A's credential.
    const forged = await passkeySignIn(
      b.key.authenticate(await signInOptions(), { credentialId: a.key.credentialId, userHandle: null }),
    );
    expect(forged.status).toBe(401);
    expect(forged.body.error.Description).toMatch(/^credential\.response\.signature: /);
    // A's user handle with B's credential.
    const mixed = await passkeySignIn(b.key.authenticate(await signInOptions(), { userHandle: a.key.userHandle }));
    expect(mixed.status).toBe(401);
    expect(mixed.body.error.Description).toMatch(/^credential\.response\.userHandle: /);
    // B registers a credential carrying A's credential id.
    const options = await call('PasskeyRegistrationOptions', b.pair.access_token);
    const again = await call('AddPasskey', b.pair.access_token, {
      name: 'Copy',
      credential: new SoftwareAuthenticator().register(options.body.options as never, {
        credentialId: a.key.credentialId,
      }),
    });
    expect(again.status).toBe(409);
    // Nor can B rename or remove A's passkey.
    expect((await call('RenamePasskey', b.pair.access_token, { passkey_id: a.passkeyId, name: 'Mine' })).status).toBe(
      404,
    );
    expect((await call('RemovePasskey', b.pair.access_token, { passkey_id: a.passkeyId })).status).toBe(404);
    expect((await call('ListPasskeys', a.pair.access_token)).body.passkeys).toEqual([
      expect.objectContaining({ passkey_id: a.passkeyId, name: 'Laptop' }),
    ]);
  });

  it('refuses a removed passkey with a message that says so', async () => {
    const { pair, key, passkeyId } = await withPasskey();
    expect((await call('RemovePasskey', pair.access_token, { passkey_id: passkeyId })).status).toBe(200);
    const res = await passkeySignIn(key.authenticate(await signInOptions()));
    expect(res.status).toBe(401);
    expect(res.body.error.Description).toMatch(/^credential\.id: this passkey is not registered/);
  });

  it('refuses a signature counter that goes backwards (a cloned authenticator)', async () => {
    const { key } = await withPasskey();
    expect((await passkeySignIn(key.authenticate(await signInOptions(), { counter: 5 }))).status).toBe(200);
    const res = await passkeySignIn(key.authenticate(await signInOptions(), { counter: 3 }));
    expect(res.status).toBe(401);
    expect(res.body.error.Description).toMatch(/counter/i);
  });

  it('applies the account rules of a password sign-in: a disabled account is refused', async () => {
    const { user, key } = await withPasskey();
    await t.app.deps.db.update(users).set({ disabledAt: t.clock.now() }).where(eq(users.id, user.id));
    const res = await passkeySignIn(key.authenticate(await signInOptions()));
    expect(res.status).toBe(403);
    await t.app.deps.db.update(users).set({ disabledAt: null, emailValidated: false }).where(eq(users.id, user.id));
    const unverified = await passkeySignIn(key.authenticate(await signInOptions()));
    expect(unverified.status).toBe(403);
    expect(unverified.body.error.Code).toBe(32);
  });
});

describe('security emails', () => {
  it('mails a sign-in from a browser the account has not used, once, and not for its first browser', async () => {
    const user = await seedUser(t);
    const before = t.mailer.sent.length;
    await login(user.email, { ua: FIREFOX_WINDOWS });
    await login(user.email, { ua: FIREFOX_WINDOWS });
    expect(t.mailer.sent.slice(before).filter((m) => m.to === user.email)).toEqual([]);

    await login(user.email, { ua: SAFARI_IPHONE, ip: '198.51.100.44' });
    await login(user.email, { ua: SAFARI_IPHONE });
    const mails = t.mailer.sent.slice(before).filter((m) => m.to === user.email);
    expect(mails.map((m) => m.subject)).toEqual(['New sign-in to your Robot Portal account']);
    expect(mails[0]?.text).toContain(
      'with your password from a browser it has not used before: Safari on iOS, from the address 198.51.100.44',
    );
    expect(mails[0]?.link).toBe('http://localhost:3999/dashboard/user/profile#security');
  });

  it('mails a password change', async () => {
    const user = await seedUser(t);
    const pair = await login(user.email);
    const res = await t.api.call(useraction, 'UserUpdatePassword', {
      token: pair.access_token,
      tokentype: 1,
      user: { email: user.email, password: GOOD_PASSWORD },
      password: 'Changed-Robot-Pass-77!',
    });
    expect(res.status).toBe(200);
    expect(t.mailer.lastTo(user.email)?.subject).toBe('Your Robot Portal password was changed');
  });
});

// Last in the file: it moves the clock past the privacy policy's two years.
describe('retention', () => {
  it('an account anonymised after two dormant years keeps no passkey that could sign in to it', async () => {
    const { key } = await withPasskey();
    t.clock.advance(3 * 365 * ONE_DAY_MS);
    const run = await t.app.services.retention.run();
    expect(run.anonymised.users).toBeGreaterThan(0);
    const res = await passkeySignIn(key.authenticate(await signInOptions()));
    expect(res.status).toBe(401);
    expect(res.body.error.Description).toMatch(/^credential\.id: /);
  });
});
