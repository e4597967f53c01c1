import {
  admin,
  ErrorCodes,
  OK,
  ONE_DAY_S,
  OPERATOR_HEADER,
  operator,
  robots,
  time,
  useraction,
} from '@portal/contract';
import { describe, expect, it, vi } from 'vitest';
import { CSRF_HEADER, createClient, type Tokens } from './client.ts';
import { ClientError, splitDescription } from './client-error.ts';
import { refreshingTokens, type StoredTokens } from './tokens.ts';

interface Post {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

type Reply = { status?: number; body?: unknown; text?: string; stream?: ReadableStream<Uint8Array> } | 'network';

/**
 * A stand-in for the portal over `fetch`: GET /api/useraction answers a numbered CSRF token, each
 * POST is recorded and answered by `reply`.
 */
function portal(reply: (post: Post, index: number) => Reply) {
  const posts: Post[] = [];
  let csrfIssued = 0;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    if ((init?.method ?? 'GET') === 'GET') {
      csrfIssued += 1;
      return new Response('{}', { status: 200, headers: { [CSRF_HEADER]: `csrf-${csrfIssued}` } });
    }
    const post: Post = {
      url,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: JSON.parse(String(init?.body)),
    };
    posts.push(post);
    const r = reply(post, posts.length - 1);
    if (r === 'network') throw new TypeError('fetch failed');
    return new Response(r.stream ?? r.text ?? JSON.stringify(r.body ?? { error: OK }), { status: r.status ?? 200 });
  };
  return { fetch: fetch as typeof globalThis.fetch, posts, csrfIssued: () => csrfIssued };
}

const fail = (code: number, description: string) => ({
  error: { Success: false, Code: code, Description: description },
});
const userTime = { user_time: {}, error: OK };

/** Tokens whose refresh answers `fresh-N`, or fails with `refuse`. */
function fakeTokens(opts: { access?: string; refuse?: ClientError } = {}): Tokens & { refreshed: string[] } {
  const refreshed: string[] = [];
  return {
    refreshed,
    access: async () => {
      if (!opts.access) throw new ClientError({ kind: 'unauthenticated', status: 0, description: 'none' });
      return opts.access;
    },
    refresh: async (rejected) => {
      refreshed.push(rejected);
      if (opts.refuse) throw opts.refuse;
      return `fresh-${refreshed.length}`;
    },
  };
}

async function failure(promise: Promise<unknown>): Promise<ClientError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ClientError);
  return err as ClientError;
}

describe('the call protocol', () => {
  it('fetches a CSRF token before each POST and sends the action with it', async () => {
    const p = portal(() => ({ body: { error: OK } }));
    const client = createClient({ baseUrl: 'http://portal.test/', fetch: p.fetch });
    await client.call(useraction, 'UserForgotPassword', { user: { email: 'a@example.test' } });
    await client.call(useraction, 'UserForgotPassword', { user: { email: 'a@example.test' } });
    expect(p.posts.map((x) => [x.url, x.headers[CSRF_HEADER], x.body.action])).toEqual([
      ['http://portal.test/api/useraction', 'csrf-1', 'UserForgotPassword'],
      ['http://portal.test/api/useraction', 'csrf-2', 'UserForgotPassword'],
    ]);
  });

  it('puts the access token in the body for /api/useraction and in a Bearer header elsewhere', async () => {
    const p = portal((post) => ({ body: post.url.endsWith('/api/dial_manager') ? userTime : { error: OK } }));
    const client = createClient({ fetch: p.fetch, tokens: fakeTokens({ access: 'acc' }) });
    await client.call(useraction, 'UserDelete', { user: { email: 'a@example.test', password: 'x' } });
    await client.call(time, 'CHECK_REMAINING_TIME', { email: 'a@example.test' });
    expect(p.posts[0]?.body.token).toBe('acc');
    expect(p.posts[0]?.headers.authorization).toBeUndefined();
    expect(p.posts[1]?.body.token).toBeUndefined();
    expect(p.posts[1]?.headers.authorization).toBe('Bearer acc');
  });

  it('sends an Origin header when told to (callers outside a browser)', async () => {
    const p = portal(() => ({ body: { error: OK } }));
    await createClient({ fetch: p.fetch, origin: 'http://portal.test' }).call(useraction, 'UserForgotPassword', {
      user: { email: 'a@example.test' },
    });
    expect(p.posts[0]?.headers.origin).toBe('http://portal.test');
  });

  it('answers the parsed, typed response', async () => {
    const p = portal(() => ({ body: { robots: [], robot_licenses: [], error: OK } }));
    const res = await createClient({ fetch: p.fetch, tokens: fakeTokens({ access: 'a' }) }).call(robots, 'GetRobots', {
      email: 'a@example.test',
      robot_licenses: [],
    });
    expect(res.robots).toEqual([]);
    expect(res.error.Success).toBe(true);
  });
});

