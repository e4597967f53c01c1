import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { expect } from '@playwright/test';
import { liveServers, serverDir, serverEnv } from '../../../../playwright.config';

/**
 * Two portal instances on one PostgreSQL, for the live-fleet test: a PostgreSQL of its own on
 * loopback (initdb into a fresh folder, fsync off: it lives for one test), then the built server
 * twice with one DATABASE_URL and one JWT_SECRET, each with its own data folder and no polling
 * (ROBOTS_POLLING=false), so a card can only change through the event stream. Where PostgreSQL is
 * not installed the spec is skipped, saying why.
 */

export interface LiveServers {
  a: string;
  b: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

/** The newest PostgreSQL server programs, as Debian installs them; undefined without any. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const newest = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((x, y) => Number(y) - Number(x))[0];
  return newest && existsSync(`${root}/${newest}/bin/initdb`) ? `${root}/${newest}/bin` : undefined;
}

export const NO_POSTGRES = 'needs PostgreSQL (/usr/lib/postgresql/*/bin): two instances share one database';

/** initdb and pg_ctl refuse to run as root: as root they run as the postgres user. */
function asPostgres(program: string, args: string[]): void {
  const root = process.getuid?.() === 0;
  const [cmd, argv] = root ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
  execFileSync(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
}

async function ready(url: string, child: ChildProcess, log: () => string): Promise<void> {
  // Start-up: the instance migrates (one after the other, under an advisory lock) and listens.
  const up = async () => {
    if (child.exitCode !== null) throw new Error(`${url} exited with ${child.exitCode}\n${log()}`);
    return fetch(`${url}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
  };
  try {
    await expect.poll(up, { timeout: 60_000 }).toBe(true);
  } catch (err) {
    throw new Error(`${url} did not get ready\n${log()}`, { cause: err });
  }
}

export async function startLiveServers(bin: string): Promise<LiveServers> {
  const { pgDir, pgPort } = liveServers;
  rmSync(pgDir, { recursive: true, force: true });
  mkdirSync(pgDir, { recursive: true, mode: 0o700 });
  if (process.getuid?.() === 0) chownSync(pgDir, Number(execFileSync('id', ['-u', 'postgres']).toString()), 0);
  asPostgres(`${bin}/initdb`, ['-D', pgDir, '-A', 'trust', '-U', 'postgres']);
  asPostgres(`${bin}/pg_ctl`, [
    '-D',
    pgDir,
    '-l',
    `${pgDir}/server.log`,
    '-o',
    `-p ${pgPort} -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`,
    '-w',
    'start',
  ]);
  const databaseUrl = `postgres://postgres@127.0.0.1:${pgPort}/postgres`;
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    try {
      asPostgres(`${bin}/pg_ctl`, ['-D', pgDir, '-m', 'immediate', 'stop']);
    } catch {}
    rmSync(pgDir, { recursive: true, force: true });
  };
  try {
    const started = [liveServers.a, liveServers.b].map(({ url, dataDir }) => {
      rmSync(dataDir, { recursive: true, force: true });
      const env = {
        // A seeds the demo data (with the robot-driver assets licenses are granted for); B finds it there.
        ...serverEnv({ port: Number(new URL(url).port), dataDir, seedDemo: url === liveServers.a.url }),
        DATABASE_URL: databaseUrl,
        JWT_SECRET: 'e2e-live-Kx7qP2vN9mR4tW8yB3cF6hJ1zLs5Dg0Ua',
        ROBOTS_POLLING: 'false',
      };
      const child = spawn('node', [`${serverDir}/server.js`], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        err = (err + chunk.toString()).slice(-4000);
      });
      children.push(child);
      return ready(url, child, () => err);
    });
    await Promise.all(started);
  } catch (err) {
    await stop();
    throw err;
  }
  return { a: liveServers.a.url, b: liveServers.b.url, databaseUrl, stop };
}
