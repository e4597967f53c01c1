import { createHash, randomBytes } from 'node:crypto';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { type Artifact, type Asset, AssetType, assets, LICENSE_AGREEMENT_VERSION } from '@portal/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  driverAsset,
  expectFieldError,
  JUNK_BODIES,
  type SignedIn,
  signIn,
  useTestApp,
} from '../../test/fixtures.ts';
import { assetRepository } from './assets.repository.ts';
import { AssetService } from './assets.service.ts';
import { artifactsDir, LocalArtifactStore } from './assets.store.ts';

const TTL_S = 120;
const t = useTestApp({ DOWNLOAD_LINK_TTL_S: String(TTL_S) });
let hub: Asset;
let otherArtifactId = '';
const bytes = { windows: randomBytes(4096), deb: randomBytes(1000) };

beforeAll(async () => {
  const service = new AssetService(t.app.deps.db, t.clock, new LocalArtifactStore(artifactsDir(t.config.dataDir)));
  await assetRepository.upsertAsset(t.app.deps.db, { id: 'robot-hub', type: AssetType.Application, name: 'Robot Hub' });
  const add = (os: 'windows' | 'linux', arch: 'amd64' | 'deb', version: string, data: Buffer, createdAt: Date) =>
    service.addArtifact(t.app.deps.db, {
      assetId: 'robot-hub',
      fileName: `robot-hub-${version}-${os}-${arch}.zip`,
      data,
      os,
      arch,
      version: { major: Number(version[0]), minor: Number(version[2]), patch: Number(version[4]), revision: 0 },
      createdAt,
    });
  await add('linux', 'deb', '1.2.0', randomBytes(10), new Date(Date.UTC(2025, 0, 1)));
  await add('linux', 'deb', '1.4.0', bytes.deb, new Date(Date.UTC(2025, 5, 1)));
  await add('windows', 'amd64', '1.4.0', bytes.windows, new Date(Date.UTC(2025, 5, 1)));
  await driverAsset(t, 'Pepper');
  const res = await as(t, await signIn(t), assets)('GetAll');
  hub = (res.body.assets as Asset[])[0]!;
  otherArtifactId = (await assetRepository.artifactOf(t.app.deps.db, hub.id, artifactFor('linux', 'deb').path))!.id;
});

const artifactFor = (os: string, arch: string) => hub.artifacts.find((a) => a.OS === os && a.Arch === arch)!;

const downloadRequest = (artifact: Artifact, patch: Record<string, unknown> = {}) => ({
  asset_id: hub.id,
  assets: { ...hub, artifacts: [artifact] },
  type: hub.type,
  download_link: '',
  agreement_version: LICENSE_AGREEMENT_VERSION,
  accepted: true,
  ...patch,
});

async function linkFor(user: SignedIn, artifact = artifactFor('windows', 'amd64')) {
  const res = await as(t, user, assets)('GetDownload', downloadRequest(artifact));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.download_link as string;
}

const fetchLink = (link: string) => t.app.inject({ method: 'GET', url: link });

