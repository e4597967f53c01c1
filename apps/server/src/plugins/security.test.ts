import { connect } from 'node:net';
import { ErrorCodes, useraction } from '@portal/contract';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { manualClock } from '../lib/clock.ts';
import { CsrfTokens } from '../lib/csrf.ts';
import { freshDatabase, type TestApp, testApp, uniqueEmail } from '../test/harness.ts';
import { errorsPlugin } from './errors.ts';
import { hostAllowed, securityPlugin } from './security.ts';

describe('hostAllowed', () => {
  const defaults = ['localhost:3999', '127.0.0.1:3999', '[::1]:3999'];
  it.each([
    ['localhost:3999', defaults, 'http', true],
    ['LOCALHOST:3999', defaults, 'http', true],
    ['127.0.0.1:3999', defaults, 'http', true],
    ['[::1]:3999', defaults, 'http', true],
    ['localhost:4000', defaults, 'http', false],
    ['localhost', defaults, 'http', false],
    ['evil.example:3999', defaults, 'http', false],
    ['localhost.evil.example:3999', defaults, 'http', false],
    ['', defaults, 'http', false],
    ['portal.acme.co.uk', ['portal.acme.co.uk'], 'https', true],
    ['portal.acme.co.uk:8443', ['portal.acme.co.uk'], 'https', true],
    ['portal.acme.co.uk', ['portal.acme.co.uk:443'], 'https', true],
    ['portal.acme.co.uk', ['portal.acme.co.uk:443'], 'http', false],
    ['portal.acme.co.uk.evil.example', ['portal.acme.co.uk'], 'https', false],
  ] as const)('Host %s with %j over %s -> %s', (host, allowed, protocol, expected) => {
    expect(hostAllowed(host, allowed, protocol)).toBe(expected);
  });
});

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('the Host header and DNS rebinding (finding 12)', () => {
  let t: TestApp;
  // ALLOWED_HOSTS empty: the default of PUBLIC_URL http://localhost:3999.
  beforeAll(async () => {
    t = await testApp(database, { ALLOWED_HOSTS: '' });
  });
  afterAll(async () => {
    await t.app.close();
  });

  const csrfFor = async (host: string) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/useraction', headers: { host } });
    return { status: res.statusCode, token: String(res.headers['x-csrf-token'] ?? '') };
  };

  it("answers PUBLIC_URL's host; the other loopback names on its port are sent to it (security.canonical.test.ts)", async () => {
    expect(t.config.ALLOWED_HOSTS).toEqual(['localhost:3999']);
    expect((await csrfFor('localhost:3999')).status).toBe(200);
    for (const host of ['127.0.0.1:3999', '[::1]:3999']) expect((await csrfFor(host)).status).toBe(421);
  });

  it('a rebound name is refused, GET and POST, even when its Origin equals its own Host', async () => {
    const host = 'rebound.evil.example:3999';
    const get = await t.app.inject({ method: 'GET', url: '/api/useraction', headers: { host } });
    expect(get.statusCode).toBe(421);
    expect(get.json().error.Description).toBe(`host: ${host} is not served here`);
    // The attacker's page may well hold a valid CSRF token fetched some other way.
    const { token } = await csrfFor('localhost:3999');
    const post = await t.app.inject({
      method: 'POST',
      url: useraction.path,
      headers: { host, origin: `http://${host}`, 'x-csrf-token': token, 'content-type': 'application/json' },
      payload: { action: 'login', user: { email: uniqueEmail(), password: 'Whatever-1!' } },
    });
    expect(post.statusCode).toBe(421);
    expect(post.json().error.Success).toBe(false);
  });

  it('an Origin that is not ours is refused on an allowed Host', async () => {
    const { token } = await csrfFor('localhost:3999');
    const post = await t.app.inject({
      method: 'POST',
      url: useraction.path,
      headers: {
        host: 'localhost:3999',
        origin: 'http://localhost.evil.example:3999',
        'x-csrf-token': token,
        'content-type': 'application/json',
      },
      payload: { action: 'login', user: { email: uniqueEmail(), password: 'Whatever-1!' } },
    });
    expect(post.statusCode).toBe(403);
    expect(post.json().error.Code).toBe(ErrorCodes.CSRF.code);
  });

  it('an Origin of another allowed host is accepted', async () => {
    // Both named in ALLOWED_HOSTS, so each is served as itself.
    const listed = await testApp(database, { ALLOWED_HOSTS: 'localhost:3999,127.0.0.1:3999' });
    try {
      const csrf = await listed.app.inject({
        method: 'GET',
        url: '/api/useraction',
        headers: { host: '127.0.0.1:3999' },
      });
      const post = await listed.app.inject({
        method: 'POST',
        url: useraction.path,
        headers: {
          host: '127.0.0.1:3999',
          origin: 'http://127.0.0.1:3999',
          'x-csrf-token': String(csrf.headers['x-csrf-token']),
          'content-type': 'application/json',
        },
        payload: { action: 'login', user: { email: uniqueEmail(), password: 'Whatever-1!' } },
      });
      expect(post.statusCode).toBe(401);
    } finally {
      await listed.app.close();
    }
  });

  it('health probes answer any Host', async () => {
    for (const url of ['/healthz', '/readyz'])
      expect((await t.app.inject({ method: 'GET', url, headers: { host: '10.1.2.3:3999' } })).statusCode).toBe(200);
  });
});

