// How much two processes of the same build differ: CHECK_REMAINING_TIME on two portal processes
// started alike from one build (and the bare baseline), in turns, ROUNDS rounds of S seconds. Each
// process's median req/s and CPU a request: the spread between them is what made the benchmark
// measure every round on fresh processes (docs/performance.md, "One process against another").
//   npx tsx bench/process-spread.ts [DIST]    (default apps/server/dist; build it first)
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { startCluster } from './lib/cluster.ts';
import { load } from './lib/load.ts';
import { cpuMsOf, portalEnv, type Server, startBaseline, startPortal } from './lib/processes.ts';
import { PASSWORD, seed } from './lib/seed.ts';
import { median } from './lib/stats.ts';

const dist = resolve(process.argv[2] ?? join(import.meta.dirname, '..', 'apps/server/dist'));
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const S = Number(process.env.S ?? 4);
const PORT = Number(process.env.BENCH_PORT ?? 4671);

const cluster = await startCluster(Number(process.env.BENCH_PG_PORT ?? 54371));
const servers: Server[] = [];
try {
  // Migrated by the command-line tool and seeded before either process starts: both start alike.
  execFileSync(process.execPath, [join(dist, 'cli.js'), 'users:list'], {
    env: { ...process.env, ...portalEnv(cluster.url, PORT) },
    stdio: 'ignore',
  });
  const seeded = await seed(cluster.url, { memoryCost: 19_456, timeCost: 2 });
  const env = (port: number) => portalEnv(cluster.url, port, { HASH_CONCURRENCY: '1' });
  const a = await startPortal(dist, env(PORT), 'A');
  servers.push(a);
  const b = await startPortal(dist, env(PORT + 1), 'B');
  servers.push(b);
  const bare = await startBaseline(cluster.url, PORT + 2, {});
  servers.push(bare);

  const csrf = (await fetch(`${a.url}/api/useraction`)).headers.get('x-csrf-token') as string;
  const res = await fetch(`${a.url}/api/useraction`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
    body: JSON.stringify({ action: 'login', user: { email: seeded.reader.email, password: PASSWORD } }),
  });
  const access = ((await res.json()) as { token_pair: { access_token: string } }).token_pair.access_token;
  const claims = JSON.parse(Buffer.from(access.split('.')[1] as string, 'base64url').toString()) as {
    sid: string;
    sub: string;
  };
  const call = (server: Server) =>
    server === bare
      ? { url: `${bare.url}/CHECK_REMAINING_TIME`, body: JSON.stringify({ sid: claims.sid, uid: claims.sub }) }
      : {
          url: `${server.url}/api/dial_manager`,
          headers: { authorization: `Bearer ${access}`, 'x-csrf-token': csrf },
          body: JSON.stringify({ action: 'CHECK_REMAINING_TIME', email: seeded.reader.email }),
        };
  const figures = new Map<Server, { rps: number[]; us: number[] }>(servers.map((s) => [s, { rps: [], us: [] }]));
  const measure = async (server: Server, durationS: number) => {
    const cpu = cpuMsOf(server.process.pid as number);
    const r = await load({ ...call(server), method: 'POST', connections: 10, durationS });
    const f = figures.get(server) as { rps: number[]; us: number[] };
    f.rps.push(r.rps);
    f.us.push(((cpuMsOf(server.process.pid as number) - cpu) / r.requests) * 1000);
  };
  for (const s of servers) await load({ ...call(s), method: 'POST', connections: 10, durationS: 2 });
  for (let r = 0; r < ROUNDS; r++) for (const s of r % 2 ? [b, a, bare] : [a, b, bare]) await measure(s, S);
  const baseRps = median(figures.get(bare)?.rps ?? []);
  for (const s of servers) {
    const f = figures.get(s) as { rps: number[]; us: number[] };
    console.log(
      `${s.name.padEnd(9)} ${median(f.rps).toFixed(0).padStart(6)} req/s (rounds ${f.rps.map((x) => x.toFixed(0)).join(', ')}), ${median(f.us).toFixed(1)} µs CPU a request${s === bare ? '' : `, ratio to the baseline ${(median(f.rps) / baseRps).toFixed(2)}`}`,
    );
  }
} finally {
  for (const s of servers) await s.stop();
  await cluster.stop();
}
