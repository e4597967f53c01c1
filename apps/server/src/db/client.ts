import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { type AnyColumn, type ExtractTablesWithRelations, is, Placeholder, type SQL, sql } from 'drizzle-orm';
import { type PgDatabase, PgDialect, type PgQueryResultHKT, type PgTransaction } from 'drizzle-orm/pg-core';
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
  /**
   * LISTEN on a channel: `onPayload` gets each NOTIFY's payload, after the notifying transaction
   * commits (never for one rolled back). `onListen` runs each time the listener is (re)connected:
   * notifications sent while it was not may be lost. Answers how to stop listening.
   */
  listen(channel: string, onPayload: (payload: string) => void, onListen?: () => void): Promise<() => Promise<void>>;
}

const here = dirname(fileURLToPath(import.meta.url));
/** In the source tree migrations sit beside this file; in the bundle, beside server.js. */
export const migrationsFolder = [join(here, 'migrations'), join(here, 'db', 'migrations')].find((p) =>
  existsSync(join(p, 'meta', '_journal.json')),
) as string;

/** Options of a database handle: `onQuery` sees every statement drizzle sends (tests count them). */
export interface DatabaseOptions {
  onQuery?: (query: string) => void;
}

const loggerOf = (opts: DatabaseOptions) =>
  opts.onQuery ? { logger: { logQuery: (query: string) => opts.onQuery?.(query) } } : {};

export function openPglite(dataDir: string | undefined): Database {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(dataDir);
  return fromPglite(client);
}

export function fromPglite(client: PGlite, opts: DatabaseOptions = {}): Database {
  const db = drizzlePglite(client, { schema, ...loggerOf(opts) }) as unknown as Db;
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
    // One connection, in this process: it never drops, so onListen runs once.
    async listen(channel, onPayload, onListen) {
      const stop = await client.listen(channel, onPayload);
      onListen?.();
      return stop;
    },
  };
}

/**
 * A hot-path query built once per database handle (drizzle's `.prepare()`, with `sql.placeholder`s
 * for its values) instead of on every call: building a query is most of drizzle's cost on a read.
 * Handles are remembered weakly, so a transaction's copy goes with the transaction.
 */
export function preparedOn<Q>(build: (db: Executor) => Q): (db: Executor) => Q {
  const built = new WeakMap<Executor, Q>();
  return (db) => {
    let query = built.get(db);
    if (!query) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}

const dialect = new PgDialect();

/** A value of a hand-written statement: given, or named (sql.placeholder) and given when it runs. */
export type SqlValue = string | null | Placeholder;

/** What preparedSql reads of a drizzle handle's session: its driver client and its query logger. */
interface SessionInternals {
  client: Pick<postgres.Sql, 'unsafe'> | Pick<PGlite, 'query'>;
  logger: { logQuery(query: string, params: unknown[]): void };
}

/**
 * A hand-written statement (drizzle's `sql`, its values as `sql.placeholder`s) made into text once
 * and handed to the driver as it is: postgres.js prepares it on each connection at once, PGlite runs
 * it. Rows come as objects, as the driver gives them (timestamps differ between the two: select
 * them as numbers, see epochMsOf). drizzle's own query path (its tracing spans, placeholder filling,
 * result cache and the statement wrapper) was ~3% of a dial-time read's CPU; the query logger
 * (DatabaseOptions.onQuery) still sees every statement. A transaction's handle runs it on the
 * transaction's connection.
 */
export function preparedSql<Row>(statement: SQL): (db: Executor, values: Record<string, unknown>) => Promise<Row[]> {
  const query = dialect.sqlToQuery(statement);
  const names = query.params.map((p) => (is(p, Placeholder) ? p.name : undefined));
  const run = preparedOn((db): ((params: unknown[]) => Promise<Row[]>) => {
    const session = db._.session as unknown as SessionInternals;
    const { client, logger } = session;
    const options = { prepare: true };
    if ('unsafe' in client)
      return (params) => {
        logger.logQuery(query.sql, params);
        return client.unsafe<Row[]>(query.sql, params as postgres.ParameterOrJSON<never>[], options);
      };
    return async (params) => {
      logger.logQuery(query.sql, params);
      return (await client.query<Row>(query.sql, params)).rows;
    };
  });
  return (db, values) => {
    const params = new Array<unknown>(names.length);
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      params[i] = name === undefined ? query.params[i] : values[name];
    }
    return run(db)(params);
  };
}

/**
 * A timestamp column as epoch milliseconds, for preparedSql's raw rows: a float8 reaches JavaScript
 * as a number from both drivers (a timestamp comes as text from drizzle's postgres.js driver and as
 * a Date from PGlite; a bigint as text from postgres.js).
 */
/** Rows of a raw statement (`db.execute`), whichever driver answered (postgres.js: an array; PGlite: { rows }). */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

export const epochMsOf = (column: AnyColumn): SQL => sql`floor(extract(epoch from ${column}) * 1000)::float8`;

/** Distinct statement texts prepared on the server at most (per process; each connection keeps its own). */
export const PREPARED_TEXTS_MAX = 500;

/**
 * drizzle sends every query it built unprepared (`prepare: false`), so PostgreSQL parses and plans
 * the same text on every call. Through this wrapper, a text seen a second time is sent as a named
 * prepared statement (postgres.js keeps it per connection): the hot paths are parsed once per
 * connection. The set of prepared texts is bounded, since some texts vary with a list's length.
 * Transactions run on their own connection object and stay as drizzle sends them.
 */
export function preparingClient(client: postgres.Sql, max = PREPARED_TEXTS_MAX): postgres.Sql {
  const seen = new Set<string>();
  const prepared = new Set<string>();
  const shouldPrepare = (text: string): boolean => {
    if (prepared.has(text)) return true;
    if (prepared.size >= max) return false;
    if (!seen.has(text)) {
      if (seen.size >= 10 * max) seen.clear();
      seen.add(text);
      return false;
    }
    prepared.add(text);
    return true;
  };
  const unsafe: postgres.Sql['unsafe'] = (query, parameters, options) =>
    // Object.assign, not a spread: on Node 20 `{ ...o, x }` costs ~0.7 µs, and this runs per statement.
    client.unsafe(query, parameters, Object.assign({}, options, { prepare: options?.prepare || shouldPrepare(query) }));
  return new Proxy(client, {
    get: (target, prop, receiver) => (prop === 'unsafe' ? unsafe : Reflect.get(target, prop, receiver)),
  });
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

export function openPostgres(url: string, max = 10, opts: DatabaseOptions = {}): Database {
  const client = postgres(url, { max, onnotice: () => {} });
  const db = drizzlePostgres(preparingClient(client), { schema, ...loggerOf(opts) }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    migrate: () => migrateLocked(url),
    close: () => client.end({ timeout: 5 }),
    // postgres.js listens on a connection of its own, outside the pool, and listens again after it
    // reconnects (calling onListen each time).
    async listen(channel, onPayload, onListen) {
      const { unlisten } = await client.listen(channel, onPayload, onListen);
      return unlisten;
    },
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
