// A throwaway PostgreSQL cluster, as .ci/run starts one: initdb as the postgres user into a temporary
// folder, listening on loopback only, stopped and deleted at the end. pg_stat_statements is loaded so
// the benchmark can count the statements each request sends.
import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';

export interface Cluster {
  url: string;
  /** whether pg_stat_statements is there (always on our own cluster; maybe not on DATABASE_URL) */
  statements: boolean;
  stop(): void;
}

function pgBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = readdirSync(root).sort((a, b) => Number(a) - Number(b));
  const last = versions.at(-1);
  if (!last) throw new Error('no PostgreSQL under /usr/lib/postgresql (apt-get install postgresql)');
  return join(root, last, 'bin');
}

const asPostgres = (bin: string, args: string[]) =>
  execFileSync('runuser', ['-u', 'postgres', '--', bin, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });

export async function startCluster(port: number): Promise<Cluster> {
  const existing = process.env.DATABASE_URL;
  if (existing) return { url: existing, statements: await enableStatements(existing), stop: () => {} };
  const bin = pgBin();
  const dir = mkdtempSync(join(tmpdir(), 'portal-bench-pg-'));
  chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), 0);
  asPostgres(join(bin, 'initdb'), ['-D', dir, '-A', 'trust', '-U', 'postgres']);
  const options = [
    `-p ${port}`,
    '-k /tmp',
    '-c listen_addresses=127.0.0.1',
    '-c shared_preload_libraries=pg_stat_statements',
    '-c max_connections=100',
    // A benchmark database: nothing here needs to survive a crash.
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
  ].join(' ');
  asPostgres(join(bin, 'pg_ctl'), ['-D', dir, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      asPostgres(join(bin, 'pg_ctl'), ['-D', dir, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return { url, statements: await enableStatements(url), stop };
}

async function enableStatements(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`create extension if not exists pg_stat_statements`;
    await sql`select pg_stat_statements_reset()`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end();
  }
}
