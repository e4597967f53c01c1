import { createHash, randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Asset, assets, LICENSE_AGREEMENT_VERSION } from '@portal/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { as, signIn, useTestApp } from '../../test/fixtures.ts';
import { startS3StandIn } from '../../test/s3-stand-in.ts';
import { assetRepository } from './assets.repository.ts';
import { S3ArtifactStore, s3ClientFor } from './assets.s3.ts';
import { artifactsDir } from './assets.store.ts';

// The stand-in checks every signature and expires presigned URLs on the test app's clock.
const s3 = await startS3StandIn({ clock: { now: () => t.clock.now() } });
const TTL_S = 120;
const t = useTestApp({
  DOWNLOAD_LINK_TTL_S: String(TTL_S),
  S3_BUCKET: s3.bucket,
  S3_ENDPOINT: s3.endpoint,
  S3_REGION: s3.region,
  S3_ACCESS_KEY_ID: s3.accessKeyId,
  S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  S3_FORCE_PATH_STYLE: 'true',
});
afterAll(() => s3.close());

const installer = randomBytes(50_000);

/** The command line's artifacts:add, on the test app's database and configuration. */
async function addArtifact(version: string, bytes: Buffer): Promise<string> {
  const file = join(t.config.dataDir, `robot-hub-setup-${version}.exe`);
  writeFileSync(file, bytes);
  const lines: string[] = [];
  await runCli(['artifacts:add', file, '--os', 'windows', '--arch', 'amd64', '--version', version], {
    db: t.app.deps.db,
    config: t.config,
    clock: t.clock,
    out: (l) => lines.push(l),
  });
  return lines.join('\n');
}

async function downloadLink(version: string): Promise<string> {
  const user = await signIn(t);
  const list = (await as(t, user, assets)('GetAll')).body.assets as Asset[];
  const hub = list.find((a) => a.id === 'robot-hub')!;
  const artifact = hub.artifacts.find((a) => a.path.includes(`/${version}.0/`))!;
  const res = await as(
    t,
    user,
    assets,
  )('GetDownload', {
    asset_id: hub.id,
    assets: { ...hub, artifacts: [artifact] },
    type: hub.type,
    download_link: '',
    agreement_version: LICENSE_AGREEMENT_VERSION,
    accepted: true,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.download_link as string;
}

describe('artifacts in S3-compatible storage', () => {
  it('artifacts:add uploads to the bucket, with the checksum of the bytes, and nothing to the data folder', async () => {
    const out = await addArtifact('3.1.0', installer);
    const sha256 = createHash('sha256').update(installer).digest('hex');
    expect(out).toContain(`sha256 ${sha256}`);
    const key = 'robot-hub/3.1.0.0/windows-amd64/robot-hub-setup-3.1.0.exe';
    expect(s3.objects.get(key)?.body.equals(installer)).toBe(true);
    expect(s3.objects.get(key)?.metadata.sha256).toBe(sha256);
    const [row] = (await assetRepository.downloadable(t.app.deps.db))[0]!.artifacts;
    expect(row).toMatchObject({ storeKey: key, sizeBytes: installer.length, checksum: sha256 });
    expect(existsSync(artifactsDir(t.config.dataDir))).toBe(false);
    expect(s3.refusals).toEqual([]);
  });

  it("a download link sends the browser to a presigned URL that answers the file under the artifact's name", async () => {
    // The link expires on a whole second and the URL's lifetime is what is left of it, rounded up:
    // starting just after a second, the two stay in the same second (the clock runs with real time).
    t.clock.set(new Date(Math.ceil(t.clock.now().getTime() / 1000) * 1000 + 10));
    const res = await t.app.inject({ method: 'GET', url: await downloadLink('3.1.0') });
    expect(res.statusCode).toBe(302);
    expect(res.headers['x-checksum-sha256']).toBe(createHash('sha256').update(installer).digest('hex'));
    const location = new URL(String(res.headers.location));
    expect(location.origin).toBe(s3.endpoint);
    expect(location.searchParams.get('X-Amz-Expires')).toBe(String(TTL_S));

    const file = await fetch(location);
    expect(file.status, await file.clone().text()).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(installer)).toBe(true);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="robot-hub-setup-3.1.0.exe"');
  });

  it('the presigned URL expires with the download link, and cannot be pointed at another object', async () => {
    await addArtifact('3.2.0', randomBytes(10));
    const res = await t.app.inject({ method: 'GET', url: await downloadLink('3.1.0') });
    const location = new URL(String(res.headers.location));

    const moved = new URL(location.href.replace('3.1.0', '3.2.0'));
    expect((await fetch(moved)).status).toBe(403);
    expect(s3.refusals.at(-1)?.code).toBe('SignatureDoesNotMatch');

    t.clock.advance((TTL_S + 1) * 1000);
    const late = await fetch(location);
    expect(late.status).toBe(403);
    expect(await late.text()).toContain('Request has expired');
    // The portal's own link has expired as well: it no longer sends anyone to the bucket.
    expect((await t.app.inject({ method: 'GET', url: location.pathname })).statusCode).toBeGreaterThanOrEqual(400);
  });

  it('answers 404 when the bucket no longer holds the file', async () => {
    await addArtifact('3.3.0', randomBytes(10));
    s3.objects.delete('robot-hub/3.3.0.0/windows-amd64/robot-hub-setup-3.3.0.exe');
    const res = await t.app.inject({ method: 'GET', url: await downloadLink('3.3.0') });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.Description).toMatch(/^id: /);
  });

  it('refuses requests signed with the wrong secret (the stand-in checks signatures)', async () => {
    const store = new S3ArtifactStore(
      s3ClientFor({ ...t.config, S3_SECRET_ACCESS_KEY: 'not-the-secret-of-the-stand-in' }),
      s3.bucket,
      t.clock,
    );
    await expect(store.put('robot-hub/x/y.bin', Buffer.from('x'))).rejects.toThrow();
    expect(s3.refusals.at(-1)).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(s3.objects.has('robot-hub/x/y.bin')).toBe(false);
  });
});

describe('S3 configuration', () => {
  it.each([
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, 'S3_ENDPOINT: is set but S3_BUCKET is not'],
    [{ S3_BUCKET: 'artifacts', S3_ACCESS_KEY_ID: 'AK' }, 'S3_SECRET_ACCESS_KEY: set both'],
    [{ S3_BUCKET: 'Bad_Bucket' }, 'S3_BUCKET: must be an S3 bucket name'],
    [{ S3_BUCKET: 'artifacts', S3_ENDPOINT: 'ftp://x' }, 'S3_ENDPOINT: must be an http'],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(32), DATA_DIR: t.config.dataDir, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(32), DATA_DIR: t.config.dataDir, ...env })).toThrow(message);
  });
});