describe('operator actions', () => {
  const body = { email: 'a@x.test', amount: 2 };
  it('carry the operator credential and no session', async () => {
    const p = portal(() => ({ body: { user_slot_amount: 2, error: OK } }));
    await createClient({ fetch: p.fetch, operatorToken: 'op' }).call(operator, 'SetSlotAmount', body);
    expect(p.posts[0]?.headers[OPERATOR_HEADER]).toBe('op');
    expect(p.posts[0]?.headers.authorization).toBeUndefined();
  });

  it('are not sent without one', async () => {
    const p = portal(() => ({ body: { error: OK } }));
    const err = await failure(createClient({ fetch: p.fetch }).call(operator, 'SetSlotAmount', body));
    expect([err.kind, p.posts.length]).toEqual(['unauthenticated', 0]);
  });
});

describe('staff actions (/api/admin)', () => {
  const keys = { keys: [], legacy_key_set: false, error: OK };
  const unknownRoute = { status: 404, body: fail(ErrorCodes.NOT_FOUND.code, 'No route for POST /api/admin') };

  it('carry the session when the client has one, and no operator header', async () => {
    const p = portal(() => ({ body: keys }));
    await createClient({ fetch: p.fetch, tokens: fakeTokens({ access: 'acc' }), operatorToken: 'op' }).call(
      admin,
      'ListApiKeys',
      {},
    );
    expect([p.posts[0]?.headers.authorization, p.posts[0]?.headers[OPERATOR_HEADER]]).toEqual([
      'Bearer acc',
      undefined,
    ]);
  });

  it('carry the API key when the client has no session, and are not sent with neither', async () => {
    const p = portal(() => ({ body: keys }));
    await createClient({ fetch: p.fetch, operatorToken: 'rpk_key' }).call(admin, 'ListApiKeys', {});
    expect([p.posts[0]?.headers.authorization, p.posts[0]?.headers[OPERATOR_HEADER]]).toEqual([undefined, 'rpk_key']);
    const err = await failure(createClient({ fetch: p.fetch }).call(admin, 'ListApiKeys', {}));
    expect([err.kind, p.posts.length]).toEqual(['unauthenticated', 1]);
  });

  it('refresh the session once on the 404 an expired staff token gets, then give up', async () => {
    const p = portal((post) => (post.headers.authorization === 'Bearer fresh-1' ? { body: keys } : unknownRoute));
    const tokens = fakeTokens({ access: 'stale' });
    const res = await createClient({ fetch: p.fetch, tokens }).call(admin, 'ListApiKeys', {});
    expect([res.legacy_key_set, tokens.refreshed]).toEqual([false, ['stale']]);

    const always = portal(() => unknownRoute);
    const again = fakeTokens({ access: 'stale' });
    const err = await failure(createClient({ fetch: always.fetch, tokens: again }).call(admin, 'ListApiKeys', {}));
    expect([err.status, again.refreshed.length, always.posts.length]).toEqual([404, 1, 2]);
  });

  it('do not refresh on a 403 for the role (a fresh token has the same role)', async () => {
    const p = portal(() => ({ status: 403, body: fail(ErrorCodes.FORBIDDEN.code, 'role: needs admin') }));
    const tokens = fakeTokens({ access: 'acc' });
    const err = await failure(createClient({ fetch: p.fetch, tokens }).call(admin, 'ListApiKeys', {}));
    expect([err.status, tokens.refreshed.length, p.posts.length]).toEqual([403, 0, 1]);
  });
});

describe('splitDescription', () => {
  it.each([
    ['user.password: Current password is incorrect', 'Current password is incorrect', ['user.password']],
    ['a: rule one; b.c[0]: rule two', 'rule one rule two', ['a', 'b.c[0]']],
    ['x: same; y: same', 'same', ['x', 'y']],
    ['Invalid email or password', 'Invalid email or password', []],
    ['note: see https://example.test', 'see https://example.test', ['note']],
  ])('%s', (description, message, fields) => {
    expect(splitDescription(description)).toEqual({ message, fields });
  });
});