describe('X-Forwarded-For only from the named proxy (finding 1)', () => {
  let t: TestApp;
  const PROXY = '10.20.0.1';
  beforeAll(async () => {
    t = await testApp(database, { TRUST_PROXY: `${PROXY},10.30.0.0/16`, RATE_LOGIN_PER_ADDRESS: '3' });
  });
  afterAll(async () => {
    await t.app.close();
  });

  const login = (peer: string, forwardedFor?: string) =>
    t.api.post(
      useraction.path,
      { action: 'login', user: { email: uniqueEmail(), password: 'Wrong-Pass-1!' } },
      { ip: peer, ...(forwardedFor ? { headers: { 'x-forwarded-for': forwardedFor } } : {}) },
    );

  it('a client that rotates X-Forwarded-For straight at the portal stays one address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await login('198.51.100.7', `203.0.113.${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it('through the proxy, the address the proxy saw counts, not what the client wrote before it', async () => {
    const statuses: number[] = [];
    // The client writes a new left-most address each time; the proxy appends the real one.
    for (let i = 0; i < 5; i++) statuses.push((await login(PROXY, `192.0.2.${i}, 198.51.100.8`)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it('through the proxy, different clients have their own limits', async () => {
    for (let i = 0; i < 4; i++) expect((await login(PROXY, `198.51.100.${100 + i}`)).status).toBe(401);
    // a second proxy hop inside the trusted CIDR is skipped too
    expect((await login(PROXY, '198.51.100.200, 10.30.4.5')).status).toBe(401);
  });
});

describe('X-Forwarded-Host is read only with TRUST_FORWARDED_HOST (issue 33)', () => {
  // TRUST_PROXY=1: the peer is the proxy, and the proxy passes on what the client wrote.
  const PROXY = { remoteAddress: '10.20.0.1' };
  const csrf = (t: TestApp, headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/api/useraction', headers, ...PROXY });

  describe('TRUST_PROXY=1 alone', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp(database, { ALLOWED_HOSTS: '', TRUST_PROXY: '1' });
    });
    afterAll(async () => {
      await t.app.close();
    });

    it('a rebound Host with a forged X-Forwarded-Host naming ours answers 421', async () => {
      const res = await csrf(t, { host: 'rebound.evil.example:3999', 'x-forwarded-host': 'localhost:3999' });
      expect(res.statusCode).toBe(421);
      expect(res.json().error.Description).toBe('host: rebound.evil.example:3999 is not served here');
    });

    it('our Host with a forged X-Forwarded-Host is served: the header is not read at all', async () => {
      const res = await csrf(t, { host: 'localhost:3999', 'x-forwarded-host': 'rebound.evil.example:3999' });
      expect(res.statusCode).toBe(200);
    });
  });

  describe('TRUST_PROXY=1 and TRUST_FORWARDED_HOST=true', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp(database, { ALLOWED_HOSTS: '', TRUST_PROXY: '1', TRUST_FORWARDED_HOST: 'true' });
    });
    afterAll(async () => {
      await t.app.close();
    });

    it('the host the proxy writes is checked, and its own Host to the portal is not', async () => {
      expect((await csrf(t, { host: 'portal-backend:3000', 'x-forwarded-host': 'localhost:3999' })).statusCode).toBe(
        200,
      );
      expect(
        (await csrf(t, { host: 'localhost:3999', 'x-forwarded-host': 'rebound.evil.example:3999' })).statusCode,
      ).toBe(421);
    });

    it('from the proxy named by address only: a client that reaches the portal directly is not believed', async () => {
      const named = await testApp(database, {
        ALLOWED_HOSTS: '',
        TRUST_PROXY: '10.20.0.1',
        TRUST_FORWARDED_HOST: 'true',
      });
      try {
        const forged = { host: 'rebound.evil.example:3999', 'x-forwarded-host': 'localhost:3999' };
        expect((await csrf(named, forged)).statusCode).toBe(200);
        const direct = await named.app.inject({
          method: 'GET',
          url: '/api/useraction',
          headers: forged,
          remoteAddress: '198.51.100.7',
        });
        expect(direct.statusCode).toBe(421);
      } finally {
        await named.app.close();
      }
    });
  });

  it('every reader of request.host and request.hostname sees the Host header unless TRUST_FORWARDED_HOST', async () => {
    const hostsSeen = async (trustForwardedHost: boolean) => {
      const app = Fastify({ trustProxy: (_address: string, hop: number) => hop < 1 });
      await app.register(errorsPlugin);
      await app.register(securityPlugin, {
        csrf: new CsrfTokens('a-secret-for-the-csrf-tokens-of-this-test-only'),
        clock: manualClock(),
        publicUrl: 'https://portal.acme.co.uk',
        allowedHosts: ['portal.acme.co.uk', 'portal-backend:3000'],
        trustForwardedHost,
      });
      app.get('/seen', async (request) => ({ host: request.host, hostname: request.hostname }));
      try {
        const res = await app.inject({
          method: 'GET',
          url: '/seen',
          headers: { host: 'portal-backend:3000', 'x-forwarded-host': 'portal.acme.co.uk' },
        });
        return res.json();
      } finally {
        await app.close();
      }
    };
    expect(await hostsSeen(false)).toEqual({ host: 'portal-backend:3000', hostname: 'portal-backend' });
    expect(await hostsSeen(true)).toEqual({ host: 'portal.acme.co.uk', hostname: 'portal.acme.co.uk' });
  });
});

