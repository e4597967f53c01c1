// `npm run bench`: the portal's server-side performance against a bare baseline and the hashing
// limit, measured in one run on a throwaway PostgreSQL (or DATABASE_URL). Prints every figure and
// target, and writes them as JSON under bench/results/. See bench/README.md and docs/performance.md.
//
// Sections run in order and each adds its figures to the result; `targets` come last and read the
// figures of the others. Another section (the Lighthouse runs of bench/lighthouse.ts) is added by
// pushing it into `sections` before `targetsSection`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { hashSync, verifySync } from '@node-rs/argon2';
import { jwtVerify, SignJWT } from 'jose';
import postgres from 'postgres';
import { hs256Key, signHs256, verifyHs256 } from '../apps/server/src/lib/jwt-hs256.ts';
import { type Cluster, startCluster } from './lib/cluster.ts';
import { type LoadOptions, type LoadResult, load, together } from './lib/load.ts';
import { portalEnv, type Server, startBaseline, startPortal } from './lib/processes.ts';
import { LICENCE_COUNTS, PASSWORD, type Seeded, seed } from './lib/seed.ts';
import { median } from './lib/stats.ts';
import { formatLighthouse, runLighthouse, startPortal as startBuiltPortal } from './lighthouse.ts';

const ROOT = resolve(import.meta.dirname, '..');
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const WARMUP_S = 1;
/** Reads: portal and baseline measured in turns, this many rounds of this many seconds each. */
const READ_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const READ_ROUND_S = Number(process.env.BENCH_ROUND_S ?? 3);
/** Sign-in: measured this many times, each on a fresh portal process; the median is the figure. */
const SIGN_IN_ROUNDS = Number(process.env.BENCH_SIGN_IN_ROUNDS ?? 3);
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 54351);
const PORTAL_PORT = Number(process.env.BENCH_PORT ?? 4651);
const BASELINE_PORT = PORTAL_PORT + 1;
/** The built server measured; BENCH_DIST measures another build (docs/performance.md: the "before" column). */
const DIST = resolve(process.env.BENCH_DIST ?? join(ROOT, 'apps/server/dist'));
const COST = { memoryCost: 19_456, timeCost: 2 };

export interface Context {
  cluster: Cluster;
  portal: Server;
  baseline: Server;
  seeded: Seeded;
  /** whether the build bounds hashing (HASH_CONCURRENCY); builds before issue 13 do not */
  bounded: boolean;
  /** hashes the portal allows at once */
  hashConcurrency: number;
  tokens: Record<string, { access: string; sid: string; uid: string }>;
  csrf: string;
  /** the environment the portal runs with (freshServers starts it again with it) */
  portalEnv: Record<string, string>;
  /** every figure so far, by section */
  results: Record<string, Record<string, unknown>>;
  /** the error lines of servers a section stopped (printed at the end with the running ones') */
  stoppedErrorLines: string[];
}

export interface Section {
  name: string;
  run(ctx: Context): Promise<Record<string, unknown>>;
}

// ---- measuring ----

interface Measured extends LoadResult {
  statementsPerRequest?: number;
  logLinesPerRequest?: number;
  cpuMsPerRequest?: number;
  /** read and write system calls a request (sockets to the client and to PostgreSQL, the log pipe) */
  syscallsPerRequest?: { reads: number; writes: number; bytesRead: number; bytesWritten: number };
  rateLimitWritesPerRequest?: number;
}

const PROBE = '/* bench-probe */';

/** One connection for the benchmark's own questions (no type lookup: it would count as a statement). */
let probeSql: postgres.Sql | undefined;
const probe = (ctx: Context) => {
  probeSql ??= postgres(ctx.cluster.url, { max: 1, fetch_types: false, onnotice: () => {} });
  return probeSql;
};

async function statementCalls(ctx: Context): Promise<number | undefined> {
  if (!ctx.cluster.statements) return undefined;
  const [row] = await probe(ctx).unsafe(
    `${PROBE} select coalesce(sum(calls), 0)::bigint as n from pg_stat_statements
     where query not like '%bench-probe%' and query not like '%pg_stat_statements%'`,
  );
  return Number(row?.n ?? 0);
}

async function rateLimitHits(ctx: Context): Promise<number> {
  const [row] = await probe(ctx).unsafe(`${PROBE} select coalesce(sum(count), 0)::bigint as n from rate_limits`);
  return Number(row?.n ?? 0);
}

/**
 * What one request makes the server do, counted exactly: `n` requests one after the other on a
 * quiet server (the load's stragglers answered first), with the statements PostgreSQL ran, the log
 * lines the server wrote and the rate-limit counts it added in between.
 */
