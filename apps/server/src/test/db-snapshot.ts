import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * Tables that record attempts by design: a refused call may write to them, so the generated tests
 * leave them out of "the database is unchanged".
 */
export const ATTEMPT_TABLES: Readonly<Record<string, string>> = {
  rate_limits: 'counts every attempt against a limit, refused or not (lib/rate-limit.ts)',
  login_failures: 'counts failed sign-ins, which is what a refused sign-in is (docs/decisions/026)',
};

function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** Every table of the application (the public schema; drizzle's migration journal lives elsewhere). */
export async function tableNames(db: Db): Promise<string[]> {
  const result = await db.execute(
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  return rowsOf<{ name: string }>(result).map((r) => r.name);
}

export type Snapshot = Record<string, { rows: number; checksum: string }>;

/**
 * Row count and a checksum of every row of every table but the attempt tables, or only the rows
 * `scope` selects per table (a where clause over the table aliased `t`; a table it gives no clause
 * for is left out).
 */
export async function snapshot(db: Db, scope?: (table: string) => string | undefined): Promise<Snapshot> {
  const out: Snapshot = {};
  for (const table of await tableNames(db)) {
    if (Object.hasOwn(ATTEMPT_TABLES, table)) continue;
    const where = scope ? scope(table) : 'true';
    if (where === undefined) continue;
    const result = await db.execute(
      sql.raw(
        `select count(*)::int as rows, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as checksum
         from "${table}" t where ${where}`,
      ),
    );
    const [row] = rowsOf<{ rows: number; checksum: string }>(result);
    out[table] = { rows: Number(row?.rows ?? 0), checksum: row?.checksum ?? '' };
  }
  return out;
}

/** The rows of one account in every table that holds them: what "A's data" means in the access matrix. */
export function rowsOfUser(userId: string): (table: string) => string | undefined {
  const id = `'${userId.replace(/'/g, "''")}'::uuid`;
  const byColumn: Record<string, string> = {
    users: `t.id = ${id}`,
    refresh_tokens: `t.session_id in (select s.id from sessions s where s.user_id = ${id})`,
    fulfilments: `t.session_id in (select c.id from checkout_sessions c where c.user_id = ${id})`,
    license_shares: `(t.owner_id = ${id} or t.recipient_id = ${id})`,
    support_messages: `t.request_id in (select r.id from support_requests r where r.user_id = ${id})`,
  };
  return (table) => byColumn[table] ?? (USER_TABLES.has(table) ? `t.user_id = ${id}` : undefined);
}

/** Tables whose rows belong to one account by a user_id column. */
const USER_TABLES = new Set([
  'sessions',
  'email_tokens',
  'login_failures',
  'license_acceptances',
  'flex_slot_allowances',
  'flex_slots',
  'robot_licenses',
  'asset_licenses',
  'payment_customers',
  'checkout_sessions',
  'robot_driver_subscriptions',
  'payments',
  'billing_portal_sessions',
  'lifecycle_notices',
  'robots',
  'subscriptions',
  'support_requests',
  'time_accounts',
  'time_ledger',
  'passkeys',
  'known_browsers',
  'webauthn_challenges',
]);

/** The tables whose rows differ between two snapshots. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => before[n]?.rows !== after[n]?.rows || before[n]?.checksum !== after[n]?.checksum);
}