describe('failures are told apart by kind, never by message', () => {
  it.each([
    ['a wrong password', 401, ErrorCodes.UNAUTHENTICATED.code, 'unauthenticated'],
    ['an unverified email', 403, ErrorCodes.EMAIL_NOT_VERIFIED.code, 'unverified'],
    ['a locked account', 423, ErrorCodes.ACCOUNT_LOCKED.code, 'locked'],
    ['a refused field', 400, ErrorCodes.VALIDATION.code, 'validation'],
    ['a rate limit', 429, ErrorCodes.RATE_LIMITED.code, 'rate_limited'],
    ['an existing email', 409, ErrorCodes.EMAIL_EXISTS.code, 'conflict'],
    ['no licenses (200, code 23)', 200, ErrorCodes.NO_LICENSES.code, 'empty'],
    ['a server failure', 500, ErrorCodes.INTERNAL.code, 'server'],
    ['a busy server (503, transient)', 503, ErrorCodes.BUSY.code, 'server'],
    ['an unknown code, by status', 404, 999, 'not_found'],
  ] as const)('%s', async (_label, status, code, kind) => {
    const p = portal(() => ({ status, body: fail(code, 'user.password: some rule') }));
    const err = await failure(
      createClient({ fetch: p.fetch }).call(useraction, 'login', { user: { email: 'a@example.test', password: 'p' } }),
    );
    expect({ kind: err.kind, status: err.status, code: err.code }).toEqual({ kind, status, code });
    expect(err.message).toBe('some rule');
    expect(err.fields).toEqual(['user.password']);
  });

  it('no answer at all is `network`', async () => {
    const p = portal(() => 'network');
    const err = await failure(
      createClient({ fetch: p.fetch }).call(useraction, 'UserForgotPassword', { user: { email: 'a@example.test' } }),
    );
    expect([err.kind, err.status, err.message]).toEqual(['network', 0, 'No response received from server']);
  });

  describe('an answer not read to its end is `network`: no answer, so it refuses nothing', () => {
    const selfAnswer = JSON.stringify({ user: {}, token_pair: {}, error: OK });
    /** The first half of get-self's answer, then the read fails with `reason`. */
    const cutOff = (reason: unknown) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(selfAnswer.slice(0, selfAnswer.length / 2)));
          controller.error(reason);
        },
      });

    it.each([
      // What the browser does to the reads of a page it leaves (a navigation mid-answer).
      ['the page abandoned it mid-body', new DOMException('The operation was aborted.', 'AbortError')],
      // What fetch does when the connection closes before the body's end.
      ['its body was cut off', new TypeError('terminated')],
    ])('a get-self whose answer came with a 200 but %s', async (_label, reason) => {
      const p = portal(() => ({ stream: cutOff(reason) }));
      const err = await failure(
        createClient({ fetch: p.fetch }).call(useraction, 'get-self', { token_pair: { refresh_token: 'r' } }),
      );
      expect([err.kind, err.status, err.message]).toEqual(['network', 0, 'No response received from server']);
      expect(err.call).toBe('/api/useraction get-self');
    });

    it('a CSRF GET cut off mid-body is `network` too', async () => {
      const p = portal(() => ({ body: { error: OK } }));
      const fetch = (async (input, init) =>
        (init?.method ?? 'GET') === 'GET'
          ? new Response(cutOff(new TypeError('terminated')), { headers: { [CSRF_HEADER]: 'csrf-1' } })
          : p.fetch(input, init)) as typeof globalThis.fetch;
      const err = await failure(
        createClient({ fetch }).call(useraction, 'get-self', { token_pair: { refresh_token: 'r' } }),
      );
      expect(err.kind).toBe('network');
      expect(p.posts).toEqual([]);
    });
  });

  it("a CSRF GET refused in the contract's shape fails with the server's error, not the missing header", async () => {
    const description = "host: 127.0.0.1:3000 is not this portal's address: use http://localhost:3000";
    const fetch = (async () =>
      new Response(JSON.stringify(fail(ErrorCodes.FORBIDDEN.code, description)), {
        status: 421,
      })) as typeof globalThis.fetch;
    const err = await failure(
      createClient({ fetch }).call(useraction, 'UserForgotPassword', { user: { email: 'a@x.test' } }),
    );
    expect([err.kind, err.status, err.code, err.description]).toEqual([
      'forbidden',
      421,
      ErrorCodes.FORBIDDEN.code,
      description,
    ]);
    expect(err.message).toBe("127.0.0.1:3000 is not this portal's address: use http://localhost:3000");
    // Without an error object it is still the missing header.
    const bare = (async () => new Response('<html></html>', { status: 404 })) as typeof globalThis.fetch;
    const missing = await failure(createClient({ fetch: bare }).csrf());
    expect([missing.kind, missing.message]).toEqual([
      'invalid_response',
      'No CSRF token in the answer to GET /api/useraction (HTTP 404)',
    ]);
  });

  it.each([
    ['a body that is not JSON', 200, 'not json', 'invalid_response'],
    ['a proxy error page', 502, '<html>bad gateway</html>', 'server'],
    ['an answer that is not the contract', 200, JSON.stringify({ robots: 'many', error: OK }), 'invalid_response'],
  ])('%s', async (_label, status, text, kind) => {
    const p = portal(() => ({ status, text }));
    const err = await failure(
      createClient({ fetch: p.fetch, tokens: fakeTokens({ access: 'a' }) }).call(robots, 'GetRobots', {
        email: 'a@example.test',
        robot_licenses: [],
      }),
    );
    expect(err.kind).toBe(kind);
  });

  it('a signed-in call without a session fails before anything is sent', async () => {
    const p = portal(() => ({ body: userTime }));
    const err = await failure(
      createClient({ fetch: p.fetch }).call(time, 'CHECK_REMAINING_TIME', { email: 'a@x.test' }),
    );
    expect(err.kind).toBe('unauthenticated');
    expect(p.posts).toEqual([]);
  });

  it('a request the contract refuses never leaves, when validation is on', async () => {
    const p = portal(() => ({ body: { error: OK } }));
    const err = await failure(
      createClient({ fetch: p.fetch, validateRequests: true }).call(useraction, 'UserForgotPassword', {
        user: { email: 'not an email' },
      }),
    );
    expect([err.kind, err.fields]).toEqual(['validation', ['user.email']]);
    expect(p.posts).toEqual([]);
  });
});

