import type { AddressInfo } from 'node:net';
import { type Client, createClient } from '@portal/client';
import { ApiError, COMMON_PASSWORD_MESSAGE, ErrorCodes, ONE_DAY_MS, useraction } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.ts';
import type { Database } from '../../db/client.ts';
import { loginFailures } from '../../db/schema.ts';
import { manualClock } from '../../lib/clock.ts';
import type { HashJob } from '../../lib/hash-workers.ts';
import type { Mail, Mailer } from '../../lib/mailer.ts';
import { HASHING_BUSY, hashWorkers } from '../../lib/passwords.ts';
import { nextIp } from '../../test/fixtures.ts';
import {
  type Answer,
  freshDatabase,
  GOOD_PASSWORD,
  seedUser,
  type TestApp,
  testApp,
  testConfig,
  uniqueEmail,
} from '../../test/harness.ts';
import { authRepository } from '../auth/auth.repository.ts';
import { accountKey } from './useraction.lockout.ts';

/**
 * Guessing bounded per address and per account, and answers that do not tell who has an account
 * (issue 14 findings 2, 3, 5 and 10, deliverables 2 and 3; docs/decisions/026). The numbers are
 * small so the thresholds are reached in a few calls: 3 per address, 6 per account before the
 * account-wide delay of 60 s (doubling, at most 600 s).
 */
const LIMITS = {
  LOGIN_MAX_FAILURES: '3',
  LOCKOUT_S: '600',
  LOGIN_ACCOUNT_FREE_FAILURES: '6',
  LOGIN_ACCOUNT_DELAY_S: '60',
  LOGIN_ACCOUNT_MAX_LOCK_S: '600',
  REGISTER_MAILS_PER_RECIPIENT: '2',
};

