import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { time } from '@portal/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { openPostgres } from './db/client.ts';
import { DRAIN_MIN_MS, finishShutdown, shutDown, startDraining } from './lib/shutdown.ts';
import { freshDatabase, seedUser, testConfig } from './test/harness.ts';
import { emptyPostgresDatabase, NEEDS_POSTGRES, TEST_DATABASE_URL } from './test/postgres.ts';

/** One HTTP request; answers status, headers and the whole body, or the connection error. */
interface Outcome {
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  body?: string;
  /** a connection-level failure before any answer: ECONNREFUSED, ECONNRESET, ... */
  error?: string;
  /** the answer began but did not complete */
  truncated?: boolean;
}

function send(
  url: string,
  opts: { agent?: Agent; method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: opts.method ?? 'GET', agent: opts.agent ?? false, headers: opts.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('aborted', () => resolve({ status: res.statusCode, truncated: true }));
        res.on('error', () => resolve({ status: res.statusCode, truncated: true }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end(opts.body);
  });
}

/** Connection failures that mean "the server did not take this request": nothing of it was processed. */
const REFUSED = ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'socket hang up'];

describe('graceful shutdown, in process', () => {
  it('a request written on a kept-alive socket just after the signal is answered, with Connection: close', {
    timeout: 20_000,
  }, async () => {
    const database = await freshDatabase();
    const app = await buildApp({ config: testConfig(), database, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const socket = connect((app.server.address() as AddressInfo).port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
    });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => {});
    const answers = async (n: number) => {
      for (let i = 0; i < 200 && (received.match(/HTTP\/1\.1 /g) ?? []).length < n; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
    };
    const ask = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    socket.write(ask);
    await answers(1);
    expect(received).toMatch(/^HTTP\/1\.1 200[\s\S]*connection: keep-alive/i);
    // The signal; the socket is idle. A request the client had already sent arrives a moment later.
    const stopping = shutDown(app, database, 0);
    await new Promise((resolve) => setTimeout(resolve, DRAIN_MIN_MS / 5));
    socket.write(ask);
    await answers(2);
    const second = received.slice(received.lastIndexOf('HTTP/1.1 '));
    expect(second).toMatch(/^HTTP\/1\.1 200[\s\S]*connection: close/i);
    await closed;
    await stopping;
  });

  it('drains (readyz 503, connections not kept), refuses new connections and answers the request in flight', async () => {
    const database = await freshDatabase();
    const app = await buildApp({ config: testConfig(), database, logger: false });
    let entered!: () => void;
    const inFlight = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A request the test holds open: it is in flight for as long as the test says.
    app.get('/test/slow', async () => {
      entered();
      await gate;
      return { done: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });

    const ready = await send(`${base}/readyz`, { agent });
    expect(ready.status).toBe(200);
    expect(ready.headers?.connection).toBe('keep-alive');
    const slow = send(`${base}/test/slow`);
    await inFlight;

    startDraining(app);
    const draining = await send(`${base}/readyz`, { agent });
    expect(draining.status).toBe(503);
    expect(JSON.parse(draining.body ?? '{}')).toMatchObject({ status: 'draining' });
    expect(draining.headers?.connection).toBe('close');
    const stillServed = await send(`${base}/healthz`);
    expect(stillServed.status).toBe(200);

    let finished = false;
    const closing = finishShutdown(app, database).then(() => {
      finished = true;
    });
    while (app.server.listening) await new Promise((resolve) => setImmediate(resolve));
    expect((await send(`${base}/healthz`)).error).toBe('ECONNREFUSED');
    expect(finished).toBe(false);

    release();
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body ?? '{}')).toEqual({ done: true });
    await closing;
    expect(finished).toBe(true);
    agent.destroy();
  });
});

