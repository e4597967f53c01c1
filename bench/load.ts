// Load: BENCH_LOAD_USERS virtual users (100) sign in and read the dashboard's calls for BENCH_LOAD_S
// seconds (60) against the real server process on PostgreSQL, over HTTP through @portal/client (each
// POST with its CSRF GET, as the browser does). Prints the count, errors and p50/p95/p99 of every
// call and exits 1 on any error. Never part of npm test. Run: npm run bench:load
//
// PostgreSQL: DATABASE_URL when set (the users it adds are named bench-load-*); otherwise a throwaway
// cluster (initdb) on BENCH_LOAD_PGPORT (54355), removed at the end. The server runs from the sources
// (node --import tsx apps/server/src/server.ts) with production password hashing.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Client, createClient } from '@portal/client';
import { license, robots, time, useraction } from '@portal/contract';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPostgres } from '../apps/server/src/db/client.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { noMailer } from '../apps/server/src/lib/mailer.ts';
import { hashPassword, setHashCost } from '../apps/server/src/lib/passwords.ts';
import { userRepository } from '../apps/server/src/modules/useraction/useraction.repository.ts';
import { buildServices } from '../apps/server/src/services.ts';

const USERS = Number(process.env.BENCH_LOAD_USERS ?? 100);
const SECONDS = Number(process.env.BENCH_LOAD_S ?? 60);
const PGPORT = Number(process.env.BENCH_LOAD_PGPORT ?? 54355);
/** Dashboard visits between two sign-ins of one virtual user. */
const VISITS_PER_SIGN_IN = 5;
const PASSWORD = 'Bench-Load-Pass-42!';
const root = join(import.meta.dirname, '..');
/** Shared by the seeding here and the server: pairing codes are sealed with it. */
const JWT_SECRET = randomBytes(48).toString('base64url');

const cleanups: (() => void | Promise<void>)[] = [];
async function cleanUp() {
  for (const step of cleanups.reverse()) await Promise.resolve(step()).catch((err) => console.error(err));
}

/** A throwaway PostgreSQL cluster, as .ci/run starts one: initdb, trust on loopback only. */
function throwawayCluster(): string {
  const versions = readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v));
  const bin = `/usr/lib/postgresql/${versions.sort((a, b) => Number(b) - Number(a))[0]}/bin`;
  const dir = mkdtempSync(join(tmpdir(), 'bench-load-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (program: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', `${bin}/${program}`, ...args], { stdio: 'ignore' })
      : execFileSync(`${bin}/${program}`, args, { stdio: 'ignore' });
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  run('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres']);
  const options = `-p ${PGPORT} -k /tmp -c listen_addresses=127.0.0.1 -c max_connections=200`;
  run('pg_ctl', ['-D', dir, '-o', options, '-w', 'start']);
  cleanups.push(() => {
    run('pg_ctl', ['-D', dir, '-m', 'fast', 'stop']);
    rmSync(dir, { recursive: true, force: true });
  });
  return `postgres://postgres@127.0.0.1:${PGPORT}/postgres`;
}