async function perRequest(ctx: Context, server: Server, opts: Omit<LoadOptions, 'durationS'>, n = 10) {
  await new Promise((r) => setTimeout(r, 500));
  const before = { statements: await statementCalls(ctx), lines: server.logLines(), limits: await rateLimitHits(ctx) };
  for (let i = 0; i < n; i++) {
    const res = await fetch(opts.url, {
      method: opts.method ?? 'GET',
      headers: { 'content-type': 'application/json', ...opts.headers },
      ...(opts.body === undefined ? {} : { body: opts.body }),
    });
    await res.arrayBuffer();
  }
  // the last line is written as the answer goes out: give the pipe a moment
  await new Promise((r) => setTimeout(r, 200));
  const statements = await statementCalls(ctx);
  const per = (d: number) => Math.round((d / n) * 100) / 100;
  return {
    ...(statements !== undefined && before.statements !== undefined
      ? { statementsPerRequest: per(statements - before.statements) }
      : {}),
    logLinesPerRequest: per(server.logLines() - before.lines),
    rateLimitWritesPerRequest: per((await rateLimitHits(ctx)) - before.limits),
  };
}

/**
 * One load after a short warm-up, with the server CPU it took and, unless `counted` is false, what
 * one request does (perRequest).
 */
async function measure(
  ctx: Context,
  server: Server,
  opts: Omit<LoadOptions, 'durationS'>,
  { durationS = DURATION_S, counted = true }: { durationS?: number; counted?: boolean } = {},
): Promise<Measured> {
  await load({ ...opts, durationS: WARMUP_S });
  const cpuBefore = server.cpuMs();
  const callsBefore = server.syscalls();
  const result = await load({ ...opts, durationS });
  const cpu = server.cpuMs() - cpuBefore;
  const calls = server.syscalls();
  const perReq = (n: number) => Math.round((n / Math.max(1, result.requests)) * 100) / 100;
  return {
    ...result,
    cpuMsPerRequest: perReq(cpu),
    syscallsPerRequest: {
      reads: perReq(calls.reads - callsBefore.reads),
      writes: perReq(calls.writes - callsBefore.writes),
      bytesRead: Math.round((calls.bytesRead - callsBefore.bytesRead) / Math.max(1, result.requests)),
      bytesWritten: Math.round((calls.bytesWritten - callsBefore.bytesWritten) / Math.max(1, result.requests)),
    },
    ...(counted ? await perRequest(ctx, server, opts) : {}),
  };
}

/**
 * Replaces the portal (and, unless told otherwise, the baseline) with fresh processes of the same
 * build and environment; the error lines of the stopped ones are kept for the end of the run. Of two
 * processes started one after the other here, the first was more often the slower one (decision
 * 049): `baselineFirst` lets a caller alternate which server starts first.
 */
async function freshServers(
  ctx: Context,
  { baseline = true, baselineFirst = false }: { baseline?: boolean; baselineFirst?: boolean } = {},
): Promise<void> {
  const portal = async () => {
    ctx.stoppedErrorLines.push(...ctx.portal.errorLines());
    await ctx.portal.stop();
    ctx.portal = await startPortal(DIST, ctx.portalEnv);
  };
  const bare = async () => {
    ctx.stoppedErrorLines.push(...ctx.baseline.errorLines());
    await ctx.baseline.stop();
    ctx.baseline = await startBaseline(ctx.cluster.url, BASELINE_PORT, {});
  };
  if (!baseline) return portal();
  if (baselineFirst) {
    await bare();
    await portal();
  } else {
    await portal();
    await bare();
  }
}

// ---- the calls ----

const signIn = (url: string, csrf: string, connections: number): Omit<LoadOptions, 'durationS'> => ({
  url: `${url}/api/useraction`,
  method: 'POST',
  headers: { 'x-csrf-token': csrf },
  body: JSON.stringify({ action: 'login', user: { email: 'reader@bench-portal.net', password: PASSWORD } }),
  connections,
});

const READS = {
  GetAll: { path: '/api/assets', body: {} },
  CHECK_REMAINING_TIME: { path: '/api/dial_manager', body: {} },
  GetRobots: { path: '/api/robots', body: { robot_licenses: [] } },
} as const;
type Read = keyof typeof READS;

function portalRead(ctx: Context, action: Read, who: string, connections: number): Omit<LoadOptions, 'durationS'> {
  const token = ctx.tokens[who] as Context['tokens'][string];
  const email = who === 'reader' ? ctx.seeded.reader.email : (ctx.seeded.holders[Number(who)]?.email as string);
  return {
    url: `${ctx.portal.url}${READS[action].path}`,
    method: 'POST',
    headers: { authorization: `Bearer ${token.access}`, 'x-csrf-token': ctx.csrf },
    body: JSON.stringify({ action, email, ...READS[action].body }),
    connections,
  };
}

function baselineRead(ctx: Context, action: Read, who: string, connections: number): Omit<LoadOptions, 'durationS'> {
  const token = ctx.tokens[who] as Context['tokens'][string];
  return {
    url: `${ctx.baseline.url}/${action}`,
    method: 'POST',
    body: JSON.stringify({ sid: token.sid, uid: token.uid }),
    connections,
  };
}

const healthz = (url: string): Omit<LoadOptions, 'durationS'> => ({ url: `${url}/healthz`, connections: 1 });

const figures = (m: LoadResult) => ({
  rps: Math.round(m.rps * 10) / 10,
  p50: m.p50,
  p99: m.p99,
  ...(Object.keys(m.statuses).length ? { statuses: m.statuses } : {}),
  ...(m.errors ? { errors: m.errors } : {}),
});