describe.skipIf(!TEST_DATABASE_URL)(
  `graceful shutdown of the real server process under load${TEST_DATABASE_URL ? '' : ` (${NEEDS_POSTGRES})`}`,
  () => {
    const here = fileURLToPath(new URL('.', import.meta.url));
    let dataDir = '';
    let child: ChildProcess | undefined;
    let drop: (() => Promise<void>) | undefined;

    afterAll(async () => {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      await drop?.();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    // A process started through tsx, then at least DRAIN_MIN_MS of draining: well over the default 5 s on a busy machine.
    it('SIGTERM during 50 connections of load fails no request the server took, refuses new connections and exits 0', {
      timeout: 30_000,
    }, async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'portal-shutdown-'));
      const empty = await emptyPostgresDatabase(TEST_DATABASE_URL as string);
      drop = empty.drop;
      // A user to call as: migrate and seed first (the server finds nothing left to migrate).
      const database = openPostgres(empty.url, 2);
      await database.migrate();
      const config = testConfig({ DATABASE_URL: empty.url, DATA_DIR: dataDir });
      const seeded = await seedUser({ app: { deps: { db: database.db } } } as never);
      await database.close();

      child = spawn(process.execPath, ['--import', 'tsx', join(here, 'server.ts')], {
        env: {
          ...process.env,
          NODE_ENV: 'test',
          DATABASE_URL: empty.url,
          DATA_DIR: dataDir,
          JWT_SECRET: config.JWT_SECRET,
          PORT: '0',
          HOST: '127.0.0.1',
          PUBLIC_URL: 'http://127.0.0.1',
          SEED_DEMO: 'false',
          LIFECYCLE_INTERVAL_S: '0',
          LOG_LEVEL: 'info',
          ARGON2_MEMORY_KIB: '1024',
          ARGON2_TIME_COST: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      const exited = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)));
      const base = await new Promise<string>((resolve, reject) => {
        child?.stdout?.on('data', (chunk: Buffer) => {
          log += chunk.toString('utf8');
          const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
          if (m) resolve(m[1] as string);
        });
        child?.stderr?.on('data', (chunk: Buffer) => {
          log += chunk.toString('utf8');
        });
        void exited.then((code) => reject(new Error(`the server exited (${code}) before listening:\n${log}`)));
      });

      const csrf = (await send(`${base}/api/useraction`)).headers?.['x-csrf-token'] as string;
      const login = await send(`${base}/api/useraction`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({ action: 'login', user: { email: seeded.email, password: seeded.password } }),
      });
      const token = JSON.parse(login.body ?? '{}').token_pair?.access_token as string;
      expect(token, login.body).toBeTruthy();

      // 50 connections, each a loop of requests: a signed-in read (several queries) and the readiness check.
      const agent = new Agent({ keepAlive: true, maxSockets: 50 });
      const read = () =>
        send(`${base}${time.path}`, {
          agent,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, authorization: `Bearer ${token}` },
          body: JSON.stringify({ action: 'CHECK_REMAINING_TIME', email: seeded.email }),
        });
      const outcomes: { kind: 'read' | 'ready'; afterSignal: boolean; doneAfterSignal: boolean; outcome: Outcome }[] =
        [];
      let signalled = false;
      let warm!: () => void;
      const warmedUp = new Promise<void>((resolve) => {
        warm = resolve;
      });
      const worker = async () => {
        for (let i = 0; ; i++) {
          const kind = i % 4 === 3 ? 'ready' : 'read';
          const afterSignal = signalled;
          const outcome = kind === 'read' ? await read() : await send(`${base}/readyz`, { agent });
          outcomes.push({ kind, afterSignal, doneAfterSignal: signalled, outcome });
          if (outcomes.length >= 200) warm();
          if (outcome.error === 'ECONNREFUSED') return;
        }
      };
      const workers = Array.from({ length: 50 }, () => worker());
      await warmedUp;
      signalled = true;
      child.kill('SIGTERM');
      await Promise.all(workers);
      const code = await exited;
      agent.destroy();

      const answered = outcomes.filter((o) => o.outcome.status !== undefined);
      const failed = outcomes.filter((o) => o.outcome.error);
      // Every answer is whole and right: reads 200; readiness 200, or 503 "draining" once the signal went.
      expect(outcomes.filter((o) => o.outcome.truncated)).toEqual([]);
      expect(answered.filter((o) => o.kind === 'read' && o.outcome.status !== 200)).toEqual([]);
      for (const o of answered.filter((x) => x.kind === 'ready')) {
        if (o.outcome.status === 200) continue;
        expect(o.afterSignal).toBe(true);
        expect([o.outcome.status, JSON.parse(o.outcome.body ?? '{}').status]).toEqual([503, 'draining']);
      }
      for (const o of answered.filter((x) => x.kind === 'read'))
        expect(JSON.parse(o.outcome.body ?? '{}').error?.Success).toBe(true);
      // Requests the server never took are refused at the connection, and only after the signal.
      expect(failed.filter((o) => !o.afterSignal || !REFUSED.includes(o.outcome.error ?? ''))).toEqual([]);
      // Requests in flight when the signal came were answered in full before the process ended.
      const inFlight = answered.filter((o) => !o.afterSignal && o.doneAfterSignal);
      expect(inFlight.length).toBeGreaterThan(0);
      expect(code).toBe(0);
      expect(log).toContain('shut down');
      expect((await send(`${base}/healthz`)).error).toBe('ECONNREFUSED');
      console.info(
        `shutdown under load: ${answered.length} answered, ${inFlight.length} of them in flight at SIGTERM, ` +
          `${answered.filter((o) => o.afterSignal).length} sent after it; ${failed.length} refused at the connection`,
      );
    });
  },
);
