// Live events at scale (issue 33): BENCH_STREAMS (10,000) server-sent event streams held open on one
// portal instance against PostgreSQL; prints the server's memory per stream, its CPU while idle
// (heartbeats included), and the delay from a robot's report (UPDATEROBOT) to the event on its
// owner's stream, p50 and p99, first with one instance (the report goes to the instance holding the
// streams) and then with two (the report goes to the other one, through NOTIFY). Prints numbers,
// passes or fails on nothing; stops itself within 5 minutes. Loopback only.
//
// PostgreSQL: a fresh database on DATABASE_URL's server (dropped at the end) when it is set; otherwise
// a throwaway PostgreSQL 15 (@portal/testing/postgres). Sessions and stream tickets are written into
// the database directly, as sign-ins and OpenEventStream would write them: 10,000 real sign-ins would
// be 10,000 argon2 hashes and meet the per-account caps. Reports carry access tokens signed with the
// servers' JWT_SECRET for those sessions. The portal runs from its sources (node --import tsx), or
// from a build with BENCH_DIST=apps/server/dist; in production mode, its request log off (LOG_REQUESTS).
//
// Each stream is a socket in the portal and one in this process: the open-files limit must allow
// BENCH_STREAMS + 1,024. When it is lower, the script runs itself again under `ulimit -n 65536`.
//
// Run: npx tsx bench/event-streams.ts   (BENCH_STREAMS, BENCH_STREAM_REPORTS, BENCH_STREAM_IDLE_S)
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { type ClientRequest, get, type IncomingMessage, request } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@portal/testing/net';
import { startTestPostgres } from '@portal/testing/postgres';
import postgres from 'postgres';
import { openPostgres } from '../apps/server/src/db/client.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { TokenService } from '../apps/server/src/lib/tokens.ts';
import { cpuMsOf, portalEnv } from './lib/processes.ts';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 10_000);
/** Reports timed per setting, one at a time, each from another owner. */
const REPORTS = Math.min(Number(process.env.BENCH_STREAM_REPORTS ?? 200), STREAMS);
/** Seconds of idle measured with the streams open (15 s heartbeats: two of them by default). */
const IDLE_S = Number(process.env.BENCH_STREAM_IDLE_S ?? 30);
/** Streams being opened at once (the listen backlog is 511). */
const OPENING_AT_ONCE = 200;
const DEADLINE_MS = 5 * 60_000 - 10_000;
const ROOT = resolve(import.meta.dirname, '..');
const WANTED_FILES = 65_536;

// ---- the open-files limit ----

function openFilesLimit(): { soft: number; hard: number } {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  const [soft, hard] = (line?.match(/(\d+|unlimited)\s+(\d+|unlimited)/)?.slice(1) ?? []).map((v) =>
    v === 'unlimited' ? Number.POSITIVE_INFINITY : Number(v),
  );
  return { soft: soft ?? 1024, hard: hard ?? 1024 };
}

{
  const need = STREAMS + 1_024;
  const { soft } = openFilesLimit();
  if (soft < Math.min(need * 2, WANTED_FILES) && !process.env.BENCH_STREAMS_REEXEC) {
    // Raised by a shell for a child of it (and the portals it starts); as root the hard limit rises too.
    const script = `ulimit -n ${WANTED_FILES} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "$0" "$@"`;
    const again = spawnSync('bash', ['-c', script, process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_STREAMS_REEXEC: '1' },
    });
    process.exit(again.status ?? 1);
  }
  if (soft < need) {
    console.error(
      `open files: ${soft} allowed, ${need} needed for ${STREAMS} streams. Raise it first (bash: ulimit -n ${WANTED_FILES}; ` +
        'past the hard limit: as root, or nofile in /etc/security/limits.conf), or set BENCH_STREAMS lower.',
    );
    process.exit(2);
  }
}

// ---- clean-up and the deadline ----

const cleanups: (() => unknown)[] = [];
async function cleanUp() {
  for (const step of cleanups.splice(0).reverse()) await Promise.resolve(step()).catch((err) => console.error(err));
}
const deadline = setTimeout(() => {
  console.error(`stopped: the run passed ${DEADLINE_MS / 1000} s`);
  void cleanUp().finally(() => process.exit(1));
}, DEADLINE_MS);
deadline.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));

const log = (line: string) => console.log(line);
const round = (v: number, digits = 1) => Math.round(v * 10 ** digits) / 10 ** digits;
const mib = (bytes: number) => round(bytes / 1024 / 1024);

// ---- the database ----