describe('GetAll', () => {
  it('answers downloadable assets with their artifacts, newest sdk version first', async () => {
    const res = await as(t, await signIn(t), assets)('GetAll');
    const list = res.body.assets as Asset[];
    expect(list.map((a) => a.id)).toEqual(['robot-hub']);
    expect(list[0]!.artifacts.map((a) => `${a.OS}/${a.Arch}/${a.version_info.sdk.minor}`)).toEqual([
      'linux/deb/4',
      'windows/amd64/4',
      'linux/deb/2',
    ]);
    const win = artifactFor('windows', 'amd64');
    expect(win.checksum).toBe(createHash('sha256').update(bytes.windows).digest('hex'));
    expect(win.path).not.toMatch(/^\//);
  });
});

describe('GetDownload and the signed link', () => {
  it('records the acceptance and answers a link whose bytes match the checksum', async () => {
    const user = await signIn(t);
    const link = await linkFor(user);
    expect(link).toMatch(/^\/api\/assets\/download\/[0-9a-f-]+\?u=[0-9a-f-]+&expires=\d+&sig=[\w-]+$/);

    const accepted = await assetRepository.acceptances(t.app.deps.db, user.id);
    expect(accepted).toEqual([
      expect.objectContaining({ agreementVersion: LICENSE_AGREEMENT_VERSION, assetId: 'robot-hub' }),
    ]);
    expect(Math.abs(accepted[0]!.acceptedAt.getTime() - t.clock.now().getTime())).toBeLessThan(5_000);
    // Downloading again keeps the one acceptance of this version (issue 14, finding 9).
    await linkFor(user);
    await linkFor(user);
    expect(await assetRepository.acceptances(t.app.deps.db, user.id)).toEqual(accepted);

    const res = await fetchLink(link);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes.windows)).toBe(true);
    expect(res.headers['x-checksum-sha256']).toBe(createHash('sha256').update(res.rawPayload).digest('hex'));
    expect(res.headers['x-checksum-sha256']).toBe(artifactFor('windows', 'amd64').checksum);
    expect(res.headers['content-disposition']).toBe('attachment; filename="robot-hub-1.4.0-windows-amd64.zip"');
  });

  it.each([
    ['without ticking the agreement', { accepted: false }, 'accepted'],
    ['with the agreement missing', { accepted: undefined }, 'accepted'],
    ['for another agreement version', { agreement_version: '1999-01' }, 'agreement_version'],
    [
      'without an artifact',
      { assets: { id: 'robot-hub', type: 'application', name: 'Robot Hub', artifacts: [] } },
      'assets.artifacts',
    ],
  ])('is refused %s, and nothing is recorded', async (_name, patch, field) => {
    const user = await signIn(t);
    const res = await as(t, user, assets)('GetDownload', downloadRequest(artifactFor('windows', 'amd64'), patch));
    expectFieldError(res, 400, field);
    expect(res.body.download_link).toBeUndefined();
    expect(await assetRepository.acceptances(t.app.deps.db, user.id)).toEqual([]);
  });

  it('refuses an artifact the catalogue does not hold, with the spec message', async () => {
    const user = await signIn(t);
    const forged = { ...artifactFor('windows', 'amd64'), path: '../../etc/passwd' };
    const res = await as(t, user, assets)('GetDownload', downloadRequest(forged));
    expectFieldError(res, 404, 'assets.artifacts.0.path');
    expect(res.body.error.Description).toContain('Invalid asset for download');
  });

  it('refuses a caller without a session', async () => {
    const res = await t.api.call(assets, 'GetDownload', downloadRequest(artifactFor('windows', 'amd64')));
    expect(res.status).toBe(401);
  });

  it('refuses an expired link with 403 and a page that says so', async () => {
    const link = await linkFor(await signIn(t));
    t.clock.advance((TTL_S + 1) * 1000);
    const res = await fetchLink(link);
    expectPage(res, 403, 'This download link has expired');
  });

  it.each([
    ['a changed signature', (u: URL) => u.searchParams.set('sig', `${u.searchParams.get('sig')!.slice(0, -2)}AA`)],
    ['a later expiry', (u: URL) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))],
    ['another artifact', (u: URL) => (u.pathname = `/api/assets/download/${otherArtifactId}`)],
    ['no signature', (u: URL) => u.searchParams.delete('sig')],
    ['a junk expiry', (u: URL) => u.searchParams.set('expires', 'soon')],
  ])('refuses a link with %s with 403 and a page', async (_name, tamper) => {
    const url = new URL(await linkFor(await signIn(t)), 'http://x');
    tamper(url);
    const res = await fetchLink(url.pathname + url.search);
    expectPage(res, 403, 'This download link is not valid');
  });

  it("user B gets nothing of user A's download link: rebinding it to B is refused", async () => {
    const a = await signIn(t);
    const b = await signIn(t);
    const url = new URL(await linkFor(a), 'http://x');
    url.searchParams.set('u', b.id);
    expect((await fetchLink(url.pathname + url.search)).statusCode).toBe(403);
    expect(await assetRepository.acceptances(t.app.deps.db, b.id)).toEqual([]);
  });

  it('answers 404, not 500, for an unknown artifact id', async () => {
    const res = await fetchLink('/api/assets/download/not-a-uuid?u=x&expires=1&sig=x');
    expect(res.statusCode).toBeLessThan(500);
  });

  it('answers 404 and a page for a file that is gone, and GetDownload refuses it before handing out a link', async () => {
    const user = await signIn(t);
    const link = await linkFor(user, artifactFor('linux', 'deb'));
    const key = artifactFor('linux', 'deb').path;
    const file = join(artifactsDir(t.config.dataDir), key);
    renameSync(file, `${file}.away`);
    try {
      expectPage(await fetchLink(link), 404, 'This file is no longer available');
      const res = await as(t, user, assets)('GetDownload', downloadRequest(artifactFor('linux', 'deb')));
      expectFieldError(res, 404, 'assets.artifacts.0.path');
    } finally {
      renameSync(`${file}.away`, file);
    }
  });
});

/** A download link's failure: an HTML page with the status, never cached, and a way back to Downloads. */
function expectPage(res: Awaited<ReturnType<typeof fetchLink>>, status: number, title: string) {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.body).toContain(`<h1>${title}</h1>`);
  expect(res.body).toContain(`href="${t.config.PUBLIC_URL}/dashboard/downloads"`);
}

describe('never a 500', () => {
  it.each(Object.keys(assets.actions))('%s answers junk with a 4xx naming what is wrong', async (action) => {
    const user = await signIn(t);
    for (const body of JUNK_BODIES) {
      const res = await as(t, user, assets)(action as keyof typeof assets.actions, body);
      expect(res.status, `${action} ${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`).toBeLessThan(500);
      if (res.status >= 400) expect(res.body.error.Description).toMatch(/^[\w.[\]-]+: /);
    }
  });
});