let database: Database;
let t: TestApp;
beforeAll(async () => {
  database = await freshDatabase();
  t = await testApp(database, LIMITS);
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

const login = (email: string, password: string, ip: string) =>
  t.api.call(useraction, 'login', { user: { email, password }, use_token_pairs: true }, { ip });
const answer = (res: Answer) => ({ status: res.status, body: res.body });
const WRONG = 'Wrong-Guess-7?';

describe('guessing at one account from many addresses (finding 2)', () => {
  it('is bounded across addresses: past the account-wide count every address gets code 45, the right password too', async () => {
    const user = await seedUser(t);
    const statuses: number[] = [];
    // Two guesses from each of ten addresses: never the per-address limit of 3.
    for (let i = 0; i < 10; i++) {
      const ip = nextIp();
      for (let j = 0; j < 2; j++) statuses.push((await login(user.email, WRONG, ip)).status);
    }
    expect(statuses.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(statuses.slice(6).every((s) => s === 423)).toBe(true);
    const right = await login(user.email, user.password, nextIp());
    expect(right.status).toBe(423);
    expect(right.body.error.Code).toBe(ErrorCodes.ACCOUNT_LOCKED.code);
  });

  it('the delay doubles with each further failure and ends by itself', async () => {
    const user = await seedUser(t);
    for (let i = 0; i < 6; i++) expect((await login(user.email, WRONG, nextIp())).status).toBe(401);
    // The 7th failure starts a 60 s delay, answered with code 45.
    expect((await login(user.email, WRONG, nextIp())).status).toBe(423);
    t.clock.advance(61_000);
    // The 8th is checked, fails, and starts 120 s.
    expect((await login(user.email, WRONG, nextIp())).status).toBe(423);
    t.clock.advance(61_000);
    expect((await login(user.email, user.password, nextIp())).status).toBe(423);
    t.clock.advance(60_000);
    expect((await login(user.email, user.password, nextIp())).status).toBe(200);
  });

  it('does not hold the owner at an address they signed in from', async () => {
    const user = await seedUser(t);
    const home = nextIp();
    expect((await login(user.email, user.password, home)).status).toBe(200);
    for (let i = 0; i < 8; i++) await login(user.email, WRONG, nextIp());
    expect((await login(user.email, user.password, nextIp())).status).toBe(423);
    expect((await login(user.email, user.password, home)).status).toBe(200);
  });

  it("the owner's password reset ends every lock of the account at once", async () => {
    const user = await seedUser(t);
    const attacker = nextIp();
    for (let i = 0; i < 3; i++) await login(user.email, WRONG, attacker);
    for (let i = 0; i < 8; i++) await login(user.email, WRONG, nextIp());
    expect((await login(user.email, user.password, nextIp())).status).toBe(423);
    await t.api.call(useraction, 'UserForgotPassword', { user: { email: user.email } }, { ip: nextIp() });
    const token = String(t.mailer.lastTo(user.email)?.link).split('/').at(-1);
    const reset = await t.api.call(useraction, 'UserChangePassword', {
      user: { email: user.email },
      token,
      tokentype: 2,
      password: 'Fresh-Start-31#',
    });
    expect(reset.status).toBe(200);
    expect((await login(user.email, 'Fresh-Start-31#', nextIp())).status).toBe(200);
    expect((await login(user.email, 'Fresh-Start-31#', attacker)).status).toBe(200);
  });
});

describe('an unknown email answers like a wrong password (finding 3)', () => {
  /** The same sequence of calls for one email: 4 from one address, then one from each of 5 more. */
  async function sequence(email: string, password: string) {
    const answers = [];
    const first = nextIp();
    for (let i = 0; i < 4; i++) answers.push(answer(await login(email, password, first)));
    for (let i = 0; i < 5; i++) answers.push(answer(await login(email, password, nextIp())));
    return answers;
  }

  it('the same status and body at every step, through both lock thresholds', async () => {
    const user = await seedUser(t);
    const known = await sequence(user.email, WRONG);
    const unknown = await sequence(uniqueEmail('nobody'), WRONG);
    expect(unknown).toEqual(known);
    // Both thresholds were passed: the per-address one at the 3rd call, the account-wide one later.
    expect(known.map((a) => a.status)).toEqual([401, 401, 423, 423, 401, 401, 401, 423, 423]);
  });

  it('an unverified account answers like the others until the right password', async () => {
    const user = await seedUser(t, { verified: false });
    const other = await seedUser(t);
    const ip = nextIp();
    expect(answer(await login(user.email, WRONG, ip))).toEqual(answer(await login(other.email, WRONG, nextIp())));
  });

  it('forgot password answers before any mail, for a known address as for an unknown one', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sent: Mail[] = [];
    const held: Mailer = {
      mode: 'outbox',
      async send(mail) {
        await gate;
        sent.push(mail);
      },
    };
    const app = await buildApp({ config: testConfig(), database, clock: manualClock(), mailer: held, logger: false });
    try {
      const user = await seedUser({ app });
      const csrf = String((await app.inject({ method: 'GET', url: '/api/useraction' })).headers['x-csrf-token']);
      const forgot = (email: string) =>
        app.inject({
          method: 'POST',
          url: useraction.path,
          headers: { 'x-csrf-token': csrf, 'content-type': 'application/json' },
          payload: { action: 'UserForgotPassword', user: { email } },
        });
      // The mailer holds every mail until released: these answers cannot have waited for one.
      const known = await forgot(user.email);
      const unknown = await forgot(uniqueEmail('nobody'));
      expect(sent).toEqual([]);
      expect(known.statusCode).toBe(200);
      expect({ status: unknown.statusCode, body: unknown.json() }).toEqual({
        status: known.statusCode,
        body: known.json(),
      });
      release();
      await app.services.afterAnswer.settled();
      expect(sent.map((m) => m.to)).toEqual([user.email]);
    } finally {
      release();
      await app.close();
    }
  });
});

describe('the current password of change and delete (finding 5)', () => {
  it('wrong ones count as failed sign-ins: after the limit, code 45 even with the right one', async () => {
    const user = await seedUser(t);
    const ip = nextIp();
    const signedIn = await login(user.email, user.password, ip);
    const token = (signedIn.body.token_pair as { access_token: string }).access_token;
    const change = (current: string) =>
      t.api.call(
        useraction,
        'UserUpdatePassword',
        { token, tokentype: 1, user: { email: user.email, password: current }, password: 'Another-Pass-88%' },
        { ip },
      );
    const remove = (current: string) =>
      t.api.call(useraction, 'UserDelete', { token, user: { email: user.email, password: current } }, { ip });
    expect((await change(WRONG)).status).toBe(400);
    expect((await remove(WRONG)).status).toBe(400);
    const third = await change(WRONG);
    expect(third.status).toBe(423);
    expect(third.body.error.Code).toBe(ErrorCodes.ACCOUNT_LOCKED.code);
    expect((await change(user.password)).status).toBe(423);
    expect((await remove(user.password)).status).toBe(423);
    // and the sign-in of that account from that address is locked with them
    expect((await login(user.email, user.password, ip)).status).toBe(423);
  });
});

describe('registration mails (finding 10)', () => {
  const registration = (email: string, name = 'New Person') => ({
    user: {
      email,
      password: GOOD_PASSWORD,
      name,
      year_born: 1991,
      country: 'Germany',
      company: '',
      marketing: false,
      termsagreed: true,
    },
  });

  it('registering an existing address mails its owner at most REGISTER_MAILS_PER_RECIPIENT times a day', async () => {
    const owner = await seedUser(t);
    const answers = [];
    for (let i = 0; i < 5; i++)
      answers.push(answer(await t.api.call(useraction, 'UserRegister', registration(owner.email), { ip: nextIp() })));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]?.status).toBe(200);
    expect(t.mailer.sent.filter((m) => m.to === owner.email)).toHaveLength(2);
    t.clock.advance(ONE_DAY_MS);
    await t.api.call(useraction, 'UserRegister', registration(owner.email), { ip: nextIp() });
    expect(t.mailer.sent.filter((m) => m.to === owner.email)).toHaveLength(3);
  });

  it("a first registration's mail does not carry the name the registrant chose", async () => {
    const email = uniqueEmail('victim');
    const name = 'Your invoice is overdue, pay at http://pay.evil.example';
    expect((await t.api.call(useraction, 'UserRegister', registration(email, name))).status).toBe(200);
    const mail = t.mailer.lastTo(email);
    expect(mail?.link).toContain('/auth/verify/');
    for (const text of [mail?.text, mail?.html, mail?.subject]) {
      expect(text).not.toContain('evil.example');
      expect(text).not.toContain('invoice');
    }
  });
});

