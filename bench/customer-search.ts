// `npx tsx bench/customer-search.ts`: the console's customer lookup (issue 35, docs/decisions/075)
// on PostgreSQL 15 with 100,000 seeded accounts (BENCH_ACCOUNTS), each with a robot, a third with a
// support request, half with a payment. Seeded in bulk with generate_series and one precomputed
// password hash. SearchCustomers runs over the app's own router (in process, Fastify inject, an
// admin API key) BENCH_SEARCHES times per key with prefixes drawn from the seeded rows; prints p50
// and p95 per key in ms and their ratio to two baselines of the same run: the staff router's
// cheapest call (/api/admin Me) and a primary-key lookup of one account. Prints, never fails on time.
// BENCH_DROP_INDEXES=1 measures the same without the prefix indexes.
// DATABASE_URL names a PostgreSQL to create a throwaway database in; otherwise an embedded
// PostgreSQL 15 is started and stopped (packages/testing/src/postgres.ts).
import { randomUUID } from 'node:crypto';
import { OPERATOR_HEADER } from '@portal/contract';
import { startTestPostgres, type TestPostgres } from '@portal/testing/postgres';
import postgres from 'postgres';
import { openPostgres } from '../apps/server/src/db/client.ts';
import { hashPassword } from '../apps/server/src/lib/passwords.ts';
import { testApp } from '../apps/server/src/test/harness.ts';

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 100_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 200);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
const ms = (n: number) => n.toFixed(2);

let started: TestPostgres | undefined;
let adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  started = await startTestPostgres();
  adminUrl = started.url;
}
const name = `bench_customers_${randomUUID().replace(/-/g, '')}`;
const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const database = openPostgres(url.toString(), 10);