describe('refresh and retry', () => {
  it.each([
    ['a 401', 401, ErrorCodes.UNAUTHENTICATED.code, true],
    ['a 403', 403, ErrorCodes.FORBIDDEN.code, true],
    ['code 32 (unverified)', 403, ErrorCodes.EMAIL_NOT_VERIFIED.code, false],
    ['a 400', 400, ErrorCodes.VALIDATION.code, false],
    // The payment provider's failure is not the session's (docs/decisions/064).
    ['a 502 from the payment provider', 502, ErrorCodes.UNAVAILABLE.code, false],
    ['a 503 from the payment provider', 503, ErrorCodes.UNAVAILABLE.code, false],
  ])('%s refreshes once and retries: %s', async (_label, status, code, retried) => {
    const p = portal((_post, i) => (i === 0 ? { status, body: fail(code, 'no') } : { body: userTime }));
    const tokens = fakeTokens({ access: 'old' });
    const call = createClient({ fetch: p.fetch, tokens }).call(time, 'CHECK_REMAINING_TIME', { email: 'a@x.test' });
    if (retried) {
      await call;
      expect(tokens.refreshed).toEqual(['old']);
      expect(p.posts.map((x) => x.headers.authorization)).toEqual(['Bearer old', 'Bearer fresh-1']);
    } else {
      await failure(call);
      expect(tokens.refreshed).toEqual([]);
      expect(p.posts).toHaveLength(1);
    }
  });

  it('retries only once: a second 401 is the answer', async () => {
    const p = portal(() => ({ status: 401, body: fail(ErrorCodes.UNAUTHENTICATED.code, 'expired') }));
    const tokens = fakeTokens({ access: 'old' });
    const err = await failure(
      createClient({ fetch: p.fetch, tokens }).call(time, 'CHECK_REMAINING_TIME', { email: 'a@x.test' }),
    );
    expect(err.kind).toBe('unauthenticated');
    expect(p.posts).toHaveLength(2);
    expect(tokens.refreshed).toHaveLength(1);
  });

  it('a refused CSRF token is fetched again once, without refreshing the session', async () => {
    const p = portal((_post, i) =>
      i === 0 ? { status: 403, body: fail(ErrorCodes.CSRF.code, 'x') } : { body: userTime },
    );
    const tokens = fakeTokens({ access: 'a' });
    await createClient({ fetch: p.fetch, tokens }).call(time, 'CHECK_REMAINING_TIME', { email: 'a@x.test' });
    expect(p.posts.map((x) => x.headers[CSRF_HEADER])).toEqual(['csrf-1', 'csrf-2']);
    expect(tokens.refreshed).toEqual([]);
  });

  it.each([
    {
      name: 'a token fetched ahead goes with the first POST, and no GET is made for it',
      ahead: () => Promise.resolve('ahead'),
      first: { body: userTime },
      sent: ['ahead'],
      gets: 0,
    },
    {
      name: 'a token ahead the server refuses: the retry fetches its own',
      ahead: () => Promise.resolve('ahead'),
      first: { status: 403, body: fail(ErrorCodes.CSRF.code, 'x') },
      sent: ['ahead', 'csrf-1'],
      gets: 1,
    },
    {
      name: 'a token ahead that could not be fetched: one is fetched when the POST goes',
      ahead: () => Promise.reject(new Error('offline')),
      first: { body: userTime },
      sent: ['csrf-1'],
      gets: 1,
    },
  ])('$name', async ({ ahead, first, sent, gets }) => {
    const p = portal((_post, i) => (i === 0 ? first : { body: userTime }));
    const client = createClient({ fetch: p.fetch, tokens: fakeTokens({ access: 'a' }) });
    await client.call(time, 'CHECK_REMAINING_TIME', { email: 'a@x.test' }, { csrf: ahead() });
    expect(p.posts.map((x) => x.headers[CSRF_HEADER])).toEqual(sent);
    expect(p.csrfIssued()).toBe(gets);
  });

  it('a call refused before it sends leaves no unhandled rejection of its token ahead', async () => {
    // Node's process, without the Node types this package's tests are not compiled with
    const { process } = globalThis as unknown as {
      process: { on(event: string, listener: () => void): void; off(event: string, listener: () => void): void };
    };
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    const client = createClient({ fetch: portal(() => ({ body: userTime })).fetch });
    const err = await failure(
      client.call(time, 'CHECK_REMAINING_TIME', { email: 'a@x.test' }, { csrf: Promise.reject(new Error('offline')) }),
    );
    expect(err.kind).toBe('unauthenticated');
    await new Promise((resolve) => setTimeout(resolve, 0));
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
  });

  it('reuseCsrf keeps one token across calls until it is refused', async () => {
    const p = portal(() => ({ body: { error: OK } }));
    const client = createClient({ fetch: p.fetch, reuseCsrf: true });
    for (let i = 0; i < 3; i++) await client.call(useraction, 'UserForgotPassword', { user: { email: 'a@x.test' } });
    expect(p.csrfIssued()).toBe(1);
  });

  it('retryTransient repeats the same body after a network failure or a 5xx, then gives up', async () => {
    const slept: number[] = [];
    const p = portal((_post, i) =>
      i === 0 ? 'network' : i === 1 ? { status: 503, body: fail(500, 'busy') } : { body: userTime },
    );
    const client = createClient({
      fetch: p.fetch,
      tokens: fakeTokens({ access: 'a' }),
      sleep: async (ms) => void slept.push(ms),
    });
    await client.call(time, 'CHECK_REMAINING_TIME', { email: 'a@x.test' }, { retryTransient: true });
    expect(slept).toEqual([500, 1_500]);
    expect(new Set(p.posts.map((x) => JSON.stringify(x.body))).size).toBe(1);

    const down = portal(() => 'network');
    const err = await failure(
      createClient({ fetch: down.fetch, sleep: async () => {} }).call(
        useraction,
        'UserForgotPassword',
        { user: { email: 'a@x.test' } },
        { retryTransient: true },
      ),
    );
    expect(err.kind).toBe('network');
    expect(down.posts).toHaveLength(3);
  });
});