const line = (label: string, m: Measured | LoadResult) => {
  const extra = 'cpuMsPerRequest' in m ? m : undefined;
  const parts = [
    `${m.rps.toFixed(1)} req/s`,
    `p50 ${m.p50} ms`,
    `p99 ${m.p99} ms`,
    ...(extra?.statementsPerRequest !== undefined ? [`${extra.statementsPerRequest} statements/req`] : []),
    ...(extra ? [`${extra.cpuMsPerRequest} ms CPU/req`, `${extra.logLinesPerRequest} log lines/req`] : []),
    ...(extra?.syscallsPerRequest
      ? [
          `syscalls/req ${extra.syscallsPerRequest.reads} read, ${extra.syscallsPerRequest.writes} write` +
            ` (${extra.syscallsPerRequest.bytesRead} B in, ${extra.syscallsPerRequest.bytesWritten} B out)`,
        ]
      : []),
    ...(Object.keys(m.statuses).length ? [`non-2xx ${JSON.stringify(m.statuses)}`] : []),
  ];
  console.log(`  ${label.padEnd(34)} ${parts.join(', ')}`);
};

// ---- sections ----

/** Times of one argon2 verify at the configured cost (synchronous: the hash alone), `count` in a row, in ms. */
let stored: string | undefined;
function verifyTimes(count: number): number[] {
  stored ??= hashSync(PASSWORD, { algorithm: 2, parallelism: 1, ...COST });
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    verifySync(stored, PASSWORD);
    times.push(performance.now() - start);
  }
  return times;
}

const hashingSection: Section = {
  name: 'hashing',
  async run(ctx) {
    const hashMs = median(verifyTimes(25));
    const limit = ctx.hashConcurrency / (hashMs / 1000);
    console.log(
      `  argon2id m=${COST.memoryCost} t=${COST.timeCost} p=1 verify: ${hashMs.toFixed(2)} ms; k=${ctx.hashConcurrency} at once; limit ${limit.toFixed(1)} sign-ins/s`,
    );
    return {
      cost: { ...COST, parallelism: 1 },
      verifyMs: Math.round(hashMs * 100) / 100,
      k: ctx.hashConcurrency,
      limitRps: Math.round(limit * 10) / 10,
    };
  },
};

const signInSection: Section = {
  name: 'signIn',
  async run(ctx) {
    // Each round on a fresh portal process (see the reads below), its hashing limit measured just
    // before and just after it (decision 052: this machine's verify time drifts by a third within
    // minutes); the round whose ratio is the median is the figure, what one sign-in does counted
    // in the first.
    const rounds: (Measured & { limitRps: number; ratio: number })[] = [];
    for (let r = 0; r < SIGN_IN_ROUNDS; r++) {
      await freshServers(ctx, { baseline: false });
      await sleep(500);
      const around = verifyTimes(25);
      const m = await measure(ctx, ctx.portal, signIn(ctx.portal.url, ctx.csrf, 20), { counted: r === 0 });
      await sleep(500);
      around.push(...verifyTimes(25));
      const limitRps = ctx.hashConcurrency / (median(around) / 1000);
      rounds.push({ ...m, limitRps, ratio: m.rps / limitRps });
    }
    const first = rounds[0] as Measured;
    const mid = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)] as (typeof rounds)[0];
    const m: Measured = {
      ...mid,
      statementsPerRequest: first.statementsPerRequest,
      logLinesPerRequest: first.logLinesPerRequest,
      rateLimitWritesPerRequest: first.rateLimitWritesPerRequest,
    };
    line('sign-in (20 connections)', m);
    console.log(
      `  sign-in: ${rounds.length} rounds on fresh processes, each against the hashing limit measured around it: ${rounds
        .map((x) => `${x.rps.toFixed(1)} of ${x.limitRps.toFixed(1)} = ${x.ratio.toFixed(2)}`)
        .join(', ')} req/s; the median ratio's round is the figure`,
    );
    return {
      ...figures(m),
      limitRps: Math.round(mid.limitRps * 10) / 10,
      ratio: Math.round(mid.ratio * 100) / 100,
      roundRatios: rounds.map((x) => Math.round(x.ratio * 100) / 100),
      statementsPerRequest: m.statementsPerRequest,
      cpuMsPerRequest: m.cpuMsPerRequest,
      rateLimitWritesPerRequest: m.rateLimitWritesPerRequest,
      logLinesPerRequest: m.logLinesPerRequest,
      roundRps: rounds.map((x) => Math.round(x.rps * 10) / 10),
    };
  },
};

/**
 * Issue 14's enumeration check: 200 sign-ins with an email nobody registered and 200 with a real
 * account's email and a wrong password, interleaved one at a time. Both must answer the same status
 * and body; their times are printed (tests never assert on time). The portal runs with its lockout
 * counts lifted for the benchmark, so every try goes through the password check.
 */
