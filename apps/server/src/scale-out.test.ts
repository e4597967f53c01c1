import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import {
  type Asset,
  AssetType,
  assets,
  auth,
  ErrorCodes,
  LICENSE_AGREEMENT_VERSION,
  time,
  useraction,
} from '@portal/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, fromPglite, migrationsFolder, openPostgres } from './db/client.ts';
import { assetRepository } from './modules/assets/assets.repository.ts';
import { GOOD_PASSWORD, seedUser, type TestApp, testApp } from './test/harness.ts';
import { emptyPostgresDatabase, NEEDS_POSTGRES, TEST_DATABASE_URL } from './test/postgres.ts';

/**
 * Scale out (docs/operations.md#stopping-and-scaling-out): instances share nothing but PostgreSQL.
 * The two instances here are two apps in this process, each with its own connection pool, clock,
 * mailer and services: nothing in memory is shared, so whatever one sees of the other's work came
 * through the database.
 */

const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
  entries: { when: number }[];
};

async function appliedMigrations(database: Database): Promise<number[]> {
  const rows = await database.db.execute(sql`select created_at from drizzle.__drizzle_migrations order by id`);
  const list = Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows;
  return (list as { created_at: string | number }[]).map((r) => Number(r.created_at));
}

describe('migrations started at once', () => {
  it.skipIf(TEST_DATABASE_URL)('on one PGlite, run once', async () => {
    const database = fromPglite(new PGlite());
    await Promise.all([database.migrate(), database.migrate()]);
    expect(await appliedMigrations(database)).toEqual(journal.entries.map((e) => e.when));
    await database.close();
  });

  it.skipIf(!TEST_DATABASE_URL)(
    `by two instances on an empty PostgreSQL, apply each migration once (${TEST_DATABASE_URL ? 'advisory lock' : NEEDS_POSTGRES})`,
    async () => {
      const empty = await emptyPostgresDatabase(TEST_DATABASE_URL as string);
      const [a, b] = [openPostgres(empty.url, 2), openPostgres(empty.url, 2)];
      try {
        await Promise.all([a.migrate(), b.migrate()]);
        expect(await appliedMigrations(a)).toEqual(journal.entries.map((e) => e.when));
      } finally {
        await Promise.all([a.close(), b.close()]);
        await empty.drop();
      }
    },
  );
});

