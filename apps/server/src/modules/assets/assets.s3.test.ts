import { createHash, randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { type Asset, assets, LICENSE_AGREEMENT_VERSION } from '@portal/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { as, expectFieldError, type SignedIn, signIn, useTestApp } from '../../test/fixtures.ts';
import { startS3StandIn } from '../../test/s3-stand-in.ts';
import { assetRepository } from './assets.repository.ts';
import { S3ArtifactStore, s3ClientFor } from './assets.s3.ts';
import { artifactsDir } from './assets.store.ts';

// The stand-in checks every signature and expires presigned URLs on the test app's clock. Like a
// bucket behind an internal name, it takes the portal's calls at 127.0.0.1 and presigned URLs only
// at localhost (S3_PUBLIC_ENDPOINT).
const s3 = await startS3StandIn({ clock: { now: () => t.clock.now() }, publicName: 'localhost' });
const TTL_S = 120;
const t = useTestApp({
  DOWNLOAD_LINK_TTL_S: String(TTL_S),
  S3_BUCKET: s3.bucket,
  S3_ENDPOINT: s3.endpoint,
  S3_PUBLIC_ENDPOINT: s3.publicEndpoint,
  S3_REGION: s3.region,
  S3_ACCESS_KEY_ID: s3.accessKeyId,
  S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  S3_FORCE_PATH_STYLE: 'true',
});
afterAll(() => s3.close());

const installer = randomBytes(50_000);

/** The command line's artifacts:add, on the test app's database and configuration. */
async function addArtifact(version: string, bytes: Uint8Array): Promise<string> {
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

async function getDownload(user: SignedIn, version: string) {
  const list = (await as(t, user, assets)('GetAll')).body.assets as Asset[];
  const hub = list.find((a) => a.id === 'robot-hub')!;
  const artifact = hub.artifacts.find((a) => a.path.includes(`/${version}.0/`))!;
  return as(
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
}

async function downloadLink(version: string): Promise<string> {
  const res = await getDownload(await signIn(t), version);
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
    // Signed for the public name: the internal one in a customer's link would not open.
    expect(location.origin).toBe(s3.publicEndpoint);
    expect(location.origin).not.toBe(s3.endpoint);
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

  it('a URL signed for the internal endpoint, or moved to the public one after signing, does not open', async () => {
    const res = await t.app.inject({ method: 'GET', url: await downloadLink('3.1.0') });
    const location = new URL(String(res.headers.location));
    // What rewriting a URL after signing gives: SigV4 signed the public host, not this one.
    const internal = new URL(location.pathname + location.search, s3.endpoint);
    expect((await fetch(internal)).status).toBe(403);
    expect(s3.refusals.at(-1)?.code).toBe('AccessDenied');
    const internalSigned = await getSignedUrl(
      s3ClientFor(t.config),
      new GetObjectCommand({ Bucket: s3.bucket, Key: 'robot-hub/3.1.0.0/windows-amd64/robot-hub-setup-3.1.0.exe' }),
      { expiresIn: 60, signingDate: t.clock.now() },
    );
    const moved = new URL(internalSigned);
    moved.host = new URL(s3.publicEndpoint).host;
    expect((await fetch(moved)).status).toBe(403);
    expect(s3.refusals.at(-1)?.code).toBe('SignatureDoesNotMatch');
  });

  it('answers 404 when the bucket no longer holds the file: GetDownload, and a link handed out before', async () => {
    await addArtifact('3.3.0', randomBytes(10));
    const link = await downloadLink('3.3.0');
    s3.objects.delete('robot-hub/3.3.0.0/windows-amd64/robot-hub-setup-3.3.0.exe');
    const res = await t.app.inject({ method: 'GET', url: link });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<h1>This file is no longer available</h1>');
    const refused = await getDownload(await signIn(t), '3.3.0');
    expectFieldError(refused, 404, 'assets.artifacts.0.path');
  });

  it('uploads a large build in parts (multipart), with its checksum as metadata', async () => {
    const large = randomBytes(6 * 1024 * 1024 + 123);
    const out = await addArtifact('3.4.0', large);
    const key = 'robot-hub/3.4.0.0/windows-amd64/robot-hub-setup-3.4.0.exe';
    expect(s3.multipartKeys).toContain(key);
    expect(s3.objects.get(key)?.body.equals(large)).toBe(true);
    const sha256 = createHash('sha256').update(large).digest('hex');
    expect(s3.objects.get(key)?.metadata.sha256).toBe(sha256);
    expect(out).toContain(`sha256 ${sha256}`);
  });

  it('an upload that storage fails for a moment is tried again, and stored', async () => {
    const bytes = randomBytes(1000);
    s3.failNext(1);
    await addArtifact('3.5.0', bytes);
    expect(s3.refusals.at(-1)).toEqual({ status: 500, code: 'InternalError' });
    expect(s3.objects.get('robot-hub/3.5.0.0/windows-amd64/robot-hub-setup-3.5.0.exe')?.body.equals(bytes)).toBe(true);
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
  it('gives up on a dead or silent service within about 10 s by default: 3 attempts of 3 s', () => {
    const config = loadConfig({ JWT_SECRET: t.config.JWT_SECRET, DATA_DIR: t.config.dataDir, S3_BUCKET: 'artifacts' });
    expect(config).toMatchObject({ S3_TIMEOUT_MS: 3_000, S3_MAX_RETRIES: 2 });
    expect((config.S3_MAX_RETRIES + 1) * config.S3_TIMEOUT_MS).toBeLessThanOrEqual(10_000);
  });

  it.each([
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, 'S3_ENDPOINT: is set but S3_BUCKET is not'],
    [{ S3_BUCKET: 'artifacts', S3_ACCESS_KEY_ID: 'AK' }, 'S3_SECRET_ACCESS_KEY: set both'],
    [{ S3_BUCKET: 'Bad_Bucket' }, 'S3_BUCKET: must be an S3 bucket name'],
    [{ S3_BUCKET: 'artifacts', S3_ENDPOINT: 'ftp://x' }, 'S3_ENDPOINT: must be an http'],
    [{ S3_PUBLIC_ENDPOINT: 'https://files.acme.co.uk' }, 'S3_PUBLIC_ENDPOINT: is set but S3_BUCKET is not'],
    [{ S3_BUCKET: 'artifacts', S3_PUBLIC_ENDPOINT: 'files.acme.co.uk' }, 'S3_PUBLIC_ENDPOINT: must be an http'],
    [{ S3_BUCKET: 'artifacts', S3_TIMEOUT_MS: '0' }, 'S3_TIMEOUT_MS: Too small'],
    [{ S3_BUCKET: 'artifacts', S3_MAX_RETRIES: '-1' }, 'S3_MAX_RETRIES: Too small'],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(32), DATA_DIR: t.config.dataDir, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(32), DATA_DIR: t.config.dataDir, ...env })).toThrow(message);
  });
});