const enumerationSection: Section = {
  name: 'enumeration',
  async run(ctx) {
    const tries = Number(process.env.BENCH_ENUM_TRIES ?? 200);
    const times = { unknown: [] as number[], wrong: [] as number[] };
    const answers = { unknown: new Set<string>(), wrong: new Set<string>() };
    for (let i = 0; i < tries; i++)
      for (const kind of ['unknown', 'wrong'] as const) {
        const email = kind === 'unknown' ? `nobody-${i}@bench.invalid` : ctx.seeded.reader.email;
        const start = performance.now();
        const res = await fetch(`${ctx.portal.url}/api/useraction`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': ctx.csrf },
          body: JSON.stringify({ action: 'login', user: { email, password: 'Wrong-Password-1!' } }),
        });
        const body = await res.text();
        times[kind].push(performance.now() - start);
        answers[kind].add(`${res.status} ${body}`);
      }
    const stats = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      return {
        mean: Math.round(mean * 100) / 100,
        p50: Math.round(at(0.5) * 100) / 100,
        p99: Math.round(at(0.99) * 100) / 100,
      };
    };
    const unknown = stats(times.unknown);
    const wrong = stats(times.wrong);
    const sameAnswer = answers.unknown.size === 1 && [...answers.unknown].join() === [...answers.wrong].join();
    console.log(
      `  unknown email:  mean ${unknown.mean} ms, p50 ${unknown.p50} ms, p99 ${unknown.p99} ms (${tries} tries)`,
    );
    console.log(`  wrong password: mean ${wrong.mean} ms, p50 ${wrong.p50} ms, p99 ${wrong.p99} ms (${tries} tries)`);
    console.log(
      `  answers: ${sameAnswer ? 'one and the same' : `DIFFER: ${[...answers.unknown, ...answers.wrong].join(' | ')}`}`,
    );
    return { tries, unknown, wrong, meanRatio: Math.round((unknown.mean / wrong.mean) * 100) / 100, sameAnswer };
  },
};

const readsSection: Section = {
  name: 'reads',
  async run(ctx) {
    const out: Record<string, unknown> = {};
    // BENCH_READS=CHECK_REMAINING_TIME,GetRobots@1 measures only those (to profile one action).
    const wanted = process.env.BENCH_READS?.split(',');
    const cases = (
      [
        ['GetAll', 'GetAll', 'reader'],
        ['CHECK_REMAINING_TIME', 'CHECK_REMAINING_TIME', 'reader'],
        ...LICENCE_COUNTS.map((n): [string, Read, string] => [`GetRobots@${n}`, 'GetRobots', String(n)]),
      ] as [string, Read, string][]
    ).filter(([label]) => !wanted || wanted.includes(label));
    // Portal and baseline take turns, READ_ROUNDS times, the one going first alternating (ABBA): a
    // drift of the machine (another process, the host's neighbours) lands on both, and each ratio
    // is the median round's. Every round runs on fresh processes of both: two processes of one
    // build differ by up to 17% in CPU a request for their whole life on this machine, more than a
    // round differs from the next (decision 049, bench/process-spread.ts). What one request does is
    // counted in the first round.
    const byCase = new Map<string, { portal: Measured; bare: Measured; ratio: number }[]>();
    for (let r = 0; r < READ_ROUNDS; r++) {
      // The server started first, and the one measured first, alternate from round to round.
      await freshServers(ctx, { baselineFirst: r % 2 === 1 });
      // A fresh process is warmed on every read before any is measured (then measure warms again).
      for (const [, action, who] of cases) {
        await load({ ...portalRead(ctx, action, who, 10), durationS: WARMUP_S });
        await load({ ...baselineRead(ctx, action, who, 10), durationS: WARMUP_S });
      }
      for (const [label, action, who] of cases) {
        const counted = r === 0;
        const options = { durationS: READ_ROUND_S, counted };
        const runPortal = () => measure(ctx, ctx.portal, portalRead(ctx, action, who, 10), options);
        const runBare = () => measure(ctx, ctx.baseline, baselineRead(ctx, action, who, 10), options);
        const portalFirst = r % 2 === 0;
        const first = await (portalFirst ? runPortal() : runBare());
        const second = await (portalFirst ? runBare() : runPortal());
        const [portal, bare] = portalFirst ? [first, second] : [second, first];
        byCase.set(label, [...(byCase.get(label) ?? []), { portal, bare, ratio: portal.rps / bare.rps }]);
      }
    }
    for (const [label] of cases) {
      const rounds = byCase.get(label) ?? [];
      const first = rounds[0] as (typeof rounds)[number];
      const mid = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)] as typeof first;
      const counts = (m: Measured) => ({
        statementsPerRequest: m.statementsPerRequest,
        logLinesPerRequest: m.logLinesPerRequest,
        rateLimitWritesPerRequest: m.rateLimitWritesPerRequest,
      });
      const portal: Measured = { ...mid.portal, ...counts(first.portal) };
      const bare: Measured = { ...mid.bare, ...counts(first.bare) };
      line(`${label} portal`, portal);
      line(`${label} baseline`, bare);
      const ratio = Math.round(mid.ratio * 100) / 100;
      const each = rounds
        .map((x) => `${x.ratio.toFixed(2)} = ${Math.round(x.portal.rps)}/${Math.round(x.bare.rps)}`)
        .join(', ');
      console.log(`  ${label} ratio portal/baseline: ${ratio} (median of ${rounds.length} rounds: ${each})`);
      out[label] = {
        portal: {
          ...figures(portal),
          statementsPerRequest: portal.statementsPerRequest,
          cpuMsPerRequest: portal.cpuMsPerRequest,
          logLinesPerRequest: portal.logLinesPerRequest,
          rateLimitWritesPerRequest: portal.rateLimitWritesPerRequest,
        },
        baseline: {
          ...figures(bare),
          statementsPerRequest: bare.statementsPerRequest,
          cpuMsPerRequest: bare.cpuMsPerRequest,
        },
        ratio,
        roundRatios: rounds.map((x) => Math.round(x.ratio * 100) / 100),
      };
    }
    const top = LICENCE_COUNTS.at(-1) as number;
    if (wanted) return out;
    const alone = await measure(ctx, ctx.portal, portalRead(ctx, 'GetRobots', String(top), 1));
    line(`GetRobots@${top} one caller`, alone);
    out[`GetRobots@${top} one caller`] = { ...figures(alone), cpuMsPerRequest: alone.cpuMsPerRequest };
    return out;
  },
};

