import { request } from 'node:http';
import { connect } from 'node:net';
import { ErrorCodes, license, payment } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { checkout, line } from '../modules/payment/payment.test-helpers.ts';
import { as, expectFieldError, roboticsConfig, signIn } from '../test/fixtures.ts';
import { freshDatabase, type TestApp, testApp } from '../test/harness.ts';

/**
 * One address, PUBLIC_URL (issue 32 item 9): the other names of its host that the portal answers
 * by default are sent there, pages by a redirect and calls by an error naming it; the hosts
 * ALLOWED_HOSTS lists are each served as themselves. Over real HTTP: the Host header is the subject.
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request to the server on `port`, with `host` as its Host header. */
function hit(
  port: number,
  host: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, headers: { host, ...opts.headers }, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** One request line written as is (the absolute form, which http.request does not send). */
function rawGet(port: number, target: string, host: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${target} HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`);
    });
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', reject);
    socket.on('end', () => {
      const head = answer.slice(0, answer.indexOf('\r\n\r\n'));
      const location = /^location: (.*)$/im.exec(head)?.[1];
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: { location }, body: '' });
    });
  });
}

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database.close();
});

/** A server listening on a free port of 127.0.0.1, whatever names its configuration gives it. */
async function listening(overrides: Record<string, string>): Promise<{ t: TestApp; port: number }> {
  const t = await testApp(database, overrides);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return { t, port: (t.app.server.address() as { port: number }).port };
}

describe('PUBLIC_URL http://localhost:3999 and ALLOWED_HOSTS unset: 127.0.0.1 and [::1] are its aliases', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    ({ t, port } = await listening({ ALLOWED_HOSTS: '' }));
  });
  afterAll(async () => {
    await t.app.close();
  });

  it.each([
    ['GET', '127.0.0.1:3999', '/dashboard/cart?from=widget&x=%20y'],
    ['HEAD', '127.0.0.1:3999', '/auth/login?target=portal'],
    ['GET', '[::1]:3999', '/'],
    ['GET', '127.0.0.1:3999', '/sandbox/checkout/cs_sandbox_1'],
    ['GET', '127.0.0.1:3999', '/assets/index-abc.js'],
  ])(
    'a page asked for with %s on %s (%s) is redirected to PUBLIC_URL, the same path and query',
    async (method, host, path) => {
      const answer = await hit(port, host, method, path);
      expect(answer.status).toBe(302);
      expect(answer.headers.location).toBe(`http://localhost:3999${path}`);
    },
  );

  it('an absolute-form request line on an alias is redirected by its path and query', async () => {
    const answer = await rawGet(port, 'http://127.0.0.1:3999/dashboard?x=1', '127.0.0.1:3999');
    expect([answer.status, answer.headers.location]).toEqual([302, 'http://localhost:3999/dashboard?x=1']);
  });

  const told = (answer: Answer) => {
    expect(answer.status).toBe(421);
    expect(JSON.parse(answer.body).error).toEqual({
      Success: false,
      Code: ErrorCodes.FORBIDDEN.code,
      Description: "host: 127.0.0.1:3999 is not this portal's address: use http://localhost:3999",
    });
  };

  it("an API call on an alias is answered the contract's error naming the address to use", async () => {
    // The CSRF token comes first in every call: the caller learns the address there.
    told(await hit(port, '127.0.0.1:3999', 'GET', '/api/useraction'));
    const token = String((await hit(port, 'localhost:3999', 'GET', '/api/useraction')).headers['x-csrf-token']);
    told(
      await hit(port, '127.0.0.1:3999', 'POST', license.path, {
        headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3999', 'x-csrf-token': token },
        body: JSON.stringify({ action: 'GetLicences', email: 'a@example.test' }),
      }),
    );
    // A form posted to a page's path is no page to redirect to (a redirect would turn it into a GET).
    told(
      await hit(port, '127.0.0.1:3999', 'POST', '/sandbox/checkout/cs_sandbox_1/pay', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'card=4242',
      }),
    );
  });

  it('PUBLIC_URL itself is served', async () => {
    const answer = await hit(port, 'localhost:3999', 'GET', '/api/useraction');
    expect(answer.status).toBe(200);
    expect(answer.headers['x-csrf-token']).toBeTruthy();
  });

  it('/healthz and /readyz answer an alias and any other host', async () => {
    for (const host of ['127.0.0.1:3999', '10.1.2.3:8080'])
      for (const path of ['/healthz', '/readyz']) expect((await hit(port, host, 'GET', path)).status).toBe(200);
  });

  it('a host that is no name of the portal is still not served, a page neither', async () => {
    for (const [method, path] of [
      ['GET', '/dashboard'],
      ['GET', '/api/useraction'],
    ] as const) {
      const answer = await hit(port, 'rebound.evil.example:3999', method, path);
      expect(answer.status).toBe(421);
      expect(JSON.parse(answer.body).error.Description).toBe('host: rebound.evil.example:3999 is not served here');
    }
    // Another port of PUBLIC_URL's name is another site.
    expect((await hit(port, 'localhost:4000', 'GET', '/dashboard')).status).toBe(421);
  });
});