describe('common and breached passwords (deliverable 3)', () => {
  it.each(['Password1!', 'P@ssw0rd2024', 'Qwerty123!', 'Sunshine#1', 'Iloveyou!99'])(
    '%s is refused at registration, reset and change, naming the field and the rule',
    async (common) => {
      const email = uniqueEmail('common');
      const register = await t.api.call(useraction, 'UserRegister', {
        user: {
          email,
          password: common,
          name: 'Careless Person',
          year_born: 1990,
          country: 'France',
          termsagreed: true,
        },
      });
      expect(register.status).toBe(400);
      expect(register.body.error.Description).toBe(`user.password: ${COMMON_PASSWORD_MESSAGE}`);
      expect(t.mailer.lastTo(email)).toBeUndefined();

      const user = await seedUser(t);
      const ip = nextIp();
      const token = ((await login(user.email, user.password, ip)).body.token_pair as { access_token: string })
        .access_token;
      const change = await t.api.call(
        useraction,
        'UserUpdatePassword',
        { token, tokentype: 1, user: { email: user.email, password: user.password }, password: common },
        { ip },
      );
      expect(change.status).toBe(400);
      expect(change.body.error.Description).toBe(`password: ${COMMON_PASSWORD_MESSAGE}`);

      await t.api.call(useraction, 'UserForgotPassword', { user: { email: user.email } }, { ip });
      const resetToken = String(t.mailer.lastTo(user.email)?.link).split('/').at(-1);
      const reset = await t.api.call(useraction, 'UserChangePassword', {
        user: { email: user.email },
        token: resetToken,
        tokentype: 2,
        password: common,
      });
      expect(reset.status).toBe(400);
      expect(reset.body.error.Description).toBe(`password: ${COMMON_PASSWORD_MESSAGE}`);
      // the refused reset did not use up the link
      expect((await t.api.call(useraction, 'UserCheckToken', { token: resetToken, tokentype: 2 })).body.valid).toBe(
        true,
      );
    },
  );
});

describe('sign-in does only the writes it needs (issue 13)', () => {
  // Since decision 057 every attempt is counted before its password is checked, so a sign-in writes
  // the counters twice (counted, then given back); what it leaves is no failure anywhere.
  it('a sign-in leaves no failure counted, and a new session sets its expiry once', async () => {
    const user = await seedUser(t);
    const ip = nextIp();
    expect((await login(user.email, user.password, ip)).status).toBe(200);
    const rows = async () =>
      (await t.app.deps.db.select().from(loginFailures))
        .filter((r) => r.accountKey === accountKey(user.email))
        .map(({ source, failures, lockedUntil }) => ({ source, failures, lockedUntil }))
        .sort((x, y) => x.source.localeCompare(y.source));
    const left = [
      { source: '*', failures: 0, lockedUntil: null },
      { source: ip, failures: 0, lockedUntil: null },
    ];
    expect(await rows()).toEqual(left);
    t.clock.advance(60_000);
    const extend = vi.spyOn(authRepository, 'extendSession');
    try {
      expect((await login(user.email, user.password, ip)).status).toBe(200);
      expect(extend).not.toHaveBeenCalled();
    } finally {
      extend.mockRestore();
    }
    expect(await rows()).toEqual(left);
  });
});

