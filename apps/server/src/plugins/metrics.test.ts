import type { AddressInfo } from 'node:net';
import { ApiError, ErrorCodes, events, useraction } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { manualClock } from '../lib/clock.ts';
import { hashWorkers } from '../lib/passwords.ts';
import type { ArtifactStore } from '../modules/assets/assets.store.ts';
import { openStream } from '../test/event-stream.ts';
import { as, closeApp, nextIp, signIn } from '../test/fixtures.ts';
import { freshDatabase, memoryMailer, seedUser, type TestApp, testApp, testConfig } from '../test/harness.ts';
import { countingRejections, listenMetrics, PortalMetrics } from './metrics.ts';

/**
 * /metrics (issue 33 item 7, docs/decisions/060): absent unless configured, behind METRICS_TOKEN on
 * the app's port or on a port of its own, and counting what the app answered.
 */
const TOKEN = 'metrics-token-0123456789abcdefghijklmnop';

let database: Database;
let plain: TestApp;
let scraped: TestApp;

beforeAll(async () => {
  database = await freshDatabase();
  plain = await testApp(database);
  // One hashing thread and no queue: a third hash at once is refused BUSY.
  scraped = await testApp(database, { METRICS_TOKEN: TOKEN, HASH_CONCURRENCY: '1', HASH_QUEUE_MAX: '0' });
});

afterAll(async () => {
  await closeApp(plain);
  await closeApp(scraped);
  await database.close();
});

const scrape = (t: TestApp, authorization?: string, host?: string) =>
  t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { ...(authorization ? { authorization } : {}), ...(host ? { host } : {}) },
  });

