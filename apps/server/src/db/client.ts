import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The one database type every repository takes: PGlite and PostgreSQL look the same to it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Repositories accept either the database or a transaction. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
/** In the source tree migrations sit beside this file; in the bundle, beside server.js. */
export const migrationsFolder = [join(here, 'migrations'), join(here, 'db', 'migrations')].find((p) =>
  existsSync(join(p, 'meta', '_journal.json')),
) as string;

export function openPglite(dataDir: string | undefined): Database {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(dataDir);
  return fromPglite(client);
}

export function fromPglite(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  // One process owns a PGlite folder: migrations started at once run one after the other.
  let migrating: Promise<void> = Promise.resolve();
  return {
    db,
    kind: 'pglite',
    migrate: () => {
      migrating = migrating.catch(() => {}).then(() => migratePglite(drizzlePglite(client), { migrationsFolder }));
      return migrating;
    },
    close: () => client.close(),
  };
}

/** The advisory lock that serialises migrations of instances starting at once on one PostgreSQL. */
export const MIGRATION_LOCK_KEY = 7_311_562_012;

/**
 * Applies pending migrations while holding a session-level advisory lock on a connection of its own,
 * so instances starting together migrate one after the other (drizzle reads the journal outside its
 * transaction): the first applies them, the others find nothing left to do.
 */
async function migrateLocked(url: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client.unsafe(`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    await migratePostgres(drizzlePostgres(client), { migrationsFolder });
    await client.unsafe(`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
  } finally {
    // Ending the connection also releases the lock if a migration failed.
    await client.end({ timeout: 5 });
  }
}

export function openPostgres(url: string, max = 10): Database {
  const client = postgres(url, { max, onnotice: () => {} });
  const db = drizzlePostgres(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    migrate: () => migrateLocked(url),
    close: () => client.end({ timeout: 5 }),
  };
}

export function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Database {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(join(opts.dataDir, 'pg'));
}

/** The PostgreSQL error code of a failed query; drizzle wraps the driver's error in `cause`. */
export function pgErrorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
