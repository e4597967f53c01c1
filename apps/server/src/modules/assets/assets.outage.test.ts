import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Asset, assets, ErrorCodes, LICENSE_AGREEMENT_VERSION } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { CommandFailed, runCli } from '../../cli.ts';
import type { Database } from '../../db/client.ts';
import { manualClock } from '../../lib/clock.ts';
import { as, closeApp, roboticsConfig, type SignedIn, signIn } from '../../test/fixtures.ts';
import { ApiClient, freshDatabase, memoryMailer, type TestApp, testConfig } from '../../test/harness.ts';
import { type Outage, startS3StandIn } from '../../test/s3-stand-in.ts';
import { assetRepository } from './assets.repository.ts';
import { READINESS_FRESH_MS } from './assets.s3.ts';

/*
 * Storage that fails (issue 33 item 6, docs/decisions/059): refusing connections, never answering,
 * answering 500. Every case asserts what the customer, the log, /readyz and the operator's command
 * line get, never how long it took: the short S3_TIMEOUT_MS only keeps the suite quick.
 */

const clock = manualClock();
// On the system's clock, as the SDK signs: the app's clock moves ahead for /readyz below.
const s3 = await startS3StandIn({ publicName: 'localhost' });
const S3_ENV = {
  S3_BUCKET: s3.bucket,
  S3_ENDPOINT: s3.endpoint,
  S3_PUBLIC_ENDPOINT: s3.publicEndpoint,
  S3_REGION: s3.region,
  S3_ACCESS_KEY_ID: s3.accessKeyId,
  S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  S3_FORCE_PATH_STYLE: 'true',
  S3_TIMEOUT_MS: '200',
  S3_MAX_RETRIES: '1',
};

/** The app logs into `lines`: the test reads what an operator would. */
const lines: Record<string, unknown>[] = [];
let database: Database;
const t = {} as TestApp;
beforeAll(async () => {
  database = await freshDatabase();
  const config = testConfig(roboticsConfig({ ...S3_ENV, LOG_LEVEL: 'info', LOG_REQUESTS: 'false' }));
  const mailer = memoryMailer();
  const app = await buildApp({
    config,
    database,
    clock,
    mailer,
    logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
  });
  await app.ready();
  Object.assign(t, { app, mailer, clock, config, api: new ApiClient(app, clock) });
  await addBuild('1.0.0', randomBytes(2048));
});
afterAll(async () => {
  await closeApp(t);
  await database.close();
  await s3.close();
});

async function addBuild(version: string, bytes: Buffer): Promise<string> {
  const file = join(t.config.dataDir, `robot-hub-${version}.deb`);
  writeFileSync(file, bytes);
  const out: string[] = [];
  await runCli(['artifacts:add', file, '--os', 'linux', '--arch', 'deb', '--version', version], {
    db: t.app.deps.db,
    config: t.config,
    clock,
    out: (line) => out.push(line),
  });
  return out.join('\n');
}

async function getDownload(user: SignedIn) {
  const hub = ((await as(t, user, assets)('GetAll')).body.assets as Asset[])[0]!;
  return as(
    t,
    user,
    assets,
  )('GetDownload', {
    asset_id: hub.id,
    assets: { ...hub, artifacts: [hub.artifacts[0]] },
    type: hub.type,
    download_link: '',
    agreement_version: LICENSE_AGREEMENT_VERSION,
    accepted: true,
  });
}

/** /readyz once its latest outcome has aged: each call has storage checked again (in the background). */
const readyz = async () => {
  clock.advance(READINESS_FRESH_MS);
  const res = await t.app.inject({ method: 'GET', url: '/readyz' });
  return { http: res.statusCode, ...(res.json() as { status: string; storage: string }) };
};

const storageLines = () => lines.filter((l) => l.msg === 'storage unavailable');