/** The server process; answers its address once it listens. */
async function startServer(databaseUrl: string): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-load-data-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(root, 'apps/server/src/server.ts')], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://127.0.0.1',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      // Every virtual user signs in from this one address: the per-address limit would stop them.
      RATE_LOGIN_PER_ADDRESS: '1000000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  let log = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) {
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        resolve(m[1] as string);
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${log}`)));
  });
}

/** The virtual users' accounts: verified, with a license each, the password hashed once at the production cost. */
async function seedUsers(databaseUrl: string): Promise<string[]> {
  const database = openPostgres(databaseUrl, 4);
  await database.migrate();
  const seedDir = mkdtempSync(join(tmpdir(), 'bench-load-seed-'));
  cleanups.push(() => rmSync(seedDir, { recursive: true, force: true }));
  const config = loadConfig({ JWT_SECRET, DATA_DIR: seedDir });
  const services = buildServices({ config, db: database.db, clock: systemClock, mailer: noMailer });
  setHashCost({ memoryCost: 19_456, timeCost: 2 });
  const passwordHash = await hashPassword(PASSWORD);
  const run = `${Date.now().toString(36)}`;
  const emails: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const email = `bench-load-${run}-${i}@example.test`;
    const user = await userRepository.insert(database.db, {
      email,
      passwordHash,
      name: `Load ${i}`,
      yearBorn: 1990,
      country: 'United Kingdom',
      termsAgreed: true,
      emailValidated: true,
    });
    if (!user) throw new Error(`${email} exists already`);
    await services.licenses.grantRobotLicense(database.db, { userId: user.id, model: 'Pepper', source: 'operator' });
    emails.push(email);
  }
  await database.close();
  return emails;
}

const latencies = new Map<string, number[]>();
const errors = new Map<string, number>();
const firstErrors: string[] = [];

async function timed<T>(name: string, call: () => Promise<T>): Promise<T | undefined> {
  const start = performance.now();
  try {
    const answer = await call();
    const list = latencies.get(name) ?? [];
    list.push(performance.now() - start);
    latencies.set(name, list);
    return answer;
  } catch (err) {
    errors.set(name, (errors.get(name) ?? 0) + 1);
    if (firstErrors.length < 5) firstErrors.push(`${name}: ${(err as Error).message}`);
    return undefined;
  }
}

/** One virtual user: sign in, then visit the dashboard (licenses, dial time, robots) a few times; again until the end. */
async function virtualUser(client: Client, email: string, until: number): Promise<void> {
  while (Date.now() < until) {
    const login = await timed('login', () => client.call(useraction, 'login', { user: { email, password: PASSWORD } }));
    if (login?.target !== 'portal') continue;
    const pair = login.token_pair;
    const session = client.withTokens({
      access: async () => pair.access_token,
      refresh: async () => {
        throw new Error('the access token outlived the run');
      },
    });
    for (let visit = 0; visit < VISITS_PER_SIGN_IN && Date.now() < until; visit++) {
      const [licenses] = await Promise.all([
        timed('GetLicences', () => session.call(license, 'GetLicences', { email })),
        timed('CHECK_REMAINING_TIME', () =>
          session.call(time, 'CHECK_REMAINING_TIME', { email, user_id: login.user.user_id }),
        ),
      ]);
      const refs = (licenses?.user_licenses.robot_licenses ?? [])
        .filter((l) => l.robot_id)
        .map((l) => ({ robot_id: l.robot_id, asset_id: l.asset_id }));
      await timed('GetRobots', () => session.call(robots, 'GetRobots', { email, robot_licenses: refs }));
    }
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function main() {
  const databaseUrl = process.env.DATABASE_URL || throwawayCluster();
  const emails = await seedUsers(databaseUrl);
  const baseUrl = await startServer(databaseUrl);
  const client = createClient({ baseUrl });
  console.log(
    `${USERS} virtual users for ${SECONDS} s against ${baseUrl} (PostgreSQL ${databaseUrl.replace(/\/\/[^@]*@/, '//')})`,
  );
  const started = Date.now();
  const until = started + SECONDS * 1000;
  await Promise.all(emails.map((email) => virtualUser(client, email, until)));
  const elapsedS = (Date.now() - started) / 1000;

  let total = 0;
  let failed = 0;
  const all: number[] = [];
  console.log('\ncall                   count   errors   p50 ms   p95 ms   p99 ms   max ms');
  for (const [name, list] of latencies) {
    const sorted = [...list].sort((a, b) => a - b);
    all.push(...sorted);
    total += list.length;
    failed += errors.get(name) ?? 0;
    console.log(
      `${name.padEnd(20)} ${String(list.length).padStart(7)} ${String(errors.get(name) ?? 0).padStart(8)} ${[50, 95, 99]
        .map((p) => percentile(sorted, p).toFixed(1).padStart(8))
        .join(' ')} ${(sorted.at(-1) ?? 0).toFixed(1).padStart(8)}`,
    );
  }
  for (const [name, n] of errors) if (!latencies.has(name)) failed += n;
  all.sort((a, b) => a - b);
  console.log(
    `\nall calls: ${total} in ${elapsedS.toFixed(1)} s (${(total / elapsedS).toFixed(0)}/s), ${failed} errors, p99 ${percentile(all, 99).toFixed(1)} ms`,
  );
  for (const line of firstErrors) console.log(`  error: ${line}`);
  return failed;
}

main()
  .then(async (failed) => {
    await cleanUp();
    process.exit(failed === 0 ? 0 : 1);
  })
  .catch(async (err) => {
    console.error(err);
    await cleanUp();
    process.exit(1);
  });
