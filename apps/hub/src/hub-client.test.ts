import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientError } from '@portal/client';
import { ONE_DAY_S } from '@portal/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HubClient, simHardwareHash } from './hub-client.ts';
import { type Credentials, CredentialsStore } from './hub-credentials.ts';
import { sampleCredentials } from './hub-test-helpers.ts';

/**
 * The hub's client against a scripted portal: what it sends (CSRF first, Origin, bearer,
 * contract-checked body), how it keeps its session (refresh near expiry, rotated pair saved) and
 * how failures reach it (a ClientError whose kind comes from the code).
 */

const NOW_S = 1_800_000_000;
const PORTAL = 'http://portal.test';

/** An unsigned JWT: the client only reads `exp`, the server verifies. */
function jwt(claims: Record<string, unknown>): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'HS256' })}.${part(claims)}.sig`;
}

function credentials(accessExpS: number, refresh = 'refresh-1'): Credentials {
  return sampleCredentials({
    portal: PORTAL,
    received_at: NOW_S - 60,
    token_pair: {
      access_token: jwt({ exp: accessExpS, n: 'old' }),
      refresh_token: jwt({ exp: NOW_S + ONE_DAY_S, jti: refresh }),
      access_token_expires_in: 900,
      refresh_token_expires_in: 7 * ONE_DAY_S,
    },
  });
}

const OK = { Success: true, Code: 0, Description: 'OK' };
const fail = (Code: number, Description: string) => ({ error: { Success: false, Code, Description } });

interface Seen {
  method: string;
  path: string;
  headers: Headers;
  body: Record<string, unknown> | undefined;
}

type Answer = { status?: number; body: unknown } | 'network-error';

/** A portal that answers CSRF itself and hands each POST to `route`. */
function fakePortal(route: (seen: Seen) => Answer) {
  const seen: Seen[] = [];
  let csrfIssued = 0;
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const request: Seen = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      headers: new Headers(init?.headers),
      body: init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined,
    };
    seen.push(request);
    if (request.method === 'GET' && request.path === '/api/useraction') {
      csrfIssued += 1;
      return new Response(JSON.stringify({ error: OK }), { headers: { 'x-csrf-token': `csrf-${csrfIssued}` } });
    }
    const answer = route(request);
    if (answer === 'network-error') throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
  }) as typeof fetch;
  return { seen, fetch: fetchImpl, posts: () => seen.filter((s) => s.method === 'POST') };
}

const robot = { robot_id: 'r-1', make: 'Nao', model: 'NaoV2', join_date: 1 };
const newPair = {
  access_token: jwt({ exp: NOW_S + 900, n: 'new' }),
  refresh_token: jwt({ exp: NOW_S + ONE_DAY_S, jti: 'refresh-2' }),
  access_token_expires_in: 900,
  refresh_token_expires_in: 7 * ONE_DAY_S,
};

let dir: string;
let store: CredentialsStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hub-client-'));
  store = new CredentialsStore(dir);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function client(portal: ReturnType<typeof fakePortal>, session: Credentials = credentials(NOW_S + 600)) {
  return new HubClient({
    portal: PORTAL,
    credentials: session,
    store,
    fetch: portal.fetch,
    nowMs: () => NOW_S * 1000,
    sleep: async () => {},
  });
}

describe('a call', () => {
  it('fetches a CSRF token first, then posts the action with it and the bearer token', async () => {
    const portal = fakePortal(() => ({ body: { robot, error: OK } }));
    const hub = client(portal);
    const registered = await hub.registerRobot({ make: 'Nao', model: 'NaoV2', name: 'Desk' });

    expect(portal.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /api/useraction', 'POST /api/robots']);
    const [post] = portal.posts();
    expect(post?.headers.get('x-csrf-token')).toBe('csrf-1');
    // Outside a browser nothing sends an Origin; the server checks it on POSTs.
    expect(post?.headers.get('origin')).toBe(PORTAL);
    expect(post?.headers.get('authorization')).toBe(`Bearer ${credentials(NOW_S + 600).token_pair.access_token}`);
    expect(post?.body).toEqual({
      action: 'REGISTERSIM',
      email: 'ada@example.test',
      make: 'Nao',
      model: 'NaoV2',
      name: 'Desk',
      hardware_hash: simHardwareHash({ make: 'Nao', model: 'NaoV2', name: 'Desk' }),
    });
    // Parsed by the contract: its defaults fill what the server left out.
    expect(registered).toMatchObject({ robot_id: 'r-1', name: '', robot_state: { available: false } });
  });

  it('reuses the CSRF token, and fetches a new one once when the portal refuses it', async () => {
    let calls = 0;
    const portal = fakePortal(() => {
      calls += 1;
      return calls === 2
        ? { status: 403, body: fail(106, 'x-csrf-token: token expired') }
        : { body: { robot, error: OK } };
    });
    const hub = client(portal);
    await hub.setAvailability('r-1', true);
    await hub.setAvailability('r-1', false);
    expect(portal.posts().map((p) => p.headers.get('x-csrf-token'))).toEqual(['csrf-1', 'csrf-1', 'csrf-2']);
    expect(portal.posts()[2]?.body).toMatchObject({ robot_state: { available: false } });
  });

  it("throws a ClientError of the code's kind, with the server's Description and the field it names", async () => {
    const portal = fakePortal(() => ({ status: 404, body: fail(103, 'robot_id: no such robot') }));
    const err = await client(portal)
      .setAvailability('r-x', true)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientError);
    expect(err).toMatchObject({
      kind: 'not_found',
      code: 103,
      status: 404,
      description: 'robot_id: no such robot',
      fields: ['robot_id'],
    });
  });

  it('checks the request against the contract before sending it', async () => {
    const portal = fakePortal(() => ({ body: { error: OK } }));
    await expect(client(portal).pairRobot({ pair_code: 'ab', robot_id: 'r-1' })).rejects.toMatchObject({
      kind: 'validation',
      status: 0,
      fields: ['pair_code'],
    });
    expect(portal.seen).toHaveLength(0);
  });

  it('refuses an answer that does not match the contract', async () => {
    const portal = fakePortal(() => ({ body: { robot: { robot_id: 5 }, error: OK } }));
    await expect(client(portal).setAvailability('r-1', true)).rejects.toMatchObject({ kind: 'invalid_response' });
  });

  it('says when the portal cannot be reached', async () => {
    const portal = fakePortal(() => 'network-error');
    await expect(client(portal).setAvailability('r-1', true)).rejects.toMatchObject({ kind: 'network', status: 0 });
  });
});

describe('the access token', () => {
  it('is used as is while more than 30 s from expiry', async () => {
    const portal = fakePortal(() => ({ body: { robot, error: OK } }));
    await client(portal, credentials(NOW_S + 31)).setAvailability('r-1', true);
    expect(portal.posts().map((p) => p.path)).toEqual(['/api/robots']);
  });

  it('is refreshed within 30 s of expiry, and the rotated pair is saved', async () => {
    const portal = fakePortal((s) =>
      s.path === '/api/auth'
        ? { body: { tokenPair: newPair, valid: true, error: OK } }
        : { body: { robot, error: OK } },
    );
    const session = credentials(NOW_S + 30);
    await client(portal, session).setAvailability('r-1', true);

    const [refresh, call] = portal.posts();
    expect(refresh?.body).toEqual({
      action: 'refresh-access-token',
      tokenPair: { refresh_token: session.token_pair.refresh_token },
    });
    expect(refresh?.headers.get('authorization')).toBeNull();
    expect(call?.headers.get('authorization')).toBe(`Bearer ${newPair.access_token}`);
    expect(await store.load()).toEqual({ ...session, token_pair: newPair, received_at: NOW_S });
  });

  it('is refreshed once when the portal answers 401, then the call is retried', async () => {
    let robotCalls = 0;
    const portal = fakePortal((s) => {
      if (s.path === '/api/auth') return { body: { tokenPair: newPair, valid: true, error: OK } };
      robotCalls += 1;
      return robotCalls === 1
        ? { status: 401, body: fail(101, 'Authentication failed - invalid or expired token') }
        : { body: { robot, error: OK } };
    });
    await client(portal).setAvailability('r-1', true);
    expect(portal.posts().map((p) => p.path)).toEqual(['/api/robots', '/api/auth', '/api/robots']);
  });

  it('fails as unauthenticated when the portal refuses the refresh token, and saves nothing', async () => {
    const portal = fakePortal(() => ({
      status: 401,
      body: fail(101, 'Authentication failed - invalid or expired token'),
    }));
    await expect(client(portal, credentials(NOW_S)).setAvailability('r-1', true)).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
    expect(portal.posts().map((p) => p.path)).toEqual(['/api/auth']);
    expect(await store.load()).toBeUndefined();
  });

  it('refreshes once for concurrent calls, and saves the rotated pair before using it', async () => {
    let saved: Credentials | undefined;
    const portal = fakePortal((s) => {
      if (s.path === '/api/auth') return { body: { tokenPair: newPair, valid: true, error: OK } };
      // By the time the new access token is used, it is already on disk.
      expect(s.headers.get('authorization')).toBe(`Bearer ${newPair.access_token}`);
      return { body: { robot, error: OK } };
    });
    const hub = client(portal, credentials(NOW_S + 10));
    const originalSave = store.save.bind(store);
    store.save = async (c) => {
      saved = c;
      await originalSave(c);
    };
    await Promise.all([hub.setAvailability('r-1', true), hub.setAvailability('r-1', false)]);
    expect(portal.posts().filter((p) => p.path === '/api/auth')).toHaveLength(1);
    expect(saved?.token_pair).toEqual(newPair);
    expect(hub.session.token_pair).toEqual(newPair);
  });
});

describe('hub operations', () => {
  it('lists no licenses (code 23) and no robots as an empty list', async () => {
    const portal = fakePortal((s) =>
      s.path === '/api/license' ? { body: fail(23, 'No licenses') } : { body: { robots: [], error: OK } },
    );
    expect(await client(portal).listRobots()).toEqual([]);
  });

  it('joins licenses with their robots, and lists registered robots without a license', async () => {
    const license = (id: string, extra: Record<string, unknown>) => ({
      robot_license: { license_id: id, start_date: 0, duration: 0, end_date: 0 },
      robot_model: 'NaoV2',
      ...extra,
    });
    const portal = fakePortal((s) => {
      if (s.path === '/api/license')
        return {
          body: {
            user_licenses: {
              email: 'ada@example.test',
              robot_licenses: [
                license('l-1', { robot_id: 'r-1', paired_status: true }),
                license('l-2', { pair_code: 'ABCD2345' }),
              ],
              shared_robot_licenses: [],
            },
            error: OK,
          },
        };
      return {
        body: {
          robots: [
            { ...robot, name: 'Desk', robot_state: { available: true } },
            { ...robot, robot_id: 'r-2', name: 'Spare' },
          ],
          error: OK,
        },
      };
    });
    const rows = await client(portal).listRobots();
    // Shared licenses are asked about by robot; with none, only the own-robots question is sent.
    expect(portal.posts().map((p) => p.body?.action)).toEqual(['GetLicences', 'GetRobots']);
    expect(portal.posts()[1]?.body?.robot_licenses).toEqual([]);
    expect(rows).toEqual([
      expect.objectContaining({ license_id: 'l-1', name: 'Desk', paired: true, available: true, shared: false }),
      expect.objectContaining({ license_id: 'l-2', robot_id: '', paired: false, pair_code: 'ABCD2345' }),
      expect.objectContaining({ license_id: '', robot_id: 'r-2', name: 'Spare', paired: false }),
    ]);
  });

  it('retries a dial the portal never answered with the same idempotency key', async () => {
    let tries = 0;
    const portal = fakePortal(() => {
      tries += 1;
      return tries === 1 ? 'network-error' : { body: { user_time: { total_time: 10 }, error: OK } };
    });
    const time = await client(portal).dial('r-1', 5);
    const keys = portal.posts().map((p) => p.body?.idempotency_key);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(time.total_time).toBe(10);
  });
});
