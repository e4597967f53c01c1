// The servers under test run in their own processes, as in production: the built portal
// (apps/server/dist/server.js) and the bare baseline (bench/baseline-server.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Server {
  name: string;
  url: string;
  process: ChildProcess;
  /** lines the server wrote on stdout so far (its log) */
  logLines(): number;
  /** the last error lines of its log (level error and above), to show what a 5xx was */
  errorLines(): string[];
  /** CPU time the process used so far, in ms (user + system, from /proc) */
  cpuMs(): number;
  /** read and write system calls the process made so far, and the bytes they moved (from /proc) */
  syscalls(): { reads: number; writes: number; bytesRead: number; bytesWritten: number };
  stop(): Promise<void>;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

export function syscallsOf(pid: number): { reads: number; writes: number; bytesRead: number; bytesWritten: number } {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(io)?.[1] ?? Number.NaN);
  return { reads: field('syscr'), writes: field('syscw'), bytesRead: field('rchar'), bytesWritten: field('wchar') };
}

export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

async function waitFor(url: string, child: ChildProcess, name: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not answer ${url}`);
}

function start(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  port: number,
): Promise<Server> {
  // The log goes to a file in memory (tmpfs where there is one) and is read between measurements.
  // Read from a pipe, it was parsed in this process during the load, on the load generator's event
  // loop, and slowed the portal's figures by up to a tenth (docs/performance.md).
  const logDir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'bench-log-'));
  const logFile = join(logDir, 'stdout.log');
  const logFd = openSync(logFile, 'w+');
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', logFd, 'pipe'] });
  let lines = 0;
  let errors = '';
  let partial = '';
  let offset = 0;
  const errorLines: string[] = [];
  const chunk = Buffer.alloc(1 << 20);
  const readLog = () => {
    for (
      let n = readSync(logFd, chunk, 0, chunk.length, offset);
      n > 0;
      n = readSync(logFd, chunk, 0, chunk.length, offset)
    ) {
      offset += n;
      for (let i = chunk.indexOf(10); i !== -1 && i < n; i = chunk.indexOf(10, i + 1)) lines += 1;
      const all = (partial + chunk.toString('utf8', 0, n)).split('\n');
      partial = all.pop() ?? '';
      for (const l of all) if (/"level":(50|60)/.test(l)) errorLines.push(l.slice(0, 2000));
      if (errorLines.length > 20) errorLines.splice(0, errorLines.length - 20);
    }
  };
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const server: Server = {
    name,
    url,
    process: child,
    logLines: () => {
      readLog();
      return lines;
    },
    errorLines: () => {
      readLog();
      return [...errorLines];
    },
    cpuMs: () => cpuMsOf(child.pid as number),
    syscalls: () => syscallsOf(child.pid as number),
    stop: () =>
      new Promise((resolve) => {
        const done = () => {
          closeSync(logFd);
          rmSync(logDir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
  return waitFor(`${url}/healthz`, child, name).then(
    () => server,
    (err: Error) => {
      child.kill('SIGKILL');
      const log = readFileSync(logFile, 'utf8').slice(-4000);
      closeSync(logFd);
      rmSync(logDir, { recursive: true, force: true });
      throw new Error(`${err.message}\n${errors}${log}`);
    },
  );
}

/** The production environment the portal runs with in the benchmark (real argon2 cost: the defaults). */
export function portalEnv(
  databaseUrl: string,
  port: number,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl,
    DATA_DIR: `/tmp/portal-bench-data-${process.pid}`,
    JWT_SECRET: 'benchmark-secret-that-is-long-enough-for-hs256-signing',
    LOG_LEVEL: 'info',
    // The benchmark signs one account in thousands of times from one address.
    RATE_LOGIN_PER_ADDRESS: '1000000',
    // The enumeration section sends 200 wrong passwords at one account: every one must reach the
    // password check rather than the lock (the lock answers alike too, without the hash).
    LOGIN_MAX_FAILURES: '1000',
    LOGIN_ACCOUNT_FREE_FAILURES: '10000',
    ACCESS_TOKEN_TTL_S: '3600',
    LIFECYCLE_INTERVAL_S: '0',
    // The benchmark sells on the sandbox, on purpose (production refuses it otherwise).
    PAYMENTS_PROVIDER: 'sandbox',
    DOCS_URL: 'https://docs.robots.bench-portal.net',
    TUTORIALS_URL: 'https://docs.robots.bench-portal.net/tutorials',
    SUPPORT_URL: 'https://help.robots.bench-portal.net',
    PRIVACY_CONTACT_EMAIL: 'privacy@bench-portal.net',
    PRIVACY_POLICY_EFFECTIVE_DATE: '2026-01-01',
    ...extra,
  };
}

export function startPortal(dist: string, env: Record<string, string>, name = 'portal'): Promise<Server> {
  // BENCH_NODE_ARGS: flags for the portal's node, e.g. --cpu-prof to profile it under the load.
  const flags = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  return start(name, process.execPath, [...flags, join(dist, 'server.js')], env, Number(env.PORT));
}

export function startBaseline(databaseUrl: string, port: number, env: Record<string, string>): Promise<Server> {
  return start(
    'baseline',
    process.execPath,
    [
      ...(process.env.BENCH_BASELINE_ARGS?.split(' ').filter(Boolean) ?? []),
      '--import',
      'tsx',
      join(import.meta.dirname, '..', 'baseline-server.ts'),
    ],
    { DATABASE_URL: databaseUrl, PORT: String(port), ...env },
    port,
  );
}
