import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { license, time, type UserLicenses, useraction } from '@portal/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openPglite, openPostgres } from './db/client.ts';
import { GOOD_PASSWORD, seedUser, type TestApp, testApp } from './test/harness.ts';
import { emptyPostgresDatabase, NEEDS_POSTGRES, postgresBin, TEST_DATABASE_URL } from './test/postgres.ts';

/**
 * Backups rehearsed as docs/operations.md#backups-and-restores tells operators to take them: the
 * database is filled through the services, backed up, restored somewhere new, and a server on the
 * restored copy signs the user in and shows their license and dial time.
 */

const folders: string[] = [];
const tempFolder = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `portal-backup-${label}-`));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** Fills the database: a user with a license and dial time. Answers the user. */
async function populate(t: TestApp) {
  const user = await seedUser(t);
  await t.app.services.licenses.grantRobotLicense(t.app.deps.db, {
    userId: user.id,
    model: 'Pepper',
    make: 'SoftBank',
    source: 'operator',
  });
  await t.app.services.time.credit(user.id, { kind: 'grant', minutes: 42, reason: 'backup rehearsal' });
  return user;
}

/** A server on the restored database: the user signs in and sees what they had. */
async function expectRestored(database: Database, dataDir: string, user: { email: string }) {
  const t = await testApp(database, { DATA_DIR: dataDir });
  try {
    const login = await t.api.call(useraction, 'login', { user: { email: user.email, password: GOOD_PASSWORD } });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const bearer = (login.body.token_pair as { access_token: string }).access_token;
    const licenses = await t.api.call(license, 'GetLicenses', { email: user.email }, { bearer });
    expect((licenses.body.user_licenses as UserLicenses).robot_licenses.map((l) => l.robot_model)).toEqual(['Pepper']);
    const left = await t.api.call(time, 'CHECK_REMAINING_TIME', { email: user.email }, { bearer });
    expect((left.body.user_time as { total_durable_time: number }).total_durable_time).toBe(42);
  } finally {
    await t.app.close();
  }
}

describe('backups', () => {
  // PGlite's own backup: run in the PGlite pass only (the PostgreSQL pass runs the one below).
  it.skipIf(TEST_DATABASE_URL)(
    'PGlite: a copy of the data folder taken while the server is stopped restores to a working server',
    async () => {
      const dataDir = tempFolder('pglite');
      const original = openPglite(join(dataDir, 'pg'));
      await original.migrate();
      const t = await testApp(original, { DATA_DIR: dataDir });
      const user = await populate(t);
      await t.app.close();
      await original.close();

      // The backup: the whole DATA_DIR, copied while nothing has it open.
      const restoredDir = tempFolder('pglite-restored');
      cpSync(dataDir, restoredDir, { recursive: true });
      rmSync(dataDir, { recursive: true, force: true });
      const restored = openPglite(join(restoredDir, 'pg'));
      try {
        await restored.migrate();
        await expectRestored(restored, restoredDir, user);
      } finally {
        await restored.close();
      }
    },
  );

  const pgDump = postgresBin('pg_dump');
  const pgRestore = postgresBin('pg_restore');
  const runnable = Boolean(TEST_DATABASE_URL && pgDump && existsSync(pgDump) && pgRestore && existsSync(pgRestore));
  it.skipIf(!runnable)(
    `PostgreSQL: pg_dump of a populated database, pg_restore into a new one, a server on it signs in${runnable ? '' : ` (${NEEDS_POSTGRES} and pg_dump)`}`,
    async () => {
      const source = await emptyPostgresDatabase(TEST_DATABASE_URL as string);
      const target = await emptyPostgresDatabase(TEST_DATABASE_URL as string);
      const original = openPostgres(source.url, 2);
      const restored = openPostgres(target.url, 2);
      try {
        await original.migrate();
        const t = await testApp(original, { DATA_DIR: tempFolder('pg') });
        const user = await populate(t);
        await t.app.close();

        const dump = join(tempFolder('dump'), 'portal.dump');
        execFileSync(pgDump as string, ['--format=custom', '--no-owner', `--file=${dump}`, source.url]);
        await original.close();
        await source.drop();
        execFileSync(pgRestore as string, ['--no-owner', '--exit-on-error', `--dbname=${target.url}`, dump]);

        // The journal came along: migrating the restored database finds nothing to do.
        await restored.migrate();
        await expectRestored(restored, tempFolder('pg-restored'), user);
      } finally {
        await restored.close();
        await Promise.allSettled([original.close(), source.drop()]);
        await target.drop();
      }
    },
  );
});