async function database(): Promise<string> {
  const given = process.env.DATABASE_URL;
  if (!given) {
    const pg = await startTestPostgres();
    cleanups.push(() => pg.stop());
    log(`PostgreSQL: embedded PostgreSQL 15 on 127.0.0.1:${pg.port}`);
    return pg.url;
  }
  const name = `portal_bench_streams_${process.pid}`;
  const admin = postgres(given, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const again = postgres(given, { max: 1, onnotice: () => {} });
    await again.unsafe(`drop database if exists ${name} with (force)`);
    await again.end();
  });
  const url = new URL(given);
  url.pathname = `/${name}`;
  log(`PostgreSQL: database ${name} on DATABASE_URL's server (${url.host}), dropped at the end`);
  return url.toString();
}

interface Owner {
  userId: string;
  email: string;
  sessionId: string;
  robotId: string;
}

/** One verified account per stream, each with a live portal session and a robot it owns. */
async function seed(url: string): Promise<Owner[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    // Nobody signs in: the hash is never checked.
    const users = await sql<{ id: string; email: string }[]>`
      insert into users (email, password_hash, name, year_born, country, terms_agreed, email_validated, joined_at)
      select 'stream-' || i || '@bench-portal.net', 'no-sign-in', 'Stream ' || i, 1990, 'United Kingdom', true, true, now()
      from generate_series(1, ${STREAMS}) i
      returning id, email`;
    const sessions = await sql<{ id: string; user_id: string }[]>`
      insert into sessions (user_id, target, expires_at, last_used_at)
      select id, 'portal', now() + interval '1 day', now() from users where email like 'stream-%@bench-portal.net'
      returning id, user_id`;
    const robots = await sql<{ id: string; user_id: string }[]>`
      insert into robots (user_id, make, model, name, hardware_hash, available, registered_at, updated_at)
      select id, 'Pepper', 'Pepper 1.8', 'Robot of ' || email, 'hw-stream-' || id, false, now(), now()
      from users where email like 'stream-%@bench-portal.net'
      returning id, user_id`;
    await sql`vacuum analyze`;
    const sessionOf = new Map(sessions.map((s) => [s.user_id, s.id]));
    const robotOf = new Map(robots.map((r) => [r.user_id, r.id]));
    return users.map((u) => ({
      userId: u.id,
      email: u.email,
      sessionId: sessionOf.get(u.id) as string,
      robotId: robotOf.get(u.id) as string,
    }));
  } finally {
    await sql.end();
  }
}

/** A single-use ticket per owner, written as OpenEventStream writes it (its SHA-256, good for 10 minutes). */
async function tickets(url: string, owners: readonly Owner[]): Promise<string[]> {
  const issued = owners.map(() => randomBytes(32).toString('base64url'));
  const hashes = issued.map((t) => createHash('sha256').update(t).digest('hex'));
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`
      insert into event_tickets (hash, user_id, session_id, expires_at)
      select h, u::uuid, s::uuid, now() + interval '10 minutes'
      from unnest(${hashes}::text[], ${owners.map((o) => o.userId)}::text[], ${owners.map((o) => o.sessionId)}::text[]) as t(h, u, s)`;
  } finally {
    await sql.end();
  }
  return issued;
}

// ---- the portal processes ----

interface Portal {
  name: string;
  url: string;
  port: number;
  metricsUrl: string;
  child: ChildProcess;
  cpuMs(): number;
  rssBytes(): number;
  stop(): Promise<void>;
}

function rssOf(pid: number): number {
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kib) * 1024;
}

async function startPortal(name: string, databaseUrl: string, secret: string): Promise<Portal> {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const dist = process.env.BENCH_DIST ? resolve(process.env.BENCH_DIST) : undefined;
  const args = dist ? [join(dist, 'server.js')] : ['--import', 'tsx', join(ROOT, 'apps/server/src/server.ts')];
  const logDir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'bench-streams-'));
  const logFd = openSync(join(logDir, 'stdout.log'), 'w+');
  const env = portalEnv(databaseUrl, port, {
    JWT_SECRET: secret,
    DATA_DIR: join(logDir, 'data'),
    // 10,000 request lines would be the log's figure, not the streams'.
    LOG_REQUESTS: 'false',
    METRICS_PORT: String(metricsPort),
    RETENTION_INTERVAL_S: '0',
  });
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', logFd, 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= new Promise<void>((done) => {
      const finish = () => {
        closeSync(logFd);
        rmSync(logDir, { recursive: true, force: true });
        done();
      };
      if (child.exitCode !== null || child.signalCode !== null) return finish();
      child.once('exit', finish);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
    }));
  cleanups.push(stop);
  for (let i = 0; ; i++) {
    if (child.exitCode !== null)
      throw new Error(
        `${name} exited with ${child.exitCode}\n${stderr}${readFileSync(join(logDir, 'stdout.log'), 'utf8').slice(-4000)}`,
      );
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {}
    if (i > 600) throw new Error(`${name} did not answer ${url}/healthz`);
    await sleep(100);
  }
  const pid = child.pid as number;
  return {
    name,
    url,
    port,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    child,
    cpuMs: () => cpuMsOf(pid),
    rssBytes: () => rssOf(pid),
    stop,
  };
}