/**
 * One request written as is on a socket, so the request line reaches the server spelled as given
 * (inject and fetch normalise it); answers the status and the body.
 */
function rawRequest(port: number, head: string, body = ''): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`${head}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    });
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', reject);
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      resolve({ status, body: answer.slice(answer.indexOf('\r\n\r\n') + 4) });
    });
  });
}

describe('CSRF, Origin and Host are checked on the routed request, however the request line spells it (issue 33)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await testApp(database);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await t.app.close();
  });

  const body = () => JSON.stringify({ action: 'login', user: { email: uniqueEmail(), password: 'Whatever-1!' } });
  const post = (target: string, headers: Record<string, string>) =>
    rawRequest(
      port,
      [
        `POST ${target} HTTP/1.1`,
        `host: localhost:${port}`,
        'content-type: application/json',
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ].join('\r\n'),
      body(),
    );
  const token = async () =>
    String((await t.app.inject({ method: 'GET', url: '/api/useraction' })).headers['x-csrf-token']);

  // Each spelling the router takes to POST /api/useraction is refused like the plain path (403);
  // the ones it routes nowhere answer 404 and run nothing; an absolute form naming a host that is
  // not ours is not served (421). {port} stands for the server's port.
  const spellings: [string, string, 403 | 404 | 421][] = [
    ['the plain path', '/api/useraction', 403],
    ['a percent-encoded letter', '/%61pi/useraction', 403],
    ['every letter percent-encoded', '/%61%70%69/%75%73%65%72%61%63%74%69%6f%6e', 403],
    ['percent escapes in both segments', '/%61pi/%75seraction', 403],
    ['the absolute form', 'http://localhost:{port}/api/useraction', 403],
    ['the absolute form in capitals', 'HTTP://LOCALHOST:{port}/api/useraction', 403],
    ['the absolute form, encoded', 'http://localhost:{port}/%61pi/useraction', 403],
    ['the absolute form naming another host', 'http://elsewhere.example/api/useraction', 421],
    ['a query', '/api/useraction?action=login', 403],
    ['a doubled slash inside', '/api//useraction', 404],
    ['a trailing slash', '/api/useraction/', 404],
    ['a semicolon parameter', '/api/useraction;x=1', 404],
    ['the action in mixed case', '/api/UserAction', 404],
    ['a doubled leading slash', '//api/useraction', 404],
    ['the prefix in capitals', '/API/useraction', 404],
    ['the prefix in mixed case', '/Api/useraction', 404],
    ['an encoded slash', '/api%2Fuseraction', 404],
    ['a dot segment', '/./api/useraction', 404],
    ['a dot-dot segment', '/x/../api/useraction', 404],
  ];
  const target = (spelling: string) => spelling.replace('{port}', String(port));

  it.each(spellings)('%s (%s) without x-csrf-token: %i', async (_name, spelling, status) => {
    const answer = await post(target(spelling), {});
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.body).error).toMatchObject(
      status === 403
        ? {
            Code: ErrorCodes.CSRF.code,
            Description: 'x-csrf-token: header missing (fetch one with GET /api/useraction)',
          }
        : { Code: (status === 404 ? ErrorCodes.NOT_FOUND : ErrorCodes.FORBIDDEN).code },
    );
  });

  it.each(spellings)('%s (%s) with a token and a foreign Origin: %i', async (_name, spelling, status) => {
    const answer = await post(target(spelling), { origin: 'https://evil.example', 'x-csrf-token': await token() });
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.body).error).toMatchObject(
      status === 403
        ? { Code: ErrorCodes.CSRF.code, Description: 'origin: https://evil.example may not call this API' }
        : { Code: (status === 404 ? ErrorCodes.NOT_FOUND : ErrorCodes.FORBIDDEN).code },
    );
  });

  it('a routed spelling with a token and our Origin reaches the action', async () => {
    const answer = await post('/%61pi/useraction', { origin: t.config.PUBLIC_URL, 'x-csrf-token': await token() });
    expect(answer.status).toBe(401);
  });

  const get = (target: string, host: string) =>
    rawRequest(port, [`GET ${target} HTTP/1.1`, `host: ${host}`].join('\r\n'));

  it.each([
    ['/healthz', 200],
    ['/%68ealthz', 200],
    ['http://10.1.2.3/readyz', 200],
    ['/api/useraction', 421],
    ['/%61pi/useraction', 421],
  ])('GET %s with a foreign Host: %i (only the health probes answer any Host)', async (target, status) => {
    expect((await get(target, '10.1.2.3')).status).toBe(status);
  });

  it('the absolute form names a host too: both it and the Host header must be ours', async () => {
    expect((await get(`http://localhost:${port}/api/useraction`, `localhost:${port}`)).status).toBe(200);
    expect((await get(`http://localhost:${port}/api/useraction`, 'rebound.evil.example')).status).toBe(421);
    expect((await get('http://rebound.evil.example/api/useraction', `localhost:${port}`)).status).toBe(421);
  });
});