try {
  await database.migrate();
  const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
  const hash = await hashPassword('Bench-Pass-42!');
  const seedStart = performance.now();
  // Names and organisations from md5 so prefixes spread as real ones do.
  await sql`
    insert into users (email, password_hash, name, company, email_validated, terms_agreed, year_born, country)
    select 'acct' || g || '-' || substr(md5(g::text), 1, 6) || '@example.test', ${hash},
           initcap(substr(md5('f' || g), 1, 7)) || ' ' || initcap(substr(md5('l' || g), 1, 9)),
           initcap(substr(md5('c' || (g % 9000)), 1, 8)) || ' Robotics', true, true, 1990, 'United Kingdom'
    from generate_series(1, ${ACCOUNTS}) g`;
  await sql`
    insert into robots (user_id, make, model, name, hardware_hash)
    select id, 'Softbank', 'Pepper', 'Unit', md5(id::text) from users`;
  await sql`
    insert into support_requests (ticket_id, user_id, email, category, subject, message)
    select 'SR-' || substr(h, 1, 4) || '-' || substr(h, 5, 4), id, email, 'technical', 'Robot will not pair',
           'It says the code is used.'
    -- n * an odd constant mod 2^32 is a bijection: unique ticket ids that look random
    from (select id, email, upper(lpad(to_hex(((row_number() over (order by id)) * 2654435761) % 4294967296), 8, '0')) as h
          from users) u
    where abs(hashtext(id::text)) % 3 = 0`;
  await sql`
    insert into payments (user_id, provider, kind, description, lines, amount, currency, status, payment_intent_id, created_at)
    select id, 'stripe', 'checkout', '60 minutes', '[]'::jsonb, 1500, 'gbp', 'paid', 'pi_3' || substr(md5('p' || id), 1, 20), now()
    from users where abs(hashtext(id::text)) % 2 = 0`;
  // BENCH_DROP_INDEXES=1: the same run without the prefix indexes of migration customer_search.
  if (process.env.BENCH_DROP_INDEXES === '1')
    for (const index of [
      'users_email_prefix_idx',
      'users_name_prefix_idx',
      'users_company_prefix_idx',
      'robots_id_prefix_idx',
      'support_requests_ticket_prefix_idx',
      'payments_id_prefix_idx',
      'payments_payment_intent_prefix_idx',
    ])
      await sql.unsafe(`drop index ${index}`);
  await sql`analyze`;
  const seedS = (performance.now() - seedStart) / 1000;

  const t = await testApp(database, { LOG_LEVEL: 'silent' });
  const key = await t.app.services.staff.createKey({ name: 'bench', role: 'admin', by: { kind: 'cli' } });
  const [someone] = await sql<{ id: string }[]>`select id from users order by email limit 1`;
  const granted = await t.app.services.licenses.grantRobotLicense(t.app.deps.db, {
    userId: someone?.id as string,
    model: 'Pepper',
    source: 'operator',
  });

  const sample = async <T extends Record<string, unknown>>(q: ReturnType<typeof sql>) => (await q) as unknown as T[];
  const users = await sample<{ id: string; email: string; name: string; company: string }>(
    sql`select id::text, email, name, company from users order by random() limit ${SEARCHES}`,
  );
  const robots = await sample<{ id: string }>(sql`select id::text from robots order by random() limit ${SEARCHES}`);
  const tickets = await sample<{ ticket_id: string }>(
    sql`select ticket_id from support_requests order by random() limit ${SEARCHES}`,
  );
  const pays = await sample<{ id: string; pi: string }>(
    sql`select id::text, payment_intent_id as pi from payments order by random() limit ${SEARCHES}`,
  );

  const queries: Record<string, string[]> = {
    email: users.map((u) => u.email.split('-')[0] as string),
    name: users.map((u) => u.name.slice(0, 4)),
    company: users.map((u) => u.company.slice(0, 5)),
    robot_id: robots.map((r) => r.id.slice(0, 8)),
    pairing_code: users.map(() => granted.code),
    ticket_id: tickets.map((r) => r.ticket_id.slice(0, 7)),
    payment_id: pays.map((p) => p.id.slice(0, 8)),
    payment_intent: pays.map((p) => p.pi.slice(0, 10)),
    // the shortest query allowed: two characters match thousands of rows in every branch
    'two characters': users.map((u) => u.name.slice(0, 2)),
  };

  // The test client fetches the CSRF token once and sends it, as the console's client does.
  const headers = { [OPERATOR_HEADER]: key.key };
  const inject = async (path: string, body: Record<string, unknown>) => {
    const start = performance.now();
    const res = await t.api.post(path, body, { headers });
    const took = performance.now() - start;
    if (res.status !== 200) throw new Error(`${path} ${res.status} ${JSON.stringify(res.body)}`);
    return { took, body: res.body as { customers?: unknown[] } };
  };
  const time = async (run: (i: number) => Promise<number>) => {
    for (let i = 0; i < 20; i++) await run(i % SEARCHES); // warm-up
    const all: number[] = [];
    for (let i = 0; i < SEARCHES; i++) all.push(await run(i));
    all.sort((a, b) => a - b);
    return { p50: percentile(all, 50), p95: percentile(all, 95) };
  };

  const me = await time(async () => (await inject('/api/admin', { action: 'Me' })).took);
  const pk = await time(async (i) => {
    const start = performance.now();
    await sql`select id, email, name from users where id = ${users[i]?.id as string}`;
    return performance.now() - start;
  });

  console.log(
    `PostgreSQL: ${started ? 'embedded PostgreSQL 15' : 'DATABASE_URL'}; seeded ${ACCOUNTS} accounts in ${seedS.toFixed(1)} s`,
  );
  console.log(
    `${SEARCHES} searches per key (limit 20), in process over the router with an admin API key${process.env.BENCH_DROP_INDEXES === '1' ? ', WITHOUT the prefix indexes' : ''}\n`,
  );
  console.log('| key | p50 ms | p95 ms | hits (mean) | p95 / Me p95 | p95 / pk p95 |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [label, list] of Object.entries(queries)) {
    let hits = 0;
    const figures = await time(async (i) => {
      const { took, body } = await inject('/api/admin/customers', {
        action: 'SearchCustomers',
        query: list[i % list.length],
        limit: 20,
      });
      hits += body.customers?.length ?? 0;
      return took;
    });
    console.log(
      `| ${label} | ${ms(figures.p50)} | ${ms(figures.p95)} | ${(hits / (SEARCHES + 20)).toFixed(1)} | ${(figures.p95 / me.p95).toFixed(1)} | ${(figures.p95 / pk.p95).toFixed(1)} |`,
    );
  }
  console.log(`| baseline: /api/admin Me | ${ms(me.p50)} | ${ms(me.p95)} | | 1.0 | |`);
  console.log(`| baseline: primary-key lookup (postgres.js) | ${ms(pk.p50)} | ${ms(pk.p95)} | | | 1.0 |`);
  await t.app.close();
  await sql.end();
} finally {
  await database.close();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
  await started?.stop();
}