describe.skipIf(!TEST_DATABASE_URL)(
  `two instances on one PostgreSQL${TEST_DATABASE_URL ? '' : ` (${NEEDS_POSTGRES})`}`,
  () => {
    let drop: () => Promise<void>;
    let databases: Database[] = [];
    let a: TestApp;
    let b: TestApp;
    let dataDir = '';

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'portal-scale-out-'));
      const empty = await emptyPostgresDatabase(TEST_DATABASE_URL as string);
      drop = empty.drop;
      databases = [openPostgres(empty.url, 4), openPostgres(empty.url, 4)];
      // Both start at once on the empty database, as server.ts does: migrate, then serve.
      await Promise.all(databases.map((d) => d.migrate()));
      const config = {
        DATA_DIR: dataDir,
        // A rotated refresh token is refused at once, so a stale one shows.
        REFRESH_REUSE_GRACE_S: '0',
        LOGIN_MAX_FAILURES: '3',
        RATE_FORGOT_PER_ADDRESS: '3',
      };
      [a, b] = (await Promise.all(databases.map((d) => testApp(d, config)))) as [TestApp, TestApp];
    });

    afterAll(async () => {
      await Promise.all([a?.app.close(), b?.app.close()]);
      await Promise.all(databases.map((d) => d.close()));
      await drop?.();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    const login = (on: TestApp, email: string, password = GOOD_PASSWORD, ip = '10.9.0.1') =>
      on.api.call(useraction, 'login', { user: { email, password } }, { ip });
    const pairOf = (res: { body: Record<string, unknown> }) =>
      res.body.token_pair as { access_token: string; refresh_token: string };
    const refresh = (on: TestApp, refresh_token: string) =>
      on.api.call(auth, 'refresh-access-token', { tokenPair: { refresh_token } });

    it('a session made on one instance works on the other, and a logout on the other ends it', async () => {
      const user = await seedUser(a);
      const pair = pairOf(await login(a, user.email));
      const onB = await b.api.call(time, 'CHECK_REMAINING_TIME', { email: user.email }, { bearer: pair.access_token });
      expect(onB.status, JSON.stringify(onB.body)).toBe(200);
      const out = await b.api.call(useraction, 'logout', { token_pair: pair, user: { email: user.email } });
      expect(out.status).toBe(200);
      const onA = await a.api.call(time, 'CHECK_REMAINING_TIME', { email: user.email }, { bearer: pair.access_token });
      expect(onA.status).toBe(401);
    });

    it('a refresh on one is seen by the other: the old refresh token is refused there', async () => {
      const user = await seedUser(a);
      const first = pairOf(await login(a, user.email));
      const rotated = await refresh(a, first.refresh_token);
      expect(rotated.status).toBe(200);
      const second = rotated.body.tokenPair as { refresh_token: string };

      const onB = await refresh(b, second.refresh_token);
      expect(onB.status, JSON.stringify(onB.body)).toBe(200);
      const stale = await refresh(b, first.refresh_token);
      expect(stale.status).toBe(401);
      expect(stale.body.error.Code).toBe(ErrorCodes.UNAUTHENTICATED.code);
      // Replaying the stale token ended the whole family, on both instances.
      const third = (onB.body.tokenPair as { refresh_token: string }).refresh_token;
      expect((await refresh(a, third)).status).toBe(401);
    });

    it('failed sign-ins on both instances add up to one lockout', async () => {
      const user = await seedUser(a);
      for (const on of [a, b, a]) expect((await login(on, user.email, 'Wrong-Pass-42!')).status).not.toBe(200);
      const locked = await login(b, user.email);
      expect(locked.status).toBe(423);
      expect(locked.body.error.Code).toBe(ErrorCodes.ACCOUNT_LOCKED.code);
    });

    it('rate limits count the calls to both instances together', async () => {
      const forgot = (on: TestApp) =>
        on.api.call(useraction, 'UserForgotPassword', { user: { email: 'someone@example.test' } }, { ip: '10.9.0.2' });
      for (const on of [a, b, a]) expect((await forgot(on)).status).toBe(200);
      const limited = await forgot(b);
      expect(limited.status).toBe(429);
      expect(limited.body.error.Code).toBe(ErrorCodes.RATE_LIMITED.code);
    });

    it('a download link signed by one instance is honoured by the other', async () => {
      const bytes = randomBytes(2048);
      await assetRepository.upsertAsset(a.app.deps.db, {
        id: 'robot-hub',
        type: AssetType.Application,
        name: 'Robot Hub',
      });
      await a.app.services.assets.addArtifact(a.app.deps.db, {
        assetId: 'robot-hub',
        fileName: 'robot-hub-setup.exe',
        data: bytes,
        os: 'windows',
        arch: 'amd64',
        version: { major: 2, minor: 0, patch: 0, revision: 0 },
      });
      const user = await seedUser(a);
      const token = pairOf(await login(a, user.email)).access_token;
      const [hub] = (await a.api.call(assets, 'GetAll', { email: user.email }, { bearer: token })).body
        .assets as Asset[];
      const res = await a.api.call(
        assets,
        'GetDownload',
        {
          email: user.email,
          asset_id: hub!.id,
          assets: hub,
          type: hub!.type,
          download_link: '',
          agreement_version: LICENSE_AGREEMENT_VERSION,
          accepted: true,
        },
        { bearer: token },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const file = await b.app.inject({ method: 'GET', url: res.body.download_link as string });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(bytes)).toBe(true);
      // And a tampered one is refused there too: B checks the signature, it does not trust A.
      const forged = (res.body.download_link as string).replace(/sig=[\w-]{4}/, 'sig=AAAA');
      expect((await b.app.inject({ method: 'GET', url: forged })).statusCode).toBe(403);
    });
  },
);