describe('a burst of guesses at one account from many addresses (issue 33 item 2, docs/decisions/057)', () => {
  /** The defaults: 10 free failures an account, 5 an address. */
  const FREE = 10;
  const BURST = 100;
  let app: FastifyInstance;
  let client: Client;
  let csrf = '';

  beforeAll(async () => {
    // One proxy hop trusted, as behind a load balancer: each guess names its address in X-Forwarded-For.
    app = await buildApp({
      config: testConfig({ TRUST_PROXY: '1', LOGIN_ACCOUNT_FREE_FAILURES: String(FREE) }),
      database,
      clock: manualClock(),
      mailer: { mode: 'outbox', send: async () => {} },
      logger: false,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    client = createClient({ baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` });
    csrf = await client.csrf();
  });
  afterAll(() => app?.close());

  /** One sign-in over HTTP from `address`, through the trusted proxy. */
  const guess = (email: string, password: string, address: string) =>
    client.send(
      useraction.path,
      { action: 'login', user: { email, password } },
      {
        csrf,
        headers: { 'x-forwarded-for': address },
      },
    );

  /** Counts the passwords the hashing threads verify while `run` runs. */
  async function verifying<T>(run: () => Promise<T>): Promise<{ result: T; verified: HashJob[] }> {
    const spy = vi.spyOn(hashWorkers(), 'run');
    try {
      const result = await run();
      return { result, verified: spy.mock.calls.map(([job]) => job).filter((job) => job.op === 'verify') };
    } finally {
      spy.mockRestore();
    }
  }

  const tally = (statuses: number[]) =>
    statuses.reduce<Record<number, number>>((t, s) => Object.assign(t, { [s]: (t[s] ?? 0) + 1 }), {});

  it.each([
    ['an account', true],
    ['an email without an account', false],
  ])(
    `${BURST} concurrent guesses at %s from ${BURST} addresses verify at most ${FREE} + 1 passwords`,
    async (_label, exists) => {
      const email = exists ? (await seedUser({ app })).email : uniqueEmail('nobody');
      const { result, verified } = await verifying(() =>
        Promise.all(Array.from({ length: BURST }, () => guess(email, WRONG, nextIp()))),
      );
      expect(verified.length).toBeLessThanOrEqual(FREE + 1);
      // The free failures answer 401; the attempt past them is checked and starts the delay (423);
      // every other one is refused unchecked (423). Nothing else: no 5xx, no BUSY.
      expect(tally(result.map((r) => r.status))).toEqual({ 401: FREE, 423: BURST - FREE });
    },
  );

  it("the owner's own sign-ins never count, and neither do BUSY answers", async () => {
    const user = await seedUser({ app });
    // Signed in from five new addresses: none of it counts towards the account's free failures.
    for (let i = 0; i < 5; i++) expect((await guess(user.email, user.password, nextIp())).status).toBe(200);
    // Two attempts the server could not check (the hashing queue full): answered 503, not counted.
    const busy = vi.spyOn(hashWorkers(), 'run');
    busy.mockRejectedValue(new ApiError('BUSY', HASHING_BUSY, { retryAfterS: 1 }));
    try {
      for (let i = 0; i < 2; i++) expect((await guess(user.email, WRONG, nextIp())).status).toBe(503);
    } finally {
      busy.mockRestore();
    }
    // Every free failure is still there, and not one more.
    const statuses = [];
    for (let i = 0; i < FREE + 1; i++) statuses.push((await guess(user.email, WRONG, nextIp())).status);
    expect(tally(statuses)).toEqual({ 401: FREE, 423: 1 });
  });

  it('an attempt whose count PostgreSQL undid in a deadlock is counted again, not answered 500', async () => {
    const user = await seedUser({ app });
    const transaction = vi.spyOn(app.deps.db, 'transaction');
    // The first transaction, the attempt's count: undone as PostgreSQL undoes the victim of a deadlock.
    transaction.mockRejectedValueOnce(Object.assign(new Error('deadlock detected'), { code: '40P01' }));
    try {
      expect((await guess(user.email, user.password, nextIp())).status).toBe(200);
    } finally {
      transaction.mockRestore();
    }
  });

  it('a burst at the current password of UserUpdatePassword and UserDelete is bounded alike', async () => {
    const user = await seedUser({ app });
    const signedIn = await guess(user.email, user.password, nextIp());
    const token = (signedIn.json as { token_pair: { access_token: string } }).token_pair.access_token;
    const attempt = (i: number) =>
      client.send(
        useraction.path,
        i % 2
          ? { action: 'UserDelete', token, user: { email: user.email, password: WRONG } }
          : {
              action: 'UserUpdatePassword',
              token,
              tokentype: 1,
              user: { email: user.email, password: WRONG },
              password: 'Another-Pass-88%',
            },
        { csrf, headers: { 'x-forwarded-for': nextIp() } },
      );
    const { result, verified } = await verifying(() =>
      Promise.all(Array.from({ length: BURST }, (_, i) => attempt(i))),
    );
    expect(verified.length).toBeLessThanOrEqual(FREE + 1);
    expect(tally(result.map((r) => r.status))).toEqual({ 400: FREE, 423: BURST - FREE });
  });
});