/** One figure of a portal's /metrics (its own listener on loopback). */
async function metric(portal: Portal, name: string): Promise<number> {
  const text = await (await fetch(portal.metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : Number.NaN;
}

/** CPU the portal used over `seconds` of wall time, as a share of one core; its resident memory sampled each second. */
async function idle(portal: Portal, seconds: number): Promise<{ cpuPercent: number; rssMax: number; rssEnd: number }> {
  const cpu0 = portal.cpuMs();
  const t0 = performance.now();
  let rssMax = 0;
  for (let s = 0; s < seconds; s++) {
    await sleep(1000);
    rssMax = Math.max(rssMax, portal.rssBytes());
  }
  const cpuPercent = ((portal.cpuMs() - cpu0) / (performance.now() - t0)) * 100;
  return { cpuPercent: round(cpuPercent, 2), rssMax, rssEnd: portal.rssBytes() };
}

// ---- the streams ----

interface Stream {
  owner: Owner;
  request: ClientRequest;
  /** resolves with the time a matching data frame arrived */
  waitFor(match: (m: Record<string, unknown>) => boolean): Promise<number>;
}

/** Opens a stream with its ticket and resolves once it says `ready`; only `watched` streams parse their frames. */
function openStream(portal: Portal, owner: Owner, ticket: string, watched: boolean): Promise<Stream> {
  return new Promise((resolveStream, reject) => {
    let buffer = '';
    let ready = false;
    const waiting: { match: (m: Record<string, unknown>) => boolean; done: (t: number) => void }[] = [];
    const req = get(
      { host: '127.0.0.1', port: portal.port, path: `/api/events/stream?ticket=${ticket}`, agent: false },
      (res: IncomingMessage) => {
        if (res.statusCode !== 200) {
          reject(new Error(`a stream answered ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (ready && !watched) return;
          const at = performance.now();
          buffer += chunk;
          for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
            const frame = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            if (!frame.startsWith('data: ')) continue;
            const message = JSON.parse(frame.slice(6)) as Record<string, unknown>;
            if (message.kind === 'ready' && !ready) {
              ready = true;
              resolveStream(stream);
              continue;
            }
            const i = waiting.findIndex((w) => w.match(message));
            if (i >= 0) waiting.splice(i, 1)[0]?.done(at);
          }
        });
      },
    );
    req.on('error', reject);
    const stream: Stream = {
      owner,
      request: req,
      waitFor: (match) => new Promise((done) => waiting.push({ match, done })),
    };
  });
}

async function openStreams(portal: Portal, owners: readonly Owner[], issued: readonly string[], watched: number) {
  const streams: Stream[] = new Array(owners.length);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: OPENING_AT_ONCE }, async () => {
      for (let i = next++; i < owners.length; i = next++)
        streams[i] = await openStream(portal, owners[i] as Owner, issued[i] as string, i < watched);
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  cleanups.push(() => closeStreams(streams));
  return { streams, seconds };
}

function closeStreams(streams: readonly Stream[]) {
  for (const s of streams) s?.request.destroy();
}

// ---- reports ----

function post(url: string, path: string, headers: Record<string, string>, body: unknown): Promise<number> {
  return new Promise((done, reject) => {
    const target = new URL(path, url);
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** The value at quantile q of sorted numbers (nearest rank). */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/** REPORTS robots flip their availability through `to`, one after another; the time until each owner's stream has it. */
async function reports(to: Portal, streams: readonly Stream[], tokens: TokenService) {
  const csrfAnswer = await fetch(`${to.url}/api/useraction`);
  const csrf = csrfAnswer.headers.get('x-csrf-token') as string;
  const latencies: number[] = [];
  for (const stream of streams.slice(0, REPORTS)) {
    const { owner } = stream;
    const access = await tokens.signAccess({ sub: owner.userId, sid: owner.sessionId, email: owner.email });
    const arrived = stream.waitFor(
      (m) => m.kind === 'robot.availability' && m.robot_id === owner.robotId && m.available === true,
    );
    const sent = performance.now();
    const status = await post(
      to.url,
      '/api/robots',
      { 'content-type': 'application/json', 'x-csrf-token': csrf, authorization: `Bearer ${access}` },
      { action: 'UPDATEROBOT', email: owner.email, robot_id: owner.robotId, robot_state: { available: true } },
    );
    if (status !== 200) throw new Error(`UPDATEROBOT answered ${status}`);
    latencies.push((await arrived) - sent);
  }
  const sorted = latencies.sort((a, b) => a - b);
  return { p50: round(quantile(sorted, 0.5)), p99: round(quantile(sorted, 0.99)), max: round(sorted.at(-1) ?? 0) };
}

/** Resets the robots the reports flipped, so the next setting flips them again. */
async function resetRobots(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await sql`update robots set available = false where available`;
  await sql.end();
}

// ---- one setting ----

async function setting(instances: 1 | 2, url: string, owners: readonly Owner[], secret: string) {
  log(
    `\n${instances} instance${instances === 1 ? '' : 's'}: ${STREAMS} streams on B${instances === 2 ? ', reports to A' : ', reports to B too'}`,
  );
  const b = await startPortal('portal B', url, secret);
  const a = instances === 2 ? await startPortal('portal A', url, secret) : b;
  await sleep(3000);
  const before = await idle(b, 10);
  log(`  B idle without streams: CPU ${before.cpuPercent}% of a core, RSS ${mib(before.rssEnd)} MiB`);

  const issued = await tickets(url, owners);
  const { streams, seconds } = await openStreams(b, owners, issued, REPORTS);
  const held = await metric(b, 'portal_event_streams_open');
  log(
    `  opened ${streams.length} streams in ${round(seconds)} s (${Math.round(streams.length / seconds)}/s); B holds ${held}`,
  );
  await sleep(2000);
  const open = await idle(b, IDLE_S);
  const heap = await metric(b, 'nodejs_heap_size_used_bytes');
  const perStream = (open.rssEnd - before.rssEnd) / streams.length;
  log(
    `  B idle with ${streams.length} streams for ${IDLE_S} s: CPU ${open.cpuPercent}% of a core; RSS ${mib(open.rssEnd)} MiB ` +
      `(max ${mib(open.rssMax)}), ${round(perStream / 1024, 2)} KiB a stream over the idle server; JS heap used ${mib(heap)} MiB`,
  );
  const idleA = instances === 2 ? await idle(a, 5) : undefined;
  if (idleA) log(`  A (no streams) meanwhile: CPU ${idleA.cpuPercent}% of a core, RSS ${mib(idleA.rssEnd)} MiB`);

  const tokens = new TokenService(secret, systemClock, 3600, 86_400);
  const delay = await reports(a, streams, tokens);
  log(
    `  report -> owner's stream, ${REPORTS} reports one at a time: p50 ${delay.p50} ms, p99 ${delay.p99} ms, max ${delay.max} ms`,
  );

  closeStreams(streams);
  await Promise.all([...new Set([a, b])].map((p) => p.stop()));
  await resetRobots(url);
  return {
    instances,
    streams: streams.length,
    openSeconds: round(seconds),
    idleCpuPercentWithout: before.cpuPercent,
    idleCpuPercentWith: open.cpuPercent,
    rssMiBWithout: mib(before.rssEnd),
    rssMiBWith: mib(open.rssEnd),
    rssMiBMax: mib(open.rssMax),
    kibPerStream: round(perStream / 1024, 2),
    heapMiB: mib(heap),
    delayMs: delay,
    ...(idleA ? { otherInstanceIdleCpuPercent: idleA.cpuPercent } : {}),
  };
}

async function main() {
  const started = Date.now();
  log(
    `event streams: ${STREAMS} streams, ${REPORTS} reports a setting, ${IDLE_S} s idle; ${availableParallelism()} cores, Node ${process.version}, ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(
          ' ',
        )}, open files ${openFilesLimit().soft}${process.env.BENCH_STREAMS_REEXEC ? ` (after ulimit -n; hard limit ${openFilesLimit().hard})` : ''}; portal from ${process.env.BENCH_DIST ?? 'its sources (tsx)'}`,
  );
  const url = await database();
  const migrating = openPostgres(url, 1);
  await migrating.migrate();
  await migrating.close();
  const owners = await seed(url);
  const secret = randomBytes(48).toString('base64url');
  log(
    `seeded ${owners.length} accounts, each with a session and a robot, in ${round((Date.now() - started) / 1000)} s`,
  );
  const results = [];
  for (const instances of [1, 2] as const) results.push(await setting(instances, url, owners, secret));
  log(`\n${JSON.stringify(results)}`);
  log(`done in ${round((Date.now() - started) / 1000)} s; load average now ${loadavg()[0]?.toFixed(2)}`);
}

main()
  .then(cleanUp, async (err) => {
    console.error(err);
    await cleanUp();
    process.exitCode = 1;
  })
  .finally(() => clearTimeout(deadline));