/** Reads and /healthz while sign-ins run, on a given portal (bounded or not). */
async function underSignIn(ctx: Context, portal: Server, label: string) {
  const probe = { ...portalRead(ctx, 'GetAll', 'reader', 1), url: `${portal.url}/api/assets` };
  await load({ ...signIn(portal.url, ctx.csrf, 20), durationS: WARMUP_S });
  const [signIns, read] = await together([
    { ...signIn(portal.url, ctx.csrf, 20), durationS: DURATION_S },
    { ...probe, durationS: DURATION_S },
  ]);
  const [flood, health] = await together([
    { ...signIn(portal.url, ctx.csrf, 200), durationS: DURATION_S },
    { ...healthz(portal.url), durationS: DURATION_S },
  ]);
  line(`${label}: sign-in (20 connections)`, signIns as LoadResult);
  line(`${label}: GetAll meanwhile (1 conn.)`, read as LoadResult);
  line(`${label}: sign-in (200 connections)`, flood as LoadResult);
  line(`${label}: /healthz meanwhile`, health as LoadResult);
  return {
    signIn20: figures(signIns as LoadResult),
    readWhile20SignIn: figures(read as LoadResult),
    signIn200: figures(flood as LoadResult),
    healthzWhile200SignIn: figures(health as LoadResult),
  };
}

const contentionSection: Section = {
  name: 'underSignIn',
  async run(ctx) {
    const bounded = await underSignIn(ctx, ctx.portal, ctx.bounded ? 'bounded' : 'as built');
    if (!ctx.bounded) return { bounded };
    // The same portal with hashing left to the thread pool: the trade the bound makes, in one run.
    ctx.stoppedErrorLines.push(...ctx.portal.errorLines());
    await ctx.portal.stop();
    const env = portalEnv(ctx.cluster.url, PORTAL_PORT, { HASH_CONCURRENCY: '64', HASH_QUEUE_MAX: '100000' });
    const unbounded = await startPortal(DIST, env, 'portal (unbounded hashing)');
    try {
      const signInOnly = await measure(ctx, unbounded, signIn(unbounded.url, ctx.csrf, 20));
      line('unbounded: sign-in (20 connections)', signInOnly);
      return {
        bounded,
        unbounded: { signIn: figures(signInOnly), ...(await underSignIn(ctx, unbounded, 'unbounded')) },
      };
    } finally {
      ctx.stoppedErrorLines.push(...unbounded.errorLines().map((l) => `(unbounded hashing) ${l}`));
      await unbounded.stop();
      ctx.portal = await startPortal(DIST, ctx.portalEnv, 'portal');
    }
  },
};

