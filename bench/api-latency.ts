// Per-call cost of the session protocol (the CSRF GET and refresh rotation), in process over
// Fastify's inject, against a freshly migrated PGlite; each printed as a ratio to GET /healthz
// measured in the same run (the baseline). The reads and sign-in are measured over HTTP on
// PostgreSQL by `npm run bench` (bench/run.ts).
// The calls go through @portal/client, the same action client the web app and the hub use, so the
// numbers include the protocol's own cost (a CSRF GET before each POST).
// Bounded: a fixed number of calls each. Run: npx tsx bench/api-latency.ts
import { auth, useraction } from '@portal/contract';
import { freshDatabase, seedUser, testApp } from '../apps/server/src/test/harness.ts';

const N = Number(process.env.BENCH_CALLS ?? 200);
const database = await freshDatabase();
const t = await testApp(database);
const { client } = t.api;
const user = await seedUser(t);
const login = await client.call(useraction, 'login', { user: { email: user.email, password: user.password } });
if (login.target !== 'portal') throw new Error('expected a portal sign-in');
const pair = login.token_pair;

async function measure(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 10; i++) await fn();
  const start = performance.now();
  for (let i = 0; i < N; i++) await fn();
  const perCall = (performance.now() - start) / N;
  return perCall;
}

const baseline = await measure(() => t.app.inject({ method: 'GET', url: '/healthz' }));
const rows: [string, number][] = [['CSRF token', await measure(() => client.csrf())]];
let refresh = pair.refresh_token;
rows.push([
  'refresh-access-token (rotation)',
  await measure(async () => {
    const res = await client.call(auth, 'refresh-access-token', { tokenPair: { refresh_token: refresh } });
    refresh = res.tokenPair.refresh_token;
  }),
]);
console.log(`baseline GET /healthz: ${baseline.toFixed(3)} ms per call (${N} calls)`);
for (const [name, ms] of rows)
  console.log(`${name}: ${ms.toFixed(3)} ms per call, ${(ms / baseline).toFixed(1)}x baseline`);
await t.app.close();
await database.close();
