// Per-call cost of the main API actions, in process over Fastify's inject, against a freshly
// migrated PGlite; each printed as a ratio to GET /healthz measured in the same run (the baseline).
// Bounded: a fixed number of calls each. Run: npx tsx bench/api-latency.ts
import { auth, time, useraction } from '@portal/contract';
import { freshDatabase, seedUser, testApp } from '../apps/server/src/test/harness.ts';

const N = Number(process.env.BENCH_CALLS ?? 200);
const database = await freshDatabase();
const t = await testApp(database);
const user = await seedUser(t);
const login = await t.api.call(useraction, 'login', { user: { email: user.email, password: user.password } });
const pair = login.body.token_pair as { access_token: string; refresh_token: string };

async function measure(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 10; i++) await fn();
  const start = performance.now();
  for (let i = 0; i < N; i++) await fn();
  const perCall = (performance.now() - start) / N;
  return perCall;
}

const baseline = await measure(() => t.app.inject({ method: 'GET', url: '/healthz' }));
const csrf = await t.api.csrf();
const rows: [string, number][] = [
  ['CSRF token', await measure(() => t.api.csrf())],
  [
    'CHECK_REMAINING_TIME',
    await measure(() =>
      t.app.inject({
        method: 'POST',
        url: time.path,
        headers: {
          'content-type': 'application/json',
          'x-csrf-token': csrf,
          authorization: `Bearer ${pair.access_token}`,
        },
        payload: { action: 'CHECK_REMAINING_TIME', email: user.email },
      }),
    ),
  ],
];
let refresh = pair.refresh_token;
rows.push([
  'refresh-access-token (rotation)',
  await measure(async () => {
    const res = await t.api.call(auth, 'refresh-access-token', { tokenPair: { refresh_token: refresh } });
    refresh = (res.body.tokenPair as { refresh_token: string }).refresh_token;
  }),
]);
console.log(`baseline GET /healthz: ${baseline.toFixed(3)} ms per call (${N} calls)`);
for (const [name, ms] of rows)
  console.log(`${name}: ${ms.toFixed(3)} ms per call, ${(ms / baseline).toFixed(1)}x baseline`);
await t.app.close();
await database.close();