/** What the fixed wastes cost, side by side in this process (the whole-server figures are above). */
const wastesSection: Section = {
  name: 'wastes',
  async run(ctx) {
    const secret = new TextEncoder().encode('benchmark-secret-that-is-long-enough-for-hs256-signing');
    const token = await new SignJWT({ sid: 's', email: 'e', typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u')
      .setIssuer('robot-portal')
      .setAudience('access')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret);
    const cached = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    const opts = { issuer: 'robot-portal', audience: 'access', algorithms: ['HS256'] };
    const timeEach = async (n: number, fn: () => Promise<unknown>) => {
      for (let i = 0; i < 200; i++) await fn();
      const start = performance.now();
      for (let i = 0; i < n; i++) await fn();
      return Math.round(((performance.now() - start) / n) * 1000) / 1000;
    };
    const verifyImporting = await timeEach(3000, () => jwtVerify(token, secret, opts));
    const verifyCached = await timeEach(3000, () => jwtVerify(token, cached, opts));
    // What the server does now (docs/decisions/037): node:crypto's HMAC, synchronously.
    const key = hs256Key('benchmark-secret-that-is-long-enough-for-hs256-signing');
    const nowS = Math.floor(Date.now() / 1000);
    const verifySync = await timeEach(3000, async () =>
      verifyHs256(token, [key], { issuer: 'robot-portal', audience: 'access', nowS }),
    );
    console.log(
      `  JWT verify through WebCrypto, key imported each time: ${verifyImporting} ms; key imported once: ${verifyCached} ms; node:crypto, synchronous (the server's): ${verifySync} ms`,
    );
    // Signing, twice a sign-in (docs/decisions/048): jose's SignJWT through WebCrypto, then node:crypto.
    const claims = {
      sid: 's',
      email: 'e',
      typ: 'access',
      sub: 'u',
      iss: 'robot-portal',
      aud: 'access',
      iat: nowS,
      exp: nowS + 3600,
    };
    const signKey = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const signWebCrypto = await timeEach(3000, () =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(signKey),
    );
    const signSync = await timeEach(3000, async () => signHs256(claims, key));
    console.log(
      `  JWT sign through WebCrypto (jose, key imported once): ${signWebCrypto} ms; node:crypto, synchronous (the server's): ${signSync} ms`,
    );

    const sql = postgres(ctx.cluster.url, { max: 1, onnotice: () => {} });
    const text = `select "users"."joined_at", "subscriptions".* from "users" left join "subscriptions" on "subscriptions"."user_id" = "users"."id" where "users"."id" = $1 order by "subscriptions"."starts_at"`;
    const id = ctx.seeded.reader.id;
    const unprepared = await timeEach(1000, () => sql.unsafe(text, [id], { prepare: false }));
    const prepared = await timeEach(1000, () => sql.unsafe(text, [id], { prepare: true }));
    await sql.end();
    console.log(`  one statement, unprepared: ${unprepared} ms; prepared: ${prepared} ms`);
    return {
      jwtVerifyMs: { keyImportedEachTime: verifyImporting, keyImportedOnce: verifyCached, nodeCryptoSync: verifySync },
      jwtSignMs: { webCrypto: signWebCrypto, nodeCryptoSync: signSync },
      statementMs: { unprepared, prepared },
    };
  },
};

/** Events the liveEvents section sends, one after another (BENCH_LIVE_EVENTS). */
const LIVE_EVENTS = Number(process.env.BENCH_LIVE_EVENTS ?? 100);

/** The value at quantile q of sorted numbers (nearest rank). */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/**
 * Live events across instances (issue 15, docs/decisions/031): a second portal on the same
 * database; a stream opened on it; UPDATEROBOT sent to the first, one at a time, each flipping the
 * robot's availability; the time from sending the report to its event arriving on the other
 * instance's stream. The issue's target is 2 s; the figure is printed, never asserted by a test.
 */
const liveEventsSection: Section = {
  name: 'liveEvents',
  async run(ctx) {
    const b = await startPortal(DIST, portalEnv(ctx.cluster.url, PORTAL_PORT + 2), 'portal B');
    const abort = new AbortController();
    try {
      const holder = ctx.seeded.holders[1] as { id: string; email: string };
      const token = ctx.tokens['1']?.access as string;
      const [robot] = await probe(ctx).unsafe(`${PROBE} select id from robots where user_id = $1 limit 1`, [holder.id]);
      const robotId = String(robot?.id);
      const headers = {
        'content-type': 'application/json',
        'x-csrf-token': ctx.csrf,
        authorization: `Bearer ${token}`,
      };
      const ticket = await fetch(`${b.url}/api/events`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ action: 'OpenEventStream', email: holder.email }),
      });
      const { stream_path } = (await ticket.json()) as { stream_path: string };
      const stream = await fetch(`${b.url}${stream_path}`, { signal: abort.signal });
      if (!stream.ok || !stream.body) throw new Error(`the stream on B answered ${stream.status}`);
      // Frames as they arrive; `next` resolves with the first data frame that matches.
      const reader = stream.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      const next = async (match: (m: Record<string, unknown>) => boolean) => {
        for (;;) {
          let cut = buffer.indexOf('\n\n');
          while (cut >= 0) {
            const frame = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            cut = buffer.indexOf('\n\n');
            if (!frame.startsWith('data: ')) continue;
            const message = JSON.parse(frame.slice(6)) as Record<string, unknown>;
            if (match(message)) return performance.now();
          }
          const { value, done } = await reader.read();
          if (done) throw new Error('the stream on B ended');
          buffer += value;
        }
      };
      await next((m) => m.kind === 'ready');
      const [before] = await probe(ctx).unsafe(`${PROBE} select available from robots where id = $1`, [robotId]);
      let available = Boolean(before?.available);
      const latencies: number[] = [];
      for (let i = 0; i < LIVE_EVENTS; i++) {
        available = !available;
        const sent = performance.now();
        const report = await fetch(`${ctx.portal.url}/api/robots`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            action: 'UPDATEROBOT',
            email: holder.email,
            robot_id: robotId,
            robot_state: { available },
          }),
        });
        if (!report.ok) throw new Error(`UPDATEROBOT answered ${report.status}`);
        await report.arrayBuffer();
        const received = await next(
          (m) => m.kind === 'robot.availability' && m.robot_id === robotId && m.available === available,
        );
        latencies.push(received - sent);
      }
      const sorted = [...latencies].sort((x, y) => x - y);
      const ms = (v: number) => Math.round(v * 10) / 10;
      const result = {
        events: LIVE_EVENTS,
        p50: ms(quantile(sorted, 0.5)),
        p99: ms(quantile(sorted, 0.99)),
        max: ms(sorted.at(-1) ?? 0),
      };
      console.log(
        `  report through A -> event on B's stream, ${result.events} events: p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms`,
      );
      return result;
    } finally {
      abort.abort();
      await b.stop();
    }
  },
};

