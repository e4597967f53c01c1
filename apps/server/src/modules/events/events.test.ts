import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import {
  auth,
  ErrorCodes,
  EVENT_STREAM_PATH,
  events,
  type LiveEvent,
  license,
  ONE_DAY_S,
  ROBOT_REPORT_TIMEOUT_MS,
  robots,
  type StreamMessage,
  security,
  type TokenPair,
  useraction,
} from '@portal/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.ts';
import { type Database, fromPglite, openPostgres } from '../../db/client.ts';
import { manualClock } from '../../lib/clock.ts';
import { openStream, type TestStream } from '../../test/event-stream.ts';
import {
  as,
  closeApp,
  grantLicense,
  hardwareHash,
  nextIp,
  roboticsConfig,
  type SignedIn,
  signIn,
} from '../../test/fixtures.ts';
import {
  ApiClient,
  GOOD_PASSWORD,
  memoryMailer,
  seedUser,
  type TestApp,
  testApp,
  testConfig,
} from '../../test/harness.ts';
import { emptyPostgresDatabase, TEST_DATABASE_URL } from '../../test/postgres.ts';
import { authRepository } from '../auth/auth.repository.ts';
import { CLI_ACTOR } from '../operator/operator.service.ts';
import { robotRepository } from '../robots/robots.repository.ts';

/**
 * The live event transport (docs/decisions/031) over real HTTP, on two instances that share only
 * the database: PGlite, one instance of it for both apps; PostgreSQL, two pools (as scale-out.test.ts).
 * Writes go to A, streams are read on B, so every delivery here crossed the database.
 */

// The heartbeat at its longest (5 minutes): a stream that ends during a test was ended by what the
// test did, never by a sweep the test did not ask for.
const CONFIG = { EVENT_STREAMS_PER_USER: '2', EVENT_TICKET_TTL_S: '30', EVENT_HEARTBEAT_S: '300' };

let drop: (() => Promise<void>) | undefined;
let databaseUrl: string | undefined;
let databases: Database[] = [];
let a: TestApp;
let b: TestApp;
let baseB = '';
/** what B logged, one JSON line each */
const logLines: string[] = [];
/** every ticket and access token the tests used, none of which may reach a log */
const secrets: string[] = [];

/** An instance serving streams over real HTTP on a port of its own, on the database. */
async function listeningInstance(
  database: Database,
  logger: Parameters<typeof buildApp>[0]['logger'] = false,
): Promise<{ t: TestApp; base: string }> {
  const config = testConfig({ ...roboticsConfig(CONFIG), LOG_LEVEL: logger ? 'info' : 'silent' });
  const clock = manualClock();
  const mailer = memoryMailer();
  const app = await buildApp({ config, database, clock, mailer, logger });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    t: { app, clock, mailer, config, api: new ApiClient(app, clock) },
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
  };
}

beforeAll(async () => {
  if (TEST_DATABASE_URL) {
    const empty = await emptyPostgresDatabase(TEST_DATABASE_URL);
    drop = empty.drop;
    databaseUrl = empty.url;
    databases = [openPostgres(empty.url, 4), openPostgres(empty.url, 4)];
  } else {
    const shared = fromPglite(new PGlite());
    databases = [shared, shared];
  }
  await databases[0]?.migrate();
  a = await testApp(databases[0] as Database, roboticsConfig(CONFIG));
  // B logs at info, as production does, into an array the last test reads. Streams are read from B
  // over real HTTP; A is called in process.
  const listening = await listeningInstance(databases[1] as Database, {
    level: 'info',
    stream: { write: (line: string) => logLines.push(line) },
  });
  b = listening.t;
  baseB = listening.base;
});

afterAll(async () => {
  await Promise.all([a && closeApp(a), b && closeApp(b)]);
  await Promise.all([...new Set(databases)].map((d) => d.close()));
  await drop?.();
});

/** A ticket asked of `on` by the user. */
async function ticket(on: TestApp, user: SignedIn) {
  const res = await as(on, user, events)('OpenEventStream');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const body = res.body as unknown as { ticket: string; expires_in: number; stream_path: string };
  secrets.push(body.ticket, user.token);
  return body;
}