/** The value of one series in a scrape's text (0 when the series is absent). */
function seriesValue(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

async function read(t: TestApp): Promise<string> {
  const res = await scrape(t, `Bearer ${TOKEN}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

describe('/metrics on the app port', () => {
  it('is absent (404) without METRICS_TOKEN or METRICS_PORT, with or without a bearer', async () => {
    expect((await scrape(plain)).statusCode).toBe(404);
    expect((await scrape(plain, `Bearer ${TOKEN}`)).statusCode).toBe(404);
    expect(plain.app.mountedRoutes).not.toContain('GET /metrics');
  });

  it('answers 401 without the bearer token or with a wrong one', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      'Bearer ',
      `Basic ${TOKEN}`,
      TOKEN,
    ]) {
      const res = await scrape(scraped, authorization);
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(JSON.parse(res.body).error.Code).toBe(ErrorCodes.UNAUTHENTICATED.code);
      expect(res.body).not.toContain('portal_http_requests_total');
    }
  });

  it('answers the Prometheus text format to the token, whatever the Host (a scraper names an address)', async () => {
    for (const host of [undefined, '10.1.2.3:3000']) {
      const res = await scrape(scraped, `bearer ${TOKEN}`, host);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(res.body).toContain('# TYPE portal_http_requests_total counter');
      expect(res.body).toContain('# TYPE process_resident_memory_bytes gauge');
    }
  });

  it('counts requests by service and action; an unknown action is counted as such', async () => {
    const before = await read(scraped);
    const made = `Made-Up-${Date.now()}`;
    const series = {
      csrf: 'portal_http_requests_total{service="/api/useraction",action="",status="200"}',
      unknown: 'portal_http_requests_total{service="/api/useraction",action="unknown",status="400"}',
      login: 'portal_http_requests_total{service="/api/useraction",action="login",status="401"}',
      missing: 'portal_http_requests_total{service="unmatched",action="",status="404"}',
      latency: 'portal_http_request_duration_seconds_count{service="/api/useraction",action="login"}',
    };
    const { api } = scraped;
    for (let i = 0; i < 3; i++) expect((await api.post('/api/useraction', { action: made })).status).toBe(400);
    expect((await api.post('/api/useraction', { nothing: true })).status).toBe(400);
    for (let i = 0; i < 2; i++) {
      const res = await api.call(useraction, 'login', {
        user: { email: `nobody-${i}@example.test`, password: 'Wrong-Pass-42!' },
      });
      expect(res.status).toBe(401);
    }
    expect((await scraped.app.inject({ method: 'GET', url: '/api/nothing-here' })).statusCode).toBe(404);
    const after = await read(scraped);
    // Each POST fetched a CSRF token first: 6 GETs.
    expect(seriesValue(after, series.csrf) - seriesValue(before, series.csrf)).toBe(6);
    // Three made-up names and a body that names none.
    expect(seriesValue(after, series.unknown) - seriesValue(before, series.unknown)).toBe(4);
    expect(seriesValue(after, series.login) - seriesValue(before, series.login)).toBe(2);
    expect(seriesValue(after, series.missing) - seriesValue(before, series.missing)).toBe(1);
    expect(seriesValue(after, series.latency) - seriesValue(before, series.latency)).toBe(2);
    // What a caller names never becomes a label.
    expect(after).not.toContain(made);
    expect(after).not.toContain('nothing-here');
  });

  it('counts a BUSY answer', async () => {
    const user = await seedUser(scraped);
    const before = seriesValue(await read(scraped), 'portal_hash_busy_total');
    // Two hashes hold the thread's two places and do not finish until told to.
    const release: (() => void)[] = [];
    const run = vi
      .spyOn(hashWorkers(), 'run')
      .mockImplementation(() => new Promise((resolve) => release.push(() => resolve(false))));
    try {
      const signIn = () =>
        scraped.api.call(
          useraction,
          'login',
          { user: { email: user.email, password: 'Wrong-Pass-42!' } },
          { ip: nextIp() },
        );
      const held = [signIn(), signIn()];
      await vi.waitFor(() => expect(run).toHaveBeenCalledTimes(2));
      const busy = await signIn();
      expect(busy.status).toBe(503);
      expect(busy.body.error.Code).toBe(ErrorCodes.BUSY.code);
      const during = await read(scraped);
      expect(seriesValue(during, 'portal_hash_running')).toBe(2);
      expect(seriesValue(during, 'portal_hash_queue_depth')).toBe(0);
      expect(seriesValue(during, 'portal_hash_queue_limit')).toBe(0);
      for (const done of release) done();
      expect((await Promise.all(held)).map((r) => r.status)).toEqual([401, 401]);
    } finally {
      run.mockRestore();
    }
    expect(seriesValue(await read(scraped), 'portal_hash_busy_total') - before).toBe(1);
  });

  it('counts the event streams the instance holds', async () => {
    await scraped.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(scraped.app.server.address() as AddressInfo).port}`;
    const user = await signIn(scraped);
    const ticket = await as(scraped, user, events)('OpenEventStream');
    const stream = await openStream(`${base}${ticket.body.stream_path as string}`);
    try {
      await stream.waitFor((m) => m.kind === 'ready');
      expect(seriesValue(await read(scraped), 'portal_event_streams_open')).toBe(1);
    } finally {
      stream.close();
    }
    await vi.waitFor(async () => expect(seriesValue(await read(scraped), 'portal_event_streams_open')).toBe(0));
  });

  it('counts failed calls to the artifact store, by operation', async () => {
    const unreachable = new Error('connect ETIMEDOUT 10.0.0.9:9000');
    const store: ArtifactStore = {
      description: 's3://unreachable',
      put: () => Promise.reject(unreachable),
      open: () => Promise.reject(unreachable),
      deliver: () => Promise.reject(unreachable),
    } as unknown as ArtifactStore;
    const config = testConfig({ METRICS_TOKEN: TOKEN });
    const app = await buildApp({
      config,
      database,
      clock: manualClock(),
      mailer: memoryMailer(),
      logger: false,
      store,
    });
    try {
      const served = app.services.assets.store;
      await expect(served.deliver('robot-hub/1.0.0/x.zip', { fileName: 'x.zip', expiresAt: new Date() })).rejects.toBe(
        unreachable,
      );
      await expect(served.open('robot-hub/1.0.0/x.zip')).rejects.toBe(unreachable);
      await expect(served.deliver('robot-hub/1.0.0/y.zip', { fileName: 'y.zip', expiresAt: new Date() })).rejects.toBe(
        unreachable,
      );
      const { body } = await app.metrics.scrape();
      expect(seriesValue(body, 'portal_storage_errors_total{operation="deliver"}')).toBe(2);
      expect(seriesValue(body, 'portal_storage_errors_total{operation="open"}')).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('reports the lifecycle backlog and the mail backlog', async () => {
    const text = await read(scraped);
    expect(text).toContain('portal_subscriptions_overdue 0');
    expect(text).toContain('portal_mail_pending 0');
    expect(text).toContain('portal_event_streams_open 0');
  });
});

describe('/metrics on a port of its own (METRICS_PORT)', () => {
  it('is served there only, behind the token when one is set', async () => {
    const t = await testApp(database, { METRICS_PORT: '9464', METRICS_TOKEN: TOKEN });
    const listener = await listenMetrics(t.app.metrics, { port: 0, host: '127.0.0.1', token: TOKEN });
    try {
      // The app's own port has none.
      expect((await scrape(t, `Bearer ${TOKEN}`)).statusCode).toBe(404);
      expect((await fetch(listener.url)).status).toBe(401);
      expect((await fetch(listener.url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      const ok = await fetch(listener.url, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('# TYPE portal_event_streams_open gauge');
      expect((await fetch(listener.url.replace('/metrics', '/healthz'))).status).toBe(404);
    } finally {
      await listener.close();
      await closeApp(t);
    }
  });

  it('without a token on loopback, anyone on the host may read it', async () => {
    const t = await testApp(database, { METRICS_PORT: '9464' });
    const listener = await listenMetrics(t.app.metrics, { port: 0, host: '127.0.0.1', token: undefined });
    try {
      expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect((await fetch(listener.url)).status).toBe(200);
    } finally {
      await listener.close();
      await closeApp(t);
    }
  });
});

describe('the metrics variables', () => {
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig({
        DATA_DIR: '/tmp/portal-test-data',
        JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
        ...env,
      });
      return undefined;
    } catch (err) {
      if (err instanceof ConfigError) return err.message;
      throw err;
    }
  };
  it.each([
    [{ METRICS_TOKEN: 'too-short' }, 'METRICS_TOKEN: must be at least 32 characters'],
    [{ METRICS_PORT: '3000' }, 'METRICS_PORT: is PORT'],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT: '],
    [{ METRICS_HOST: '127.0.0.1' }, 'METRICS_HOST: is set but METRICS_PORT is not'],
    [{ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }, 'METRICS_HOST: 0.0.0.0 is not a loopback address'],
  ])('%j is refused', (env, message) => {
    expect(refusal(env)).toContain(`  ${message}`);
  });
  it.each<Record<string, string>>([
    {},
    { METRICS_TOKEN: TOKEN },
    { METRICS_PORT: '9464' },
    { METRICS_PORT: '9464', METRICS_HOST: '::1' },
    { METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: TOKEN },
  ])('%j is taken', (env) => {
    expect(refusal(env)).toBeUndefined();
  });
});

describe('countingRejections', () => {
  class Store {
    calls = 0;
    async put(fail: 'no' | 'error' | 'answer'): Promise<string> {
      this.calls += 1;
      if (fail === 'error') throw new Error('connect ETIMEDOUT');
      if (fail === 'answer') throw new ApiError('NOT_FOUND', 'key: nothing stored');
      return 'stored';
    }
    check(): boolean {
      throw new Error('a synchronous throw is not counted');
    }
  }

  it('counts the calls that reject, by method; an ApiError or a synchronous throw is no failure', async () => {
    const metrics = new PortalMetrics({ hashQueueMax: 1 });
    const store = new Store();
    const counted = countingRejections(store, (operation) => metrics.storageErrors.inc({ operation }));
    expect(counted).toBeInstanceOf(Store);
    expect(await counted.put('no')).toBe('stored');
    await expect(counted.put('error')).rejects.toThrow('ETIMEDOUT');
    await expect(counted.put('error')).rejects.toThrow('ETIMEDOUT');
    await expect(counted.put('answer')).rejects.toBeInstanceOf(ApiError);
    expect(() => counted.check()).toThrow('synchronous');
    expect(counted.calls).toBe(4);
    const { body } = await metrics.scrape();
    expect(seriesValue(body, 'portal_storage_errors_total{operation="put"}')).toBe(2);
    expect(body).not.toContain('operation="check"');
  });
});
