import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { payment, useraction } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, preferredEncoding } from './app.ts';
import type { Database } from './db/client.ts';
import { JSON_ANSWER_CSP } from './plugins/security.ts';
import { signIn, useTestApp } from './test/fixtures.ts';
import { freshDatabase, testConfig } from './test/harness.ts';

/** docs/decisions/025: precompressed web files by content negotiation, API answers over 1 KB compressed. */

describe('preferredEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0, br;q=0', undefined],
    ['*', 'br'],
    ['*;q=0.1, gzip', 'gzip'],
    ['BR', 'br'],
  ])('%s -> %s', (accept, expected) => expect(preferredEncoding(accept)).toBe(expected));
});

describe('the built web app: precompressed files by Accept-Encoding', () => {
  let database: Database;
  let app: FastifyInstance;
  const dist = mkdtempSync(join(tmpdir(), 'portal-web-'));
  // A script as the build leaves it: the file, and its brotli and gzip copies (apps/web/vite-plugins.ts).
  const script = Buffer.from(`export const words = ${JSON.stringify('robot portal '.repeat(400))};\n`);
  const asset = 'assets/index-abc123.js';
  // The head's inline script (theme and session, apps/web/index.html), allowed by the CSP by its hash.
  const boot = "document.documentElement.classList.add('dark');";
  const page = (title: string, app: string) =>
    `<!doctype html><html><head><title>${title}</title><script>${boot}</script><script type="module" src="/assets/x.js"></script></head><body>${app}${'<p></p>'.repeat(300)}</body></html>`;

  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), page('Robot Portal', '<div id="app"></div>'));
    // The sign-in page as apps/web/prerender.ts writes it, and its variant for a visitor who
    // acknowledged the cookie notice (docs/decisions/038).
    mkdirSync(join(dist, '.prerendered'));
    const login = (notice: boolean) =>
      page(
        'Robot Portal | Sign in',
        `<div id="app" data-prerendered><h1>Sign in</h1>${notice ? '<section>cookies</section>' : ''}</div>`,
      );
    writeFileSync(join(dist, '.prerendered/auth-login.html'), login(true));
    writeFileSync(join(dist, '.prerendered/auth-login.ack.html'), login(false));
    writeFileSync(
      join(dist, '.prerendered/pages.json'),
      JSON.stringify([
        {
          path: '/auth/login',
          queries: ['', 'target=portal'],
          file: 'auth-login.html',
          variants: [{ cookie: 'cookie_notice_acknowledged', file: 'auth-login.ack.html' }],
        },
      ]),
    );
    // The signed-in start's scripts, named on the signed-in addresses' page (decision 044).
    writeFileSync(
      join(dist, '.prerendered/preloads.json'),
      JSON.stringify([{ prefix: '/dashboard', scripts: ['/assets/signed-in-abc.js', '/assets/common-abc.js'] }]),
    );
    writeFileSync(join(dist, asset), script);
    writeFileSync(join(dist, `${asset}.br`), brotliCompressSync(script));
    writeFileSync(join(dist, `${asset}.gz`), gzipSync(script, { level: 9 }));
    writeFileSync(join(dist, 'assets/tiny-abc123.js'), 'export {};\n');
    database = await freshDatabase();
    app = await buildApp({ config: testConfig({ WEB_DIST: dist }), database, logger: false, serveWeb: true });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it.each([
    ['brotli when accepted', 'gzip, deflate, br', 'br', `${asset}.br`],
    ['brotli when preferred by weight', 'gzip;q=0.5, br;q=1', 'br', `${asset}.br`],
    ['gzip when brotli is not accepted', 'gzip, deflate', 'gzip', `${asset}.gz`],
    ['the file itself when neither is accepted', 'identity', undefined, asset],
    ['the file itself without Accept-Encoding', undefined, undefined, asset],
  ])('a hashed script: %s', async (_name, accept, encoding, file) => {
    const res = await app.inject({
      method: 'GET',
      url: `/${asset}`,
      headers: accept ? { 'accept-encoding': accept } : {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.rawPayload.equals(readFileSync(join(dist, file)))).toBe(true);
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
  });

  it('a file under 1 KB has no compressed copy and goes as it is', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/assets/tiny-abc123.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('export {};\n');
  });

  it.each([
    ['br', (b: Buffer) => brotliDecompressSync(b)],
    ['gzip', (b: Buffer) => gunzipSync(b)],
  ] as const)('index.html (%s) is compressed, revalidated on every load', async (encoding, decode) => {
    const res = await app.inject({ method: 'GET', url: '/dashboard', headers: { 'accept-encoding': encoding } });
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(decode(res.rawPayload).toString()).toMatch(/^<!doctype html>.*id="portal-config"/s);
  });

  describe('prerendered pages (docs/decisions/038)', () => {
    const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

    it.each([
      ['/auth/login', {}, 'prerendered, with the cookie notice'],
      ['/auth/login?target=portal', {}, 'prerendered, with the cookie notice'],
      ['/auth/login', { cookie: 'theme=x; cookie_notice_acknowledged=true' }, 'prerendered, without the notice'],
      ['/auth/login?target=portal', { cookie: 'cookie_notice_acknowledged=' }, 'prerendered, without the notice'],
      ['/auth/login', { cookie: 'no_cookie_notice_acknowledged=true' }, 'prerendered, with the cookie notice'],
      ['/auth/login?target=hub', {}, 'index.html'],
      ['/auth/login?target=portal&forgot=1', {}, 'index.html'],
      ['/auth/signup', {}, 'index.html'],
      ['/.prerendered/auth-login.html', {}, 'index.html'],
      ['/.prerendered/pages.json', {}, 'index.html'],
    ])('GET %s %o: %s', async (url, headers, expected) => {
      const res = await get(url, headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      const body = res.body;
      // Every page carries the deployment's configuration.
      expect(body).toMatch(/id="portal-config"/);
      if (expected === 'index.html') {
        expect(body).toContain('<div id="app"></div>');
        expect(String(res.headers.vary)).not.toMatch(/cookie/i);
      } else {
        expect(body).toContain('<div id="app" data-prerendered><h1>Sign in</h1>');
        expect(body.includes('<section>cookies</section>')).toBe(expected.endsWith('with the cookie notice'));
        // The answer for the address depends on a cookie: caches must know.
        expect(String(res.headers.vary)).toMatch(/accept-encoding, cookie/i);
      }
    });

    it.each([
      ['br', (b: Buffer) => brotliDecompressSync(b)],
      ['gzip', (b: Buffer) => gunzipSync(b)],
    ] as const)('the prerendered page goes %s, compressed once at start', async (encoding, decode) => {
      const plain = await get('/auth/login', { cookie: 'cookie_notice_acknowledged=true' });
      const res = await get('/auth/login', { 'accept-encoding': encoding, cookie: 'cookie_notice_acknowledged=true' });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(decode(res.rawPayload).toString()).toBe(plain.body);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    });

    it.each([
      ['/dashboard', true],
      ['/dashboard/robot/add', true],
      ['/dashboard/usage?from=2026-01-01', true],
      ['/dashboards', false],
      ['/auth/register', false],
      ['/auth/login', false],
    ])("%s names the signed-in start's scripts to fetch at once: %s", async (url, named) => {
      const body = (await get(url)).body;
      const links = [
        ...body.matchAll(/<link rel="modulepreload" fetchpriority="low" crossorigin href="([^"]+)" \/>/g),
      ].map((m) => m[1]);
      expect(links).toEqual(named ? ['/assets/signed-in-abc.js', '/assets/common-abc.js'] : []);
      // the links sit in the head, before the page's own markup
      if (named) expect(body.indexOf('modulepreload')).toBeLessThan(body.indexOf('</head>'));
    });

    it("the CSP allows the pages' inline script by its hash, and no other inline script", async () => {
      const csp = String((await get('/auth/login')).headers['content-security-policy']);
      const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src '));
      const hash = createHash('sha256').update(boot).digest('base64');
      expect(scriptSrc).toBe(`script-src 'self' 'sha256-${hash}'`);
      // A JSON answer loads nothing and may be framed by nothing (docs/decisions/041).
      expect((await get('/healthz')).headers['content-security-policy']).toBe(JSON_ANSWER_CSP);
    });

    it("the pages' policy, whole: none of the relaxations `npm run dev`'s pages get (scripts/dev-csp.ts, decision 054)", async () => {
      const csp = String((await get('/auth/login')).headers['content-security-policy']);
      const hash = createHash('sha256').update(boot).digest('base64');
      expect(csp.split('; ')).toEqual([
        "default-src 'self'",
        `script-src 'self' 'sha256-${hash}'`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob: https://www.gravatar.com",
        "font-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self' http://127.0.0.1:* http://localhost:*",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "object-src 'none'",
      ]);
      // What hot reload would need: scripts from anywhere inline or evaluated, and its WebSocket.
      expect(csp).not.toMatch(/'unsafe-eval'|'strict-dynamic'|wss?:|script-src[^;]*'unsafe-inline'/);
    });

    it('a page carries the policies that govern a document; a JSON answer does not (decision 043)', async () => {
      const page = (await get('/auth/login')).headers;
      const json = (await get('/healthz')).headers;
      for (const [name, value] of [
        ['referrer-policy', 'strict-origin-when-cross-origin'],
        ['cross-origin-opener-policy', 'same-origin'],
        ['permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()'],
      ]) {
        expect(page[name as string]).toBe(value);
        expect(json[name as string]).toBeUndefined();
      }
      for (const headers of [page, json]) {
        expect(headers['x-content-type-options']).toBe('nosniff');
        expect(headers['x-frame-options']).toBe('DENY');
      }
    });
  });
});

describe('API answers: compressed over 1 KB', () => {
  const t = useTestApp();

  async function post(path: string, body: unknown, headers: Record<string, string>) {
    const csrf = await t.api.csrf();
    return t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, ...headers },
      payload: JSON.stringify(body),
    });
  }

  it('a large answer (the catalogue) goes brotli, gzip or plain as the caller accepts', async () => {
    const user = await signIn(t);
    const call = (accept?: string) =>
      post(
        payment.path,
        { action: 'GetProducts' },
        {
          authorization: `Bearer ${user.token}`,
          ...(accept ? { 'accept-encoding': accept } : {}),
        },
      );
    const plain = await call();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await call('gzip, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const gz = await call('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
  });

  it('a small answer goes as it is, whatever the caller accepts', async () => {
    const res = await post(
      useraction.path,
      { action: 'UserForgotPassword', user: { email: 'nobody@example.test' } },
      {
        'accept-encoding': 'br, gzip',
      },
    );
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().error.Success).toBe(true);
  });
});