/** A stream of the user opened on B (or `base`; the ticket asked of `issuer`), once it says it is ready. */
async function streamOf(user: SignedIn, issuer: TestApp = b, base = baseB): Promise<TestStream> {
  const { stream_path } = await ticket(issuer, user);
  const stream = await openStream(`${base}${stream_path}`);
  expect(stream.status, stream.body).toBe(200);
  await stream.waitFor((m) => m.kind === 'ready');
  return stream;
}

const about = (kind: LiveEvent['kind'], ids: { robot_id?: string; license_id?: string }) => (m: StreamMessage) =>
  m.kind === kind &&
  (ids.robot_id === undefined || ('robot_id' in m && m.robot_id === ids.robot_id)) &&
  (ids.license_id === undefined || ('license_id' in m && m.license_id === ids.license_id));

/** A new portal session of the user, with its refresh token (to sign it out). */
async function login(email: string) {
  const answer = await a.api.client.call(useraction, 'login', { user: { email, password: GOOD_PASSWORD } });
  if (answer.target !== 'portal') throw new Error('signed in for the hub');
  return answer.token_pair;
}

async function registerRobot(user: SignedIn): Promise<string> {
  const res = await as(
    a,
    user,
    robots,
  )('REGISTERSIM', {
    make: 'Pepper',
    model: 'Pepper',
    name: 'Robbie',
    hardware_hash: hardwareHash(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.robot as { robot_id: string }).robot_id;
}

describe('stream tickets', () => {
  it('opens one stream, once: a used ticket, a made-up one and none are refused', async () => {
    const user = await signIn(a);
    const { ticket: issued, stream_path, expires_in } = await ticket(a, user);
    expect(expires_in).toBe(30);
    expect(stream_path).toBe(`${EVENT_STREAM_PATH}?ticket=${issued}`);
    expect(stream_path).not.toContain(user.token);

    // issued by A, redeemed by B: tickets live in the database
    const first = await openStream(`${baseB}${stream_path}`);
    expect(first.status).toBe(200);
    expect(await first.waitFor(() => true)).toEqual({ kind: 'ready' });
    first.close();

    for (const path of [stream_path, `${EVENT_STREAM_PATH}?ticket=not-a-ticket`, EVENT_STREAM_PATH]) {
      const refused = await openStream(`${baseB}${path}`);
      await refused.ended;
      expect(refused.status, path).toBe(401);
      expect(JSON.parse(refused.body).error.Code).toBe(ErrorCodes.UNAUTHENTICATED.code);
    }
  });

  it('expires after EVENT_TICKET_TTL_S', async () => {
    const user = await signIn(b);
    const { stream_path } = await ticket(b, user);
    b.clock.advance(31_000);
    const late = await openStream(`${baseB}${stream_path}`);
    await late.ended;
    expect(late.status).toBe(401);
  });

  it("is not given for another user's email, nor to a signed-out session", async () => {
    const user = await signIn(a);
    const other = await signIn(a);
    const res = await as(a, user, events)('OpenEventStream', { email: other.email });
    expect(res.status).toBe(403);

    const pair = await login(user.email);
    const session = { ...user, token: pair.access_token };
    const { stream_path } = await ticket(a, session);
    await a.api.client.call(useraction, 'logout', { token_pair: pair, user: { email: user.email } });
    // A ticket of a session that ended meanwhile opens nothing.
    const dead = await openStream(`${baseB}${stream_path}`);
    await dead.ended;
    expect(dead.status).toBe(401);
    expect((await as(a, session, events)('OpenEventStream')).status).toBe(401);
  });

  it('holds at most EVENT_STREAMS_PER_USER streams of one user on an instance', async () => {
    const user = await signIn(a);
    const open = [await streamOf(user), await streamOf(user)];
    const { stream_path } = await ticket(b, user);
    const third = await openStream(`${baseB}${stream_path}`);
    await third.ended;
    expect(third.status).toBe(429);
    expect(JSON.parse(third.body).error.Code).toBe(ErrorCodes.RATE_LIMITED.code);
    for (const s of open) s.close();
  });
});

describe('events', () => {
  it('reach the owner and the sharee on the other instance, and never a stranger', async () => {
    const owner = await signIn(a);
    const sharee = await signIn(a);
    const stranger = await signIn(a);
    const [ownerStream, shareeStream, strangerStream] = await Promise.all([
      streamOf(owner),
      streamOf(sharee),
      streamOf(stranger),
    ]);

    const robotId = await registerRobot(owner);
    await ownerStream.waitFor(about('robot.registered', { robot_id: robotId }));
    const { licenseId, code } = await grantLicense(a, owner.id);
    await ownerStream.waitFor(about('license.granted', { license_id: licenseId }));
    expect((await as(a, owner, license, nextIp())('PAIRROBOT', { pair_code: code, robot_id: robotId })).status).toBe(
      200,
    );
    await ownerStream.waitFor(about('license.paired', { license_id: licenseId, robot_id: robotId }));

    const shared = await as(
      a,
      owner,
      license,
    )('SHARELICENSE', {
      license_id: licenseId,
      recipient_email: sharee.email,
      duration: ONE_DAY_S,
    });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    for (const s of [ownerStream, shareeStream]) await s.waitFor(about('share.started', { license_id: licenseId }));

    const update = as(a, owner, robots);
    expect((await update('UPDATEROBOT', { robot_id: robotId, robot_state: { available: true } })).status).toBe(200);
    for (const s of [ownerStream, shareeStream])
      expect(await s.waitFor(about('robot.availability', { robot_id: robotId }))).toEqual({
        kind: 'robot.availability',
        robot_id: robotId,
        available: true,
      });

    const stopped = await as(
      a,
      owner,
      license,
    )('STOPSHAREDLICENSE', {
      license_id: licenseId,
      recipient_email: sharee.email,
    });
    expect(stopped.status).toBe(200);
    for (const s of [ownerStream, shareeStream]) await s.waitFor(about('share.ended', { license_id: licenseId }));

    // The share is over: the next change reaches the owner only.
    expect((await as(a, owner, license)('UNPAIR', { license_id: licenseId })).status).toBe(200);
    await ownerStream.waitFor(about('license.unpaired', { license_id: licenseId }));

    // The sentinel: the stranger's own event arrives after all of the above, and is all it got.
    const own = await registerRobot(stranger);
    await strangerStream.waitFor(about('robot.registered', { robot_id: own }));
    expect(strangerStream.messages).toEqual([{ kind: 'ready' }, { kind: 'robot.registered', robot_id: own }]);
    expect(shareeStream.messages.map((m) => m.kind)).not.toContain('license.unpaired');
    for (const s of [ownerStream, shareeStream, strangerStream]) s.close();
  });

  it('tell the pages watching a robot when its hub goes silent, once, and when it reports again (issue 32 item 5)', async () => {
    const owner = await signIn(a);
    const robotId = await registerRobot(owner);
    const stream = await streamOf(owner);
    const update = as(a, owner, robots);
    expect((await update('UPDATEROBOT', { robot_id: robotId, robot_state: { available: true } })).status).toBe(200);
    await stream.waitFor(about('robot.availability', { robot_id: robotId }));
    const mark = stream.messages.length;

    // Within the limit nothing is said; past it, the sweep says Inactive, and only once. (Both
    // instances' clocks move together: later tests compare times across them.)
    const advance = (ms: number) => {
      for (const t of [a, b]) t.clock.advance(ms);
    };
    const sweep = () => a.app.services.robots.sweepSilent();
    advance(ROBOT_REPORT_TIMEOUT_MS - 1_000);
    expect(await sweep()).not.toContain(robotId);
    advance(2_000);
    expect(await sweep()).toContain(robotId);
    await stream.waitFor((m) => m.kind === 'robot.availability' && m.available === false);
    advance(30_000);
    expect(await sweep()).not.toContain(robotId);

    // A report that leaves the stored state as it was (a rename) still brings it back: Active again.
    expect((await update('UPDATEROBOT', { robot_id: robotId, name: 'Back online' })).status).toBe(200);
    await stream.waitFor((m) => m.kind === 'robot.availability' && m.available === true);
    // The sentinel: a rename also publishes robot.updated, after the availability.
    await stream.waitFor(about('robot.updated', { robot_id: robotId }));
    expect(stream.messages.slice(mark)).toEqual([
      { kind: 'robot.availability', robot_id: robotId, available: false },
      { kind: 'robot.availability', robot_id: robotId, available: true },
      { kind: 'robot.updated', robot_id: robotId },
    ]);
    stream.close();
  });

  it('of a write that rolled back are never delivered', async () => {
    const owner = await signIn(a);
    const robotId = await registerRobot(owner);
    const stream = await streamOf(owner);
    const mark = stream.messages.length;
    await expect(
      a.app.deps.db.transaction(async (tx) => {
        await robotRepository.update(tx, robotId, owner.id, { name: 'Ghost', now: a.clock.now() });
        await a.app.services.events.publish(tx, { kind: 'robot.updated', robot_id: robotId });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // The sentinel, published after: once it is here, the rolled-back event would have been too.
    expect(
      (await as(a, owner, robots)('UPDATEROBOT', { robot_id: robotId, robot_state: { available: true } })).status,
    ).toBe(200);
    await stream.waitFor(about('robot.availability', { robot_id: robotId }));
    expect(stream.messages.slice(mark)).toEqual([{ kind: 'robot.availability', robot_id: robotId, available: true }]);
    stream.close();
  });

  it('do not write a ticket or a token into the log', () => {
    const joined = logLines.join('\n');
    expect(joined).toContain(EVENT_STREAM_PATH);
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(joined).not.toContain(secret);
  });
});

describe('a stream ends with its session at the heartbeat', () => {
  it('when it was revoked unheard of (a listener reconnecting), and when it expires; live ones get heartbeats meanwhile', async () => {
    const user = await seedUser(a);
    const sessions = [];
    for (let i = 0; i < 2; i++) {
      const pair = await login(user.email);
      sessions.push({ pair, signedIn: { id: user.id, email: user.email, token: pair.access_token } });
    }
    const [revoked, expiring] = [await streamOf(sessions[0]!.signedIn), await streamOf(sessions[1]!.signedIn)];
    // Revoked in the database without the announcement: only the sweep can find it.
    const sid = JSON.parse(Buffer.from(sessions[0]!.pair.access_token.split('.')[1] ?? '', 'base64url').toString()).sid;
    await authRepository.revokeSession(a.app.deps.db, sid, 'test: not announced', a.clock.now());
    const beat = expiring.nextHeartbeat();
    await b.app.services.events.sweep();
    await revoked.ended;
    await beat;

    b.clock.advance(b.config.REFRESH_TOKEN_TTL_S * 1000 + 1000);
    await b.app.services.events.sweep();
    await expiring.ended;
  });
});

describe('a session that ends loses its streams at once, on every instance (issue 33)', () => {
  interface Session {
    pair: TokenPair;
    signedIn: SignedIn;
    /** the session's id, as its access token names it */
    sid: string;
  }
  interface Sessions {
    user: { id: string; email: string };
    /** the session the action ends, whose stream is open on B */
    victim: Session;
    /** another session of the same user, the one acting where it is signed in */
    other: Session;
  }

  const sidOf = (token: string) =>
    (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sid: string }).sid;

  async function session(user: { id: string; email: string }): Promise<Session> {
    const pair = await login(user.email);
    return { pair, signedIn: { ...user, token: pair.access_token }, sid: sidOf(pair.access_token) };
  }

  const ok = async (answer: Promise<{ status: number; body: unknown }>) => {
    const res = await answer;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const NEW_PASSWORD = 'Another-Pass-88%';

  // Each way a session ends, done on A; whether the user's other session lives on.
  const LIVES_ON = 'the other session lives on';
  const BOTH_END = 'both sessions end';
  const ways: [string, typeof LIVES_ON | typeof BOTH_END, (s: Sessions) => Promise<unknown>][] = [
    [
      'logout',
      LIVES_ON,
      (s) => a.api.client.call(useraction, 'logout', { token_pair: s.victim.pair, user: { email: s.user.email } }),
    ],
    [
      'revoke-token-pair',
      LIVES_ON,
      (s) =>
        a.api.client.call(auth, 'revoke-token-pair', { tokenPair: { refresh_token: s.victim.pair.refresh_token } }),
    ],
    [
      'RevokeSession from the other session',
      LIVES_ON,
      (s) => ok(as(a, s.other.signedIn, security)('RevokeSession', { sign_in_id: s.victim.sid })),
    ],
    [
      'RevokeOtherSessions from the other session',
      LIVES_ON,
      (s) => ok(as(a, s.other.signedIn, security)('RevokeOtherSessions')),
    ],
    [
      'UserUpdatePassword from the other session',
      LIVES_ON,
      (s) =>
        ok(
          a.api.call(useraction, 'UserUpdatePassword', {
            token: s.other.signedIn.token,
            tokentype: 1,
            user: { email: s.user.email, password: GOOD_PASSWORD },
            password: NEW_PASSWORD,
          }),
        ),
    ],
    [
      'a rotated refresh token used again after the grace window',
      LIVES_ON,
      async (s) => {
        const refresh = () =>
          a.api.call(auth, 'refresh-access-token', { tokenPair: { refresh_token: s.victim.pair.refresh_token } });
        await ok(refresh());
        a.clock.advance((a.config.REFRESH_REUSE_GRACE_S + 1) * 1000);
        expect((await refresh()).status).toBe(401);
      },
    ],
    [
      'a password reset',
      BOTH_END,
      async (s) => {
        await ok(a.api.call(useraction, 'UserForgotPassword', { user: { email: s.user.email } }, { ip: nextIp() }));
        const token = String(a.mailer.lastTo(s.user.email)?.link).split('/').at(-1);
        await ok(
          a.api.call(useraction, 'UserChangePassword', {
            user: { email: s.user.email },
            token,
            tokentype: 2,
            password: NEW_PASSWORD,
          }),
        );
      },
    ],
    [
      'an operator disabling the account',
      BOTH_END,
      (s) => a.app.services.operators.setDisabled(s.user, true, CLI_ACTOR),
    ],
    [
      'an operator signing the account out',
      BOTH_END,
      (s) => a.app.services.operators.revokeSessions(s.user, CLI_ACTOR),
    ],
    [
      'UserDelete from the other session',
      BOTH_END,
      (s) =>
        ok(
          a.api.call(useraction, 'UserDelete', {
            token: s.other.signedIn.token,
            user: { email: s.user.email, password: GOOD_PASSWORD },
          }),
        ),
    ],
  ];

  // Earlier tests move B's clock; the sessions here are A's, so B reads the time A does.
  beforeEach(() => b.clock.set(a.clock.now()));

  it.each(ways)('%s: its stream ends and its access token is refused at once; %s', async (_name, outcome, act) => {
    const seeded = await seedUser(a);
    const user = { id: seeded.id, email: seeded.email };
    const [victim, other] = [await session(user), await session(user)];
    const [victimStream, otherStream] = [await streamOf(victim.signedIn), await streamOf(other.signedIn)];

    await act({ user, victim, other });
    // No heartbeat runs meanwhile (CONFIG): the announcement ends the stream on B.
    await victimStream.ended;
    expect((await as(a, victim.signedIn, events)('OpenEventStream')).status).toBe(401);

    if (outcome === BOTH_END) await otherStream.ended;
    else {
      // The other session's stream is still served: an event sent after the end reaches it.
      const robotId = await registerRobot(other.signedIn);
      await otherStream.waitFor(about('robot.registered', { robot_id: robotId }));
      otherStream.close();
    }
  });

  it('a stream whose ticket was redeemed as its session ended is ended as it is attached', async () => {
    const user = await seedUser(a);
    const { sid } = await session(user);
    const service = b.app.services.events;
    service.endSessions(JSON.stringify({ s: [sid] }));
    let ended = false;
    const written: string[] = [];
    service.attach({
      userId: user.id,
      sessionId: sid,
      write: (text) => written.push(text),
      end: () => {
        ended = true;
      },
    });
    expect({ ended, written }).toEqual({ ended: true, written: [] });
  });
});

describe('heartbeats', () => {
  it('run whatever the number of open streams: a stream opened after an idle period gets one', async () => {
    // The heartbeat is an interval: faked, so the test moves it instead of waiting for it.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    // An instance of its own, whose heartbeat starts under the fake interval.
    const database = databaseUrl ? openPostgres(databaseUrl, 2) : (databases[1] as Database);
    const c = await listeningInstance(database);
    try {
      const beatMs = c.t.config.EVENT_HEARTBEAT_S * 1000;
      // Idle: beats with no stream open.
      await vi.advanceTimersByTimeAsync(3 * beatMs);
      const user = await signIn(a);
      const stream = await streamOf(user, a, c.base);
      const beat = stream.nextHeartbeat();
      await vi.advanceTimersByTimeAsync(beatMs);
      await beat;
      expect(stream.heartbeats).toBe(1);
      stream.close();
    } finally {
      await closeApp(c.t);
      if (database !== databases[1]) await database.close();
      vi.useRealTimers();
    }
  });
});