/** A JWT-shaped token whose payload has `exp` (the client reads, never verifies). */
const jwt = (exp: number, id = '') =>
  `h.${btoa(JSON.stringify({ exp, id })).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.s`;

describe('refreshingTokens', () => {
  const NOW_S = 1_000_000;
  const nowMs = () => NOW_S * 1000;
  const pairOf = (n: number) => ({
    access_token: jwt(NOW_S + 900, `a${n}`),
    refresh_token: jwt(NOW_S + ONE_DAY_S, `r${n}`),
    access_token_expires_in: 900,
    refresh_token_expires_in: ONE_DAY_S,
  });

  function setup(initial: StoredTokens | undefined, reply: (i: number) => Reply) {
    let stored = initial;
    let ended = 0;
    const p = portal((_post, i) => reply(i));
    const client = createClient({ fetch: p.fetch });
    const tokens = refreshingTokens({
      client,
      nowMs,
      store: {
        read: () => stored,
        write: (pair) => {
          stored = { access_token: pair.access_token, refresh_token: pair.refresh_token };
        },
        end: () => {
          ended += 1;
          stored = undefined;
        },
      },
    });
    return { tokens, posts: p.posts, stored: () => stored, ended: () => ended };
  }

  it('answers a live access token without asking the server', async () => {
    const live = jwt(NOW_S + 31);
    const s = setup({ access_token: live, refresh_token: jwt(NOW_S + ONE_DAY_S) }, () => ({ body: {} }));
    expect(await s.tokens.access()).toBe(live);
    expect(s.posts).toEqual([]);
  });

  it('refreshes an access token within 30 s of expiry, once for concurrent callers, and keeps the new pair', async () => {
    const s = setup({ access_token: jwt(NOW_S + 30), refresh_token: jwt(NOW_S + ONE_DAY_S, 'r0') }, () => ({
      body: { tokenPair: pairOf(1), valid: true, error: OK },
    }));
    const got = await Promise.all([s.tokens.access(), s.tokens.access(), s.tokens.access()]);
    expect(new Set(got)).toEqual(new Set([pairOf(1).access_token]));
    expect(s.posts.map((x) => x.body.action)).toEqual(['refresh-access-token']);
    expect(s.stored()?.refresh_token).toBe(pairOf(1).refresh_token);
  });

  it('a refused refresh ends the session; an unanswered one keeps it', async () => {
    const refused = setup({ access_token: jwt(NOW_S - 1), refresh_token: jwt(NOW_S + ONE_DAY_S) }, () => ({
      status: 401,
      body: fail(ErrorCodes.UNAUTHENTICATED.code, 'revoked'),
    }));
    expect((await failure(refused.tokens.access())).kind).toBe('unauthenticated');
    expect(refused.ended()).toBe(1);

    const down = setup({ access_token: jwt(NOW_S - 1), refresh_token: jwt(NOW_S + ONE_DAY_S) }, () => 'network');
    expect((await failure(down.tokens.access())).kind).toBe('network');
    expect(down.ended()).toBe(0);
    expect(down.stored()).toBeDefined();
  });

  it('a refresh whose answer was cut off keeps the session, as an unanswered one does', async () => {
    const answer = JSON.stringify({ tokenPair: pairOf(1), valid: true, error: OK });
    const initial = { access_token: jwt(NOW_S - 1), refresh_token: jwt(NOW_S + ONE_DAY_S, 'r0') };
    const s = setup(initial, () => ({
      stream: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(answer.slice(0, 20)));
          controller.error(new DOMException('The operation was aborted.', 'AbortError'));
        },
      }),
    }));
    expect((await failure(s.tokens.access())).kind).toBe('network');
    expect(s.ended()).toBe(0);
    expect(s.stored()).toEqual(initial);
  });

  it('without a session there is nothing to refresh', async () => {
    const s = setup(undefined, () => ({ body: {} }));
    const err = await failure(s.tokens.access());
    expect([err.kind, err.message]).toEqual(['unauthenticated', 'No access token found']);
    expect(s.posts).toEqual([]);
  });

  it('a refresh answered without a token pair ends the session: "No access token in response"', async () => {
    const s = setup({ access_token: jwt(NOW_S - 1), refresh_token: jwt(NOW_S + ONE_DAY_S) }, () => ({
      body: { valid: true, error: OK },
    }));
    const err = await failure(s.tokens.access());
    expect([err.kind, err.message]).toEqual(['unauthenticated', 'No access token in response']);
    expect(s.ended()).toBe(1);
  });

  it('after a refusal of a live token, another holder’s newer token is used instead of spending the refresh token', async () => {
    const theirs = jwt(NOW_S + 900, 'theirs');
    const s = setup({ access_token: theirs, refresh_token: jwt(NOW_S + ONE_DAY_S) }, () => ({ body: {} }));
    expect(await s.tokens.refresh('mine')).toBe(theirs);
    expect(s.posts).toEqual([]);
    // The refused token itself is never answered again.
    const again = setup({ access_token: theirs, refresh_token: jwt(NOW_S + ONE_DAY_S) }, () => ({
      body: { tokenPair: pairOf(2), valid: true, error: OK },
    }));
    expect(await again.tokens.refresh(theirs)).toBe(pairOf(2).access_token);
  });
});