describe.each<[Outage, string, string]>([
  ['refuse', 'refuses connections', 'unreachable'],
  ['hang', 'never answers', 'timeout'],
  ['error', 'answers 500', 'error'],
])('storage that %s', (outage, _what, failure) => {
  let linkBefore = '';
  beforeAll(async () => {
    const res = await getDownload(await signIn(t));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    linkBefore = res.body.download_link as string;
    await s3.setOutage(outage);
  });
  afterAll(() => s3.setOutage(undefined));

  it('GetDownload answers 503 UNAVAILABLE, records no acceptance, and logs how storage failed', async () => {
    const user = await signIn(t);
    const before = storageLines().length;
    const res = await getDownload(user);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('120');
    expect(res.body.error).toMatchObject({ Success: false, Code: ErrorCodes.UNAVAILABLE.code });
    expect(res.body.error.Description).toMatch(
      /^Downloads are unavailable right now, please try again in a few minutes \(request [0-9a-f-]{36}\)$/,
    );
    expect(res.body.download_link).toBeUndefined();
    expect(await assetRepository.acceptances(t.app.deps.db, user.id)).toEqual([]);
    const logged = storageLines().slice(before);
    expect(logged).toEqual([
      expect.objectContaining({ level: 50, storage: expect.objectContaining({ operation: 'HeadObject', failure }) }),
    ]);
    expect(res.body.error.Description).toContain(String(logged[0]!.reqId));
  });

  it('a link handed out before answers the 503 page with the request id, not JSON and not a hang', async () => {
    const before = storageLines().length;
    const res = await t.app.inject({ method: 'GET', url: linkBefore });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['retry-after']).toBe('120');
    expect(res.body).toContain('Downloads are unavailable right now, please try again in a few minutes.');
    const [logged] = storageLines().slice(before);
    expect(logged).toMatchObject({ storage: { operation: 'HeadObject', failure } });
    expect(res.body).toContain(`Reference: <code>${String(logged!.reqId)}</code>`);
  });

  it('/readyz stays 200 and reports storage as unreachable', async () => {
    await expect.poll(readyz, { timeout: 10_000 }).toEqual({
      http: 200,
      status: 'ready',
      database: database.kind,
      storage: 'unreachable',
    });
  });

  it('artifacts:add fails with one line and records nothing', async () => {
    const failed = addBuild('9.9.9', randomBytes(100));
    await expect(failed).rejects.toBeInstanceOf(CommandFailed);
    const message = (await failed.catch((err: Error) => err.message)) as string;
    expect(message).not.toContain('\n');
    expect(message).toMatch(
      new RegExp(
        `^artifacts:add: robot-hub-9\\.9\\.9\\.deb was not stored in s3://${s3.bucket}: storage .*; nothing was recorded$`,
      ),
    );
    const rows = (await assetRepository.downloadable(t.app.deps.db)).flatMap((a) => a.artifacts);
    expect(rows.map((r) => r.storeKey)).not.toContain('robot-hub/9.9.9.0/linux-deb/robot-hub-9.9.9.deb');
  });

  it('once storage is back, /readyz reports it and downloads work again', async () => {
    await s3.setOutage(undefined);
    await expect.poll(readyz, { timeout: 10_000 }).toMatchObject({ http: 200, storage: 'ok' });
    expect((await getDownload(await signIn(t))).status).toBe(200);
  });
});

describe('portal-admin artifacts:add as a program', () => {
  it('storage refusing connections: one line on stderr, no stack, exit status 1', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-cli-outage-'));
    await s3.setOutage('refuse');
    try {
      const file = join(dataDir, 'robot-hub-setup.exe');
      writeFileSync(file, randomBytes(100));
      const cli = fileURLToPath(new URL('../../cli.ts', import.meta.url));
      const env = {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        ...S3_ENV,
      };
      const run = promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', cli, 'artifacts:add', file, '--os', 'windows', '--arch', 'amd64', '--version', '1.0.0'],
        { env },
      );
      const failed = (await run.then(
        () => undefined,
        (err: unknown) => err,
      )) as { code: number; stdout: string; stderr: string };
      expect(failed?.code).toBe(1);
      expect(failed.stdout).toBe('');
      expect(failed.stderr).toMatch(
        /^artifacts:add: robot-hub-setup\.exe was not stored in s3:\/\/portal-artifacts: storage unreachable \(Upload: ECONNREFUSED, 2 attempts\); nothing was recorded\n$/,
      );
    } finally {
      await s3.setOutage(undefined);
      rmSync(dataDir, { recursive: true, force: true });
    }
    // A program of its own: it starts and migrates a database first, which a busy machine makes slow.
  }, 120_000);
});
