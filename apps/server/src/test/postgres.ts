import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import postgres from 'postgres';

/** The PostgreSQL of npm test's PostgreSQL pass (scripts/with-postgres.ts); undefined in the PGlite pass. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

/** The reason a PostgreSQL-only test gives when it is skipped. */
export const NEEDS_POSTGRES = 'runs in the PostgreSQL pass: npm test -- postgres';

/**
 * A new, empty database (no migrations) on the test PostgreSQL, and how to drop it. For tests that
 * start servers on it themselves: two instances at once, a restore from a dump.
 */
export async function emptyPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `portal_ops_${randomUUID().replace(/-/g, '')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

/** The newest PostgreSQL client programs on this machine (pg_dump, pg_restore), as Debian installs them. */
export function postgresBin(program: string): string | undefined {
  const root = '/usr/lib/postgresql';
  let versions: string[];
  try {
    versions = readdirSync(root).filter((v) => /^\d+$/.test(v));
  } catch {
    return undefined;
  }
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return newest && `${root}/${newest}/bin/${program}`;
}