describe('PUBLIC_URL http://127.0.0.1:3999: localhost stays served, for passkeys (WebAuthn takes no IP address)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    ({ t, port } = await listening({ ALLOWED_HOSTS: '', PUBLIC_URL: 'http://127.0.0.1:3999' }));
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('serves 127.0.0.1 and localhost, and sends [::1] to PUBLIC_URL', async () => {
    expect((await hit(port, '127.0.0.1:3999', 'GET', '/api/useraction')).status).toBe(200);
    expect((await hit(port, 'localhost:3999', 'GET', '/api/useraction')).status).toBe(200);
    const answer = await hit(port, '[::1]:3999', 'GET', '/dashboard');
    expect([answer.status, answer.headers.location]).toEqual([302, 'http://127.0.0.1:3999/dashboard']);
  });
});

describe('checkout return addresses (HandlePurchase, CreateBillingPortalSession)', () => {
  const PEPPER = line('prod_driver_pepper', 'price_driver_pepper_yearly_gbp');
  const returnTo = (origin: string) => ({
    success: `${origin}/dashboard/cart/success`,
    cancel: `${origin}/dashboard/cart/cancel`,
  });

  describe('ALLOWED_HOSTS naming several hosts: each is served, and a checkout returns to any of them', () => {
    let t: TestApp;
    let port: number;
    beforeAll(async () => {
      ({ t, port } = await listening(roboticsConfig({ ALLOWED_HOSTS: 'localhost,127.0.0.1:3999,portal.acme.test' })));
    });
    afterAll(async () => {
      await t.app.close();
    });

    it('serves each host in place: no redirect', async () => {
      for (const host of ['localhost:3999', '127.0.0.1:3999', 'portal.acme.test']) {
        expect((await hit(port, host, 'GET', '/api/useraction')).status).toBe(200);
        expect((await hit(port, host, 'GET', '/dashboard')).status).not.toBe(302);
      }
    });

    it.each(['http://localhost:3999', 'http://127.0.0.1:3999', 'http://portal.acme.test'])(
      'accepts success and cancel URLs on %s',
      async (origin) => {
        const user = await signIn(t);
        const answer = await checkout(t, user, [PEPPER], returnTo(origin));
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      },
    );

    it.each(['http://127.0.0.1:3999/dashboard/subscriptions/manage', 'http://portal.acme.test/dashboard'])(
      'the billing page returns to %s, and never elsewhere',
      async (returnUrl) => {
        const user = await signIn(t);
        const answer = await as(t, user, payment)('CreateBillingPortalSession', { return_url: returnUrl });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        const elsewhere = await as(
          t,
          user,
          payment,
        )('CreateBillingPortalSession', { return_url: 'https://evil.example/' });
        expectFieldError(elsewhere, 400, 'return_url');
      },
    );

    it.each([
      ['another host', { success: 'https://evil.example/dashboard/cart/success' }, 'session.success_url'],
      ['another port', { cancel: 'http://127.0.0.1:4000/dashboard/cart/cancel' }, 'session.cancel_url'],
      ['another scheme', { success: 'https://portal.acme.test/dashboard/cart/success' }, 'session.success_url'],
    ])('refuses %s', async (_case, urls, field) => {
      const user = await signIn(t);
      const answer = await checkout(t, user, [PEPPER], urls);
      expectFieldError(answer, 400, field);
      expect(answer.body.error.Description).toBe(
        `${field}: must be an address on http://localhost:3999 or another host the portal serves`,
      );
    });
  });

  describe('ALLOWED_HOSTS unset: only PUBLIC_URL (an alias is sent there before it can check out)', () => {
    let t: TestApp;
    beforeAll(async () => {
      // PUBLIC_URL on port 80, the Host header of inject: 127.0.0.1 and [::1] are its aliases.
      t = await testApp(database, roboticsConfig({ ALLOWED_HOSTS: '', PUBLIC_URL: 'http://localhost' }));
    });
    afterAll(async () => {
      await t.app.close();
    });

    it('accepts PUBLIC_URL and refuses an alias', async () => {
      expect(t.config.hostAliases).toEqual(['127.0.0.1', '[::1]']);
      const user = await signIn(t);
      expect((await checkout(t, user, [PEPPER], returnTo('http://localhost'))).status).toBe(200);
      const refused = await checkout(t, user, [PEPPER], returnTo('http://127.0.0.1'));
      expectFieldError(refused, 400, 'session.success_url');
      expect(refused.body.error.Description).toBe('session.success_url: must be an address on http://localhost');
    });
  });
});