type Target = { name: string; figure: string; met: boolean };

/**
 * Lighthouse 12 (mobile preset), the median of three runs on the sign-in page and the dashboard,
 * against the production build served as `npm start` serves it (bench/lighthouse.ts). Needs the
 * web app's build: without one, the section says so and the targets mark it not measured.
 */
const lighthouseSection: Section = {
  name: 'lighthouse',
  async run() {
    if (!existsSync(resolve('apps/web/dist/index.html')) || !existsSync(resolve('apps/server/dist/server.js'))) {
      console.log('  skipped: no build of the web app (run `npm run build` first)');
      return { skipped: true };
    }
    const portal = await startBuiltPortal();
    try {
      const pages = await runLighthouse({ baseUrl: portal.baseUrl, runs: 3 });
      console.log(formatLighthouse(pages));
      return Object.fromEntries(pages.map((p) => [p.page, { score: p.score, lcp: p.lcp, tbt: p.tbt, bytes: p.bytes }]));
    } finally {
      portal.stop();
    }
  },
};

/** The figures of the earlier sections as the JSON tree they are. */
type Tree = { [key: string]: Tree | undefined } & {
  ratio?: number;
  rps?: number;
  p50?: number;
  p99?: number;
  limitRps?: number;
};

const targetsSection: Section = {
  name: 'targets',
  async run(ctx) {
    const r = ctx.results as unknown as Tree;
    const targets: Target[] = [];
    const reads: Tree = r.reads ?? {};
    for (const label of ['GetAll', 'CHECK_REMAINING_TIME', 'GetRobots@1']) {
      const ratio = Number(reads[label]?.ratio);
      targets.push({ name: `${label} >= 0.7x the bare baseline's req/s`, figure: `${ratio}x`, met: ratio >= 0.7 });
    }
    // The limit measured around the sign-in round itself; results of runs before decision 052 have
    // only the one of the hashing section.
    const limit = Number(r.signIn?.limitRps ?? r.hashing?.limitRps);
    const signInRps = Number(r.signIn?.rps);
    const share = Math.round((signInRps / limit) * 100) / 100;
    targets.push({
      name: `sign-in >= 0.8x the hashing limit (k / verify time, argon2id m=19456 t=2 p=1)`,
      figure: `${signInRps} req/s of ${limit} = ${share}x (rounds ${((r.signIn as { roundRatios?: number[] } | undefined)?.roundRatios ?? []).join(', ')})`,
      met: share >= 0.8,
    });
    const read = r.underSignIn?.bounded?.readWhile20SignIn;
    targets.push({
      name: 'reads while 20 connections sign in: p99 <= 50 ms',
      figure: `p99 ${read?.p99} ms`,
      met: Number(read?.p99) <= 50,
    });
    const top = LICENCE_COUNTS.at(-1) as number;
    const cpu = Number(reads[`GetRobots@${top}`]?.portal?.cpuMsPerRequest);
    targets.push({
      name: `GetRobots at ${top} licenses: <= 10 ms server CPU per request`,
      figure: `${cpu} ms`,
      met: cpu <= 10,
    });
    const alone = Number(reads[`GetRobots@${top} one caller`]?.p99);
    targets.push({
      name: `GetRobots at ${top} licenses: one caller's p99 < 50 ms`,
      figure: `p99 ${alone} ms`,
      met: alone < 50,
    });
    const counts = LICENCE_COUNTS.map(
      (n) => reads[`GetRobots@${n}`]?.portal?.statementsPerRequest as unknown as number | undefined,
    );
    if (counts.every((c) => c !== undefined))
      targets.push({
        name: 'GetRobots: statements constant in the number of licenses (also a server test)',
        figure: LICENCE_COUNTS.map((n, i) => `${n}: ${counts[i]}`).join(', '),
        met: counts.every((c) => c === counts[0]),
      });
    const enumeration = r.enumeration as unknown as { sameAnswer?: boolean; meanRatio?: number } | undefined;
    if (enumeration)
      targets.push({
        name: 'sign-in: an unknown email and a wrong password answer alike (200 tries each)',
        figure: `same answer: ${enumeration.sameAnswer}; mean time unknown / wrong = ${enumeration.meanRatio}`,
        met: enumeration.sameAnswer === true && Math.abs(Number(enumeration.meanRatio) - 1) <= 0.1,
      });
    const liveEvents = r.liveEvents;
    if (liveEvents)
      targets.push({
        name: 'live events: a report through one instance reaches a stream on another, p99 <= 2 s (issue 15)',
        figure: `p50 ${liveEvents.p50} ms, p99 ${liveEvents.p99} ms`,
        met: Number(liveEvents.p99) <= 2_000,
      });
    const lighthouse = (ctx.results.lighthouse ?? {}) as Record<string, { score?: number } | boolean>;
    for (const page of ['/auth/login', '/dashboard']) {
      const entry = lighthouse[page];
      const score = typeof entry === 'object' ? Number(entry.score) : Number.NaN;
      targets.push({
        name: `Lighthouse (mobile, median of 3) on ${page}: aim 0.98`,
        figure: Number.isNaN(score) ? 'not measured (no web build)' : String(score),
        met: score >= 0.98,
      });
    }
    for (const t of targets) console.log(`  ${t.met ? 'met    ' : 'NOT MET'}  ${t.name}: ${t.figure}`);
    return { list: targets, allMet: targets.every((t) => t.met) };
  },
};

