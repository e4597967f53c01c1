import { auth, ErrorCodes, ONE_DAY_MS, useraction } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { freshDatabase, GOOD_PASSWORD, seedUser, type TestApp, testApp, uniqueEmail } from '../../test/harness.ts';

let database: Database;
let t: TestApp;

beforeAll(async () => {
  database = await freshDatabase();
  t = await testApp(database, { LOGIN_MAX_FAILURES: '3', LOCKOUT_S: '600', REFRESH_REUSE_GRACE_S: '30' });
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

const login = (email: string, password: string, extra: Record<string, unknown> = {}) =>
  t.api.call(useraction, 'login', { user: { email, password }, use_token_pairs: true, ...extra });

async function signedIn(opts: { email?: string } = {}) {
  const user = await seedUser(t, opts);
  const res = await login(user.email, user.password);
  expect(res.status).toBe(200);
  const pair = res.body.token_pair as { access_token: string; refresh_token: string };
  return { ...user, pair };
}

const linkToken = (link: string | undefined) => {
  expect(link).toBeTruthy();
  return decodeURIComponent(String(link).split('/').at(-1) as string);
};

describe('login', () => {
  it('answers the user and a token pair for the portal target', async () => {
    const user = await seedUser(t);
    const res = await login(user.email.toUpperCase(), user.password);
    expect(res.status).toBe(200);
    expect(res.body.error).toEqual({ Success: true, Code: 0, Description: 'OK' });
    expect(res.body.user).toMatchObject({ email: user.email, email_validated: true });
    expect(res.body.user).not.toHaveProperty('password');
    expect(res.body.token_pair).toMatchObject({ access_token_expires_in: 900, refresh_token_expires_in: 604800 });
  });

  it.each([
    ['a malformed email', { user: { email: 'not-an-email', password: 'x' } }, 'user.email: Invalid email address'],
    ['a missing password', { user: { email: 'a@b.co' } }, 'user.password'],
    ['a password of the wrong type', { user: { email: 'a@b.co', password: 42 } }, 'user.password'],
    ['a missing user', {}, 'user:'],
    // A rule without a message of the contract's reads in zod's English (decision 036: zod/mini loads none).
    [
      'a hub key too long',
      { user: { email: 'a@b.co', password: 'x' }, hub_public_key: 'k'.repeat(2049) },
      'hub_public_key: Too big: expected string to have <=2048 characters',
    ],
  ])('refuses %s with 400 naming the field', async (_label, body, description) => {
    const res = await t.api.call(useraction, 'login', body);
    expect(res.status).toBe(400);
    expect(res.body.error.Code).toBe(ErrorCodes.VALIDATION.code);
    expect(res.body.error.Description).toContain(description);
  });

  it('refuses a wrong password and an unknown email alike with 401', async () => {
    const user = await seedUser(t);
    const wrong = await login(user.email, 'Wrong-Pass-1!');
    const unknown = await login(uniqueEmail(), 'Wrong-Pass-1!');
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.error.Description).toBe('Invalid email or password');
    }
  });

  it('refuses an unverified email with code 32 only after the right password', async () => {
    const user = await seedUser(t, { verified: false });
    const wrong = await login(user.email, 'Wrong-Pass-1!');
    expect(wrong.status).toBe(401);
    const right = await login(user.email, user.password);
    expect(right.status).toBe(403);
    expect(right.body.error.Code).toBe(32);
    expect(right.body.token_pair).toBeUndefined();
  });

  it('locks after the configured failures with code 45 and releases after the period', async () => {
    const user = await seedUser(t);
    const ip = '10.9.8.7';
    expect(
      (await t.api.call(useraction, 'login', { user: { email: user.email, password: 'bad-1' } }, { ip })).status,
    ).toBe(401);
    expect(
      (await t.api.call(useraction, 'login', { user: { email: user.email, password: 'bad-2' } }, { ip })).status,
    ).toBe(401);
    const third = await t.api.call(useraction, 'login', { user: { email: user.email, password: 'bad-3' } }, { ip });
    expect(third.body.error.Code).toBe(45);
    const locked = await t.api.call(
      useraction,
      'login',
      { user: { email: user.email, password: user.password } },
      { ip },
    );
    expect(locked.status).toBe(423);
    expect(locked.body.error.Code).toBe(45);
    // The lock binds the attacker's address only: the owner elsewhere still signs in.
    expect(
      (
        await t.api.call(
          useraction,
          'login',
          { user: { email: user.email, password: user.password } },
          { ip: '10.1.1.1' },
        )
      ).status,
    ).toBe(200);
    t.clock.advance(601_000);
    const released = await t.api.call(
      useraction,
      'login',
      { user: { email: user.email, password: user.password } },
      { ip },
    );
    expect(released.status).toBe(200);
  });

  it('gives the hub target enc_creds only, and needs the hub key', async () => {
    const user = await seedUser(t);
    const missing = await login(user.email, user.password, { target: 'hub' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.Description).toContain('hub_public_key');
    const { generateKeyPair, exportJWK, compactDecrypt } = await import('jose');
    const { publicKey, privateKey } = await generateKeyPair('ECDH-ES+A256KW', { crv: 'P-256' });
    const res = await login(user.email, user.password, {
      target: 'hub',
      hub_public_key: JSON.stringify(await exportJWK(publicKey)),
    });
    expect(res.status).toBe(200);
    expect(res.body.token_pair).toBeUndefined();
    const { plaintext } = await compactDecrypt(String(res.body.enc_creds), privateKey);
    const creds = JSON.parse(new TextDecoder().decode(plaintext));
    expect(creds.user.email).toBe(user.email);
    expect(creds.token_pair.refresh_token).toBeTruthy();
  });

  it('limits sign-in attempts per address', async () => {
    const limited = await testApp(database, { RATE_LOGIN_PER_ADDRESS: '2' });
    try {
      const body = { user: { email: uniqueEmail(), password: 'whatever-1' } };
      await limited.api.call(useraction, 'login', body, { ip: '10.2.2.2' });
      await limited.api.call(useraction, 'login', body, { ip: '10.2.2.2' });
      const third = await limited.api.call(useraction, 'login', body, { ip: '10.2.2.2' });
      expect(third.status).toBe(429);
      expect(third.body.error.Code).toBe(ErrorCodes.RATE_LIMITED.code);
    } finally {
      await limited.app.close();
    }
  });
});

describe('request protocol', () => {
  it('answers a CSRF token on GET /api/useraction', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/useraction' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-csrf-token']).toMatch(/^\d+\.[\w-]+\.[\w-]+$/);
  });

  it.each([
    ['missing', null, 'x-csrf-token: header missing'],
    ['forged', '1.abc.def', 'x-csrf-token: token invalid'],
  ])('refuses a POST with a %s CSRF token', async (_label, csrf, message) => {
    const res = await t.api.post(
      useraction.path,
      { action: 'login', user: { email: 'a@b.co', password: 'x' } },
      { csrf },
    );
    expect(res.status).toBe(403);
    expect(res.body.error.Code).toBe(ErrorCodes.CSRF.code);
    expect(res.body.error.Description).toContain(message);
  });

  it('refuses an expired CSRF token', async () => {
    const token = await t.api.csrf();
    t.clock.advance(3 * 60 * 60 * 1000);
    const res = await t.api.post(useraction.path, { action: 'login' }, { csrf: token });
    expect(res.status).toBe(403);
    expect(res.body.error.Description).toContain('expired');
  });

  it('refuses a foreign Origin', async () => {
    const res = await t.api.post(useraction.path, { action: 'login' }, { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(res.body.error.Description).toContain('origin');
  });

  it.each([
    ['malformed JSON', '{"action": "login", ', 'body: Malformed JSON'],
    ['an array body', '[1,2]', 'body: must be a JSON object'],
    ['no action', '{}', 'action: Required'],
    ['an unknown action', '{"action":"explode"}', "action: Unknown action 'explode'"],
    ['a wrong type', '{"action":"UserForgotPassword","user":{"email":17}}', 'user.email'],
  ])('answers %s with 400 and the error object', async (_label, raw, description) => {
    const res = await t.api.post(useraction.path, undefined, { raw });
    expect(res.status).toBe(400);
    expect(res.body.error.Success).toBe(false);
    expect(res.body.error.Description).toContain(description);
  });

  it('sends security headers: a JSON answer loads nothing, and is never sniffed or framed', async () => {
    for (const res of [
      await t.app.inject({ method: 'GET', url: '/healthz' }),
      await t.api.post(useraction.path, undefined, { raw: '{}' }),
    ]) {
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('answers readiness with the database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('ready');
  });
});

describe('sessions', () => {
  it('get-self answers the user and rotates the refresh token', async () => {
    const s = await signedIn();
    const res = await t.api.call(useraction, 'get-self', { token_pair: { refresh_token: s.pair.refresh_token } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: s.email });
    expect((res.body.token_pair as { refresh_token: string }).refresh_token).not.toBe(s.pair.refresh_token);
  });

  it('refuses a rotated refresh token after the grace window and revokes its whole family', async () => {
    const s = await signedIn();
    const first = await t.api.call(auth, 'refresh-access-token', {
      tokenPair: { refresh_token: s.pair.refresh_token },
    });
    expect(first.status).toBe(200);
    const next = first.body.tokenPair as { refresh_token: string; access_token: string };
    t.clock.advance(31_000);
    const reuse = await t.api.call(auth, 'refresh-access-token', {
      tokenPair: { refresh_token: s.pair.refresh_token },
    });
    expect(reuse.status).toBe(401);
    expect(reuse.body.valid).toBeUndefined();
    // theft detected: the legitimate successor is dead too
    const successor = await t.api.call(auth, 'refresh-access-token', {
      tokenPair: { refresh_token: next.refresh_token },
    });
    expect(successor.status).toBe(401);
    const profile = await t.api.call(useraction, 'UserUpdate', {
      token: next.access_token,
      user: { email: s.email, name: 'Someone', year_born: -1, country: 'France', company: '' },
    });
    expect(profile.status).toBe(401);
  });

  it('lets two concurrent refreshes with the same token both succeed', async () => {
    const s = await signedIn();
    const [a, b] = await Promise.all([
      t.api.call(auth, 'refresh-access-token', { tokenPair: { refresh_token: s.pair.refresh_token } }),
      t.api.call(auth, 'refresh-access-token', { tokenPair: { refresh_token: s.pair.refresh_token } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.valid).toBe(true);
    const again = await t.api.call(auth, 'refresh-access-token', {
      tokenPair: { refresh_token: (b.body.tokenPair as { refresh_token: string }).refresh_token },
    });
    expect(again.status).toBe(200);
  });

  it('refuses an expired refresh token and a forged one', async () => {
    const s = await signedIn();
    const forged = await t.api.call(auth, 'refresh-access-token', {
      tokenPair: { refresh_token: `${s.pair.refresh_token}x` },
    });
    expect(forged.status).toBe(401);
    t.clock.advance(8 * ONE_DAY_MS);
    const expired = await t.api.call(auth, 'refresh-access-token', {
      tokenPair: { refresh_token: s.pair.refresh_token },
    });
    expect(expired.status).toBe(401);
  });

  it('logout revokes the session: its refresh and access tokens stop working', async () => {
    const s = await signedIn();
    const out = await t.api.call(useraction, 'logout', { token_pair: s.pair, user: { email: s.email } });
    expect(out.status).toBe(200);
    expect(
      (await t.api.call(auth, 'refresh-access-token', { tokenPair: { refresh_token: s.pair.refresh_token } })).status,
    ).toBe(401);
    const update = await t.api.call(useraction, 'UserUpdate', {
      token: s.pair.access_token,
      user: { email: s.email, name: 'Someone', year_born: -1, country: 'France', company: '' },
    });
    expect(update.status).toBe(401);
    expect(update.body.error.Description).toBe('Authentication failed - invalid or expired token');
  });

  it('logout refuses a token pair named for another email', async () => {
    const s = await signedIn();
    const res = await t.api.call(useraction, 'logout', { token_pair: s.pair, user: { email: uniqueEmail() } });
    expect(res.status).toBe(403);
  });

  it('revoke-token-pair ends the session', async () => {
    const s = await signedIn();
    expect((await t.api.call(auth, 'revoke-token-pair', { tokenPair: s.pair })).status).toBe(200);
    expect(
      (await t.api.call(useraction, 'get-self', { token_pair: { refresh_token: s.pair.refresh_token } })).status,
    ).toBe(401);
  });

  it('refuses body-token calls without a token, and a token of another account', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const none = await t.api.call(useraction, 'UserDelete', { user: { email: a.email, password: a.password } });
    expect(none.status).toBe(400);
    expect(none.body.error.Description).toContain('token');
    const other = await t.api.call(useraction, 'UserDelete', {
      token: b.pair.access_token,
      user: { email: a.email, password: a.password },
    });
    expect(other.status).toBe(403);
  });
});

describe('registration and verification', () => {
  const registration = (email: string, overrides: Record<string, unknown> = {}) => ({
    user: {
      email,
      password: GOOD_PASSWORD,
      name: 'New Person',
      year_born: 1991,
      country: 'Germany',
      company: 'Bots GmbH',
      marketing: true,
      termsagreed: true,
      ...overrides,
    },
  });

  it('registers, emails a link that verifies once, then signs in', async () => {
    const email = uniqueEmail('reg');
    const res = await t.api.call(useraction, 'UserRegister', registration(email));
    expect(res.status).toBe(200);
    expect((await login(email, GOOD_PASSWORD)).body.error.Code).toBe(32);
    const mail = t.mailer.lastTo(email);
    expect(mail?.link).toMatch(/^http:\/\/localhost:3999\/auth\/verify\//);
    const token = linkToken(mail?.link);
    expect((await t.api.call(useraction, 'UserCheckToken', { token, tokentype: 3 })).body.valid).toBe(true);
    expect((await t.api.call(useraction, 'UserVerifyEmail', { token })).status).toBe(200);
    expect((await t.api.call(useraction, 'UserVerifyEmail', { token })).status).toBe(400);
    expect((await login(email, GOOD_PASSWORD)).status).toBe(200);
  });

  it('answers an existing email exactly like a new one and mails the owner instead', async () => {
    const owner = await seedUser(t);
    const fresh = await t.api.call(useraction, 'UserRegister', registration(uniqueEmail('reg')));
    const taken = await t.api.call(useraction, 'UserRegister', registration(owner.email));
    expect(taken.status).toBe(fresh.status);
    expect(taken.body).toEqual(fresh.body);
    expect(t.mailer.lastTo(owner.email)?.subject).toContain('tried to create');
    // the owner's password is untouched
    expect((await login(owner.email, owner.password)).status).toBe(200);
  });

  it.each([
    ['password', { password: 'short' }, 'user.password: Password must be at least 8 characters'],
    ['password', { password: 'alllowercase1!' }, 'Password must contain at least one uppercase letter'],
    ['name', { name: '' }, 'user.name: Please enter your name'],
    ['company', { company: 'X' }, 'Organisation name is too short (minimum is 2 characters)'],
    ['year_born', { year_born: 1850 }, 'user.year_born: Please select a valid year of birth'],
    [
      'year_born',
      { year_born: new Date().getUTCFullYear() - 2 },
      'You must be at least 6 years old to use this service.',
    ],
    ['country', { country: '' }, 'user.country: Please enter your country'],
    ['termsagreed', { termsagreed: false }, 'user.termsagreed'],
  ])('refuses a bad %s', async (_field, overrides, description) => {
    const email = uniqueEmail('bad');
    const res = await t.api.call(useraction, 'UserRegister', registration(email, overrides));
    expect(res.status).toBe(400);
    expect(res.body.error.Description).toContain(description);
    expect(t.mailer.lastTo(email)).toBeUndefined();
  });

  it('refuses a bad verification token', async () => {
    const res = await t.api.call(useraction, 'UserVerifyEmail', { token: 'nope' });
    expect(res.status).toBe(400);
    expect(res.body.error.Code).toBe(ErrorCodes.INVALID_TOKEN.code);
  });
});

describe('forgot and reset password', () => {
  it('answers the same for any address and mails a reset link to a real one', async () => {
    const user = await seedUser(t);
    const known = await t.api.call(useraction, 'UserForgotPassword', { user: { email: user.email } });
    const unknown = await t.api.call(useraction, 'UserForgotPassword', { user: { email: uniqueEmail() } });
    expect(known.body).toEqual(unknown.body);
    expect(known.status).toBe(unknown.status);
    expect(t.mailer.lastTo(user.email)?.link).toContain('/auth/password/reset/');
  });

  it('resets with the link once, revokes every session, and the old password stops working', async () => {
    const s = await signedIn();
    await t.api.call(useraction, 'UserForgotPassword', { user: { email: s.email } });
    const token = linkToken(t.mailer.lastTo(s.email)?.link);
    const body = { user: { email: s.email }, token, tokentype: 2, password: 'Brand-New-Pass-7?' };
    const weak = await t.api.call(useraction, 'UserChangePassword', { ...body, password: 'weakpassword' });
    expect(weak.status).toBe(400);
    expect(weak.body.error.Description).toContain('password: Password must contain at least one uppercase letter');
    expect((await t.api.call(useraction, 'UserChangePassword', body)).status).toBe(200);
    expect((await t.api.call(useraction, 'UserChangePassword', body)).status).toBe(400);
    expect(
      (await t.api.call(useraction, 'get-self', { token_pair: { refresh_token: s.pair.refresh_token } })).status,
    ).toBe(401);
    expect((await login(s.email, s.password)).status).toBe(401);
    expect((await login(s.email, 'Brand-New-Pass-7?')).status).toBe(200);
  });

  it('refuses an expired reset token, and one used with another email', async () => {
    const user = await seedUser(t);
    await t.api.call(useraction, 'UserForgotPassword', { user: { email: user.email } });
    const token = linkToken(t.mailer.lastTo(user.email)?.link);
    const other = await t.api.call(useraction, 'UserChangePassword', {
      user: { email: uniqueEmail() },
      token,
      tokentype: 2,
      password: 'Brand-New-Pass-7?',
    });
    expect(other.status).toBe(400);
    t.clock.advance(61 * 60 * 1000);
    expect((await t.api.call(useraction, 'UserCheckToken', { token, tokentype: 2 })).body.valid).toBe(false);
    const late = await t.api.call(useraction, 'UserChangePassword', {
      user: { email: user.email },
      token,
      tokentype: 2,
      password: 'Brand-New-Pass-7?',
    });
    expect(late.status).toBe(400);
    expect(late.body.error.Description).toContain('token:');
  });

  it('only the newest reset link works', async () => {
    const user = await seedUser(t);
    await t.api.call(useraction, 'UserForgotPassword', { user: { email: user.email } });
    const first = linkToken(t.mailer.lastTo(user.email)?.link);
    await t.api.call(useraction, 'UserForgotPassword', { user: { email: user.email } });
    expect((await t.api.call(useraction, 'UserCheckToken', { token: first, tokentype: 2 })).body.valid).toBe(false);
  });

  it('counts the per-account limit silently', async () => {
    const limited = await testApp(database, { RATE_FORGOT_PER_ACCOUNT: '1' });
    try {
      const user = await seedUser(limited);
      const a = await limited.api.call(useraction, 'UserForgotPassword', { user: { email: user.email } });
      const b = await limited.api.call(useraction, 'UserForgotPassword', { user: { email: user.email } });
      expect(b.status).toBe(a.status);
      expect(limited.mailer.sent.filter((m) => m.to === user.email)).toHaveLength(1);
    } finally {
      await limited.app.close();
    }
  });
});

describe('change password, profile and delete', () => {
  it('changes the password, keeps this session and revokes the others', async () => {
    const s = await signedIn();
    const other = await login(s.email, s.password);
    const otherPair = other.body.token_pair as { refresh_token: string };
    const res = await t.api.call(useraction, 'UserUpdatePassword', {
      token: s.pair.access_token,
      tokentype: 1,
      user: { email: s.email, password: s.password },
      password: 'Changed-Pass-9#',
    });
    expect(res.status).toBe(200);
    expect(
      (await t.api.call(useraction, 'get-self', { token_pair: { refresh_token: otherPair.refresh_token } })).status,
    ).toBe(401);
    expect(
      (await t.api.call(useraction, 'get-self', { token_pair: { refresh_token: s.pair.refresh_token } })).status,
    ).toBe(200);
    expect((await login(s.email, 'Changed-Pass-9#')).status).toBe(200);
  });

  it.each([
    [
      'a wrong current password',
      { current: 'Not-The-One-1!', next: 'Changed-Pass-9#' },
      'user.password: Current password is incorrect',
    ],
    [
      'the same password',
      { current: GOOD_PASSWORD, next: GOOD_PASSWORD },
      'New password cannot be the same as the current password.',
    ],
    [
      'a weak password',
      { current: GOOD_PASSWORD, next: 'weakweak' },
      'Password must contain: 1 uppercase, 1 number and 1 special character.',
    ],
  ])('refuses %s', async (_label, { current, next }, description) => {
    const s = await signedIn();
    const res = await t.api.call(useraction, 'UserUpdatePassword', {
      token: s.pair.access_token,
      tokentype: 1,
      user: { email: s.email, password: current },
      password: next,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.Description).toContain(description);
  });

  it('refuses the account email as the new password', async () => {
    const email = `${uniqueEmail()}`.replace('user', 'Upper-');
    const s = await signedIn({ email: email.toLowerCase() });
    const res = await t.api.call(useraction, 'UserUpdatePassword', {
      token: s.pair.access_token,
      tokentype: 1,
      user: { email: s.email, password: s.password },
      password: s.email,
    });
    expect(res.status).toBe(400);
  });

  it('updates the profile and keeps the year when -1 is sent', async () => {
    const s = await signedIn();
    const res = await t.api.call(useraction, 'UserUpdate', {
      token: s.pair.access_token,
      user: {
        email: s.email,
        name: 'Ada Lovelace',
        year_born: -1,
        country: 'France',
        company: 'Engines',
        profession: 'Analyst',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      name: 'Ada Lovelace',
      country: 'France',
      company: 'Engines',
      year_born: 1990,
    });
  });

  it.each([
    ['name', { name: 'Al' }, 'user.name: Name must be at least 3 characters'],
    ['country', { country: 'Atlantis' }, 'user.country: Please choose a country from the list'],
    ['company', { company: 'Z' }, 'user.company: Organisation name is too short'],
  ])('refuses a bad profile %s', async (_f, overrides, description) => {
    const s = await signedIn();
    const res = await t.api.call(useraction, 'UserUpdate', {
      token: s.pair.access_token,
      user: { email: s.email, name: 'Valid Name', year_born: -1, country: 'France', company: '', ...overrides },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.Description).toContain(description);
  });

  it('deletes the account only with its password', async () => {
    const s = await signedIn();
    const wrong = await t.api.call(useraction, 'UserDelete', {
      token: s.pair.access_token,
      user: { email: s.email, password: 'nope-nope' },
    });
    expect(wrong.status).toBe(400);
    const ok = await t.api.call(useraction, 'UserDelete', {
      token: s.pair.access_token,
      user: { email: s.email, password: s.password },
    });
    expect(ok.status).toBe(200);
    expect((await login(s.email, s.password)).status).toBe(401);
    expect(
      (await t.api.call(useraction, 'get-self', { token_pair: { refresh_token: s.pair.refresh_token } })).status,
    ).toBe(401);
  });
});

describe('framework errors', () => {
  it('answers a malformed URL with the error object', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.Description).toMatch(/^url: /);
  });
});