/** Every section in order; the targets read the others' figures, so they come last. */
export const sections: Section[] = [
  hashingSection,
  signInSection,
  readsSection,
  contentionSection,
  wastesSection,
  enumerationSection,
  liveEventsSection,
  lighthouseSection,
  targetsSection,
];

// ---- the run ----

async function session(url: string, csrf: string, email: string) {
  const res = await fetch(`${url}/api/useraction`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
    body: JSON.stringify({ action: 'login', user: { email, password: PASSWORD } }),
  });
  const body = (await res.json()) as { user?: { user_id: string }; token_pair?: { access_token: string } };
  const access = body.token_pair?.access_token;
  if (!access) throw new Error(`sign-in of ${email} failed: ${res.status} ${JSON.stringify(body)}`);
  const claims = JSON.parse(Buffer.from(access.split('.')[1] as string, 'base64url').toString()) as {
    sid: string;
    sub: string;
  };
  return { access, sid: claims.sid, uid: claims.sub };
}

/** The newest modification time under a folder (sources of the server build). */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Builds the server (only the server: the benchmark serves no pages) when its bundle is missing or older than its sources. */
function buildIfStale() {
  if (process.env.BENCH_DIST) return;
  const server = join(DIST, 'server.js');
  const sources = Math.max(newest(join(ROOT, 'apps/server/src')), newest(join(ROOT, 'packages/contract/src')));
  if (existsSync(server) && statSync(server).mtimeMs >= sources) return;
  console.log('apps/server/dist is missing or older than its sources: building it (npm run build -w @portal/server)');
  execFileSync('npm', ['run', '--silent', 'build', '-w', '@portal/server'], { cwd: ROOT, stdio: 'inherit' });
}

function checkBuild() {
  const server = join(DIST, 'server.js');
  if (!existsSync(server))
    throw new Error(`${server} is missing: run npm run build -w @portal/server (or npm run bench, which builds it)`);
  return readFileSync(server, 'utf8').includes('HASH_CONCURRENCY');
}

async function main() {
  const started = Date.now();
  buildIfStale();
  const bounded = checkBuild();
  const hashConcurrency = bounded ? Math.max(1, availableParallelism() - 1) : availableParallelism();
  console.log(
    `portal build: ${DIST} (${statSync(join(DIST, 'server.js')).mtime.toISOString()}), ${availableParallelism()} cores, Node ${process.version}`,
  );
  const cluster = await startCluster(PG_PORT);
  const stops: (() => Promise<void> | void)[] = [() => cluster.stop()];
  const ctx = { cluster, bounded, hashConcurrency, results: {}, stoppedErrorLines: [] as string[] } as Context;
  try {
    ctx.portalEnv = portalEnv(cluster.url, PORTAL_PORT, bounded ? { HASH_CONCURRENCY: String(hashConcurrency) } : {});
    ctx.portal = await startPortal(DIST, ctx.portalEnv);
    stops.unshift(() => ctx.portal.stop());
    ctx.seeded = await seed(cluster.url, COST);
    ctx.baseline = await startBaseline(cluster.url, BASELINE_PORT, {});
    stops.unshift(() => ctx.baseline.stop());
    const csrfAnswer = await fetch(`${ctx.portal.url}/api/useraction`);
    ctx.csrf = csrfAnswer.headers.get('x-csrf-token') as string;
    ctx.tokens = { reader: await session(ctx.portal.url, ctx.csrf, ctx.seeded.reader.email) };
    for (const n of LICENCE_COUNTS)
      ctx.tokens[String(n)] = await session(
        ctx.portal.url,
        ctx.csrf,
        (ctx.seeded.holders[n] as { email: string }).email,
      );

    const only = process.env.BENCH_ONLY?.split(',');
    for (const section of sections.filter((s) => !only || only.includes(s.name))) {
      console.log(`\n== ${section.name}`);
      ctx.results[section.name] = await section.run(ctx);
    }
    const failures = [...ctx.stoppedErrorLines, ...ctx.portal.errorLines(), ...ctx.baseline.errorLines()];
    if (failures.length) console.log(`\nerror lines in the server logs:\n${failures.join('\n')}`);
  } finally {
    await probeSql?.end();
    for (const stop of stops) await stop();
  }
  const result = {
    date: new Date().toISOString(),
    machine: { cores: availableParallelism(), node: process.version },
    build: DIST.replace(`${ROOT}/`, ''),
    durationS: DURATION_S,
    tookS: Math.round((Date.now() - started) / 1000),
    ...ctx.results,
  };
  const dir = join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const name = process.env.BENCH_RESULT ?? 'latest.json';
  writeFileSync(join(dir, name), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nwritten: bench/results/${name} (${result.tookS} s)`);
}

await main();
