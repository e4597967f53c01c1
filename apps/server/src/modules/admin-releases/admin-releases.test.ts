import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  type Asset,
  adminReleases,
  assets,
  ErrorCodes,
  LICENSE_AGREEMENT_VERSION,
  OPERATOR_HEADER,
  RELEASE_UPLOAD_PATH,
  type ReleasePlatform,
  type StaffRole,
} from '@portal/contract';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli.ts';
import { artifacts, auditEntries } from '../../db/schema.ts';
import { as, type SignedIn, signIn, useTestApp } from '../../test/fixtures.ts';
import { seedUser } from '../../test/harness.ts';
import { artifactsDir } from '../assets/assets.store.ts';

/*
 * Releases (issue 35 item 6, docs/decisions/076) over HTTP: the streamed upload with its limit and
 * its checks, the role checks, the audit entries, and withdrawing a build (Downloads then offers the
 * next highest) and restoring it, as a customer's Downloads sees it.
 */

const MAX = 64 * 1024;
const t = useTestApp({ RELEASE_MAX_BYTES: String(MAX) });

type Headers = Record<string, string>;
const callers = {} as Record<StaffRole, Headers> & { adminKey: Headers; financeKey: Headers };
let customer: SignedIn;

beforeAll(async () => {
  for (const role of ['support', 'finance', 'admin'] as const) {
    const user = await seedUser(t);
    await t.app.services.staff.setRole({ userId: user.id, role, by: { kind: 'cli' } });
    const pair = await t.app.services.sessions.start(t.app.deps.db, user, 'portal', undefined, 'passkey');
    callers[role] = { authorization: `Bearer ${pair.access_token}` };
  }
  const adminKey = await t.app.services.staff.createKey({ name: 'release-bot', role: 'admin', by: { kind: 'cli' } });
  callers.adminKey = { [OPERATOR_HEADER]: adminKey.key };
  const financeKey = await t.app.services.staff.createKey({ name: 'books', role: 'finance', by: { kind: 'cli' } });
  callers.financeKey = { [OPERATOR_HEADER]: financeKey.key };
  customer = await signIn(t);
});

interface Upload {
  os?: string;
  arch?: string;
  version?: string;
  file_name?: string;
}

/** The upload as curl sends it: the bytes as the body, the rest in the query, a CSRF token. */
async function upload(
  query: Upload,
  body: Buffer | Readable,
  headers: Headers,
  opts: { contentType?: string; csrf?: boolean } = {},
) {
  const csrf = opts.csrf === false ? {} : { 'x-csrf-token': await t.api.csrf() };
  const res = await t.app.inject({
    method: 'POST',
    url: RELEASE_UPLOAD_PATH,
    query: query as Record<string, string>,
    headers: { 'content-type': opts.contentType ?? 'application/octet-stream', ...csrf, ...headers },
    payload: body,
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

const build = (version: string, arch = 'deb', os = 'linux') => ({
  os,
  arch,
  version,
  file_name: `robot-hub-${version}-${os}-${arch}.${arch === 'amd64' || arch === 'arm64' ? 'bin' : arch}`,
});

const staffCall = (headers: Headers, action: keyof typeof adminReleases.actions, body: Record<string, unknown> = {}) =>
  t.api.post(adminReleases.path, { action, ...body }, { headers });

const changes = async (action: string) =>
  (await t.app.deps.db.select().from(auditEntries).where(eq(auditEntries.action, action))).length;

const hubOf = async (user: SignedIn) =>
  ((await as(t, user, assets)('GetAll')).body.assets as Asset[]).find((a) => a.id === 'robot-hub');

async function getDownload(user: SignedIn, version: string, os = 'linux', arch = 'deb') {
  const hub = (await hubOf(user)) as Asset;
  const artifact = hub.artifacts.find((a) => a.path.includes(`/${version}/${os}-${arch}/`));
  if (!artifact) return undefined;
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

async function platform(os: string, arch: string): Promise<ReleasePlatform> {
  const res = await staffCall(callers.support, 'ListReleases');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.platforms as ReleasePlatform[]).find((p) => p.os === os && p.arch === arch) as ReleasePlatform;
}

describe('uploading a hub build', () => {
  it('an admin API key uploads a build: stored, one release.add entry, and the customer Downloads offers and serves it', async () => {
    const bytes = randomBytes(50_000);
    const before = await changes('release.add');
    const res = await upload(build('2.0.0.0', 'amd64', 'windows'), bytes, callers.adminKey);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(res.body).toMatchObject({
      release: {
        os: 'windows',
        arch: 'amd64',
        version: '2.0.0.0',
        file_name: 'robot-hub-2.0.0.0-windows-amd64.bin',
        size_bytes: bytes.length,
        checksum: sha256,
        offered: true,
        withdrawn_at: 0,
      },
      error: { Success: true },
    });
    expect(await changes('release.add')).toBe(before + 1);
    const [entry] = await t.app.services.audit.list({ action: 'release.add', limit: 1 });
    expect(entry?.audit_entries).toMatchObject({
      actorKind: 'key',
      kind: 'change',
      target: res.body.release.artifact_id,
    });

    const hub = (await hubOf(customer)) as Asset;
    expect(hub.artifacts.map((a) => a.path)).toContain(
      'robot-hub/2.0.0.0/windows-amd64/robot-hub-2.0.0.0-windows-amd64.bin',
    );
    const download = await getDownload(customer, '2.0.0.0', 'windows', 'amd64');
    expect(download?.status, JSON.stringify(download?.body)).toBe(200);
    const file = await t.app.inject({ method: 'GET', url: download?.body.download_link as string });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(bytes)).toBe(true);
  });

  it('a staff session of an admin uploads too, streamed without a length (chunked)', async () => {
    const res = await upload(
      build('2.0.1.0', 'arm64', 'mac'),
      Readable.from([randomBytes(1000), randomBytes(1000)]),
      callers.admin,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.release).toMatchObject({ os: 'mac', arch: 'arm64', size_bytes: 2000 });
    const [entry] = await t.app.services.audit.list({ action: 'release.add', limit: 1 });
    expect(entry?.audit_entries.actorKind).toBe('staff');
  });

  it.each([
    ['a declared length', () => Buffer.alloc(MAX + 1)],
    [
      'a chunked body that grows past it',
      () => Readable.from([Buffer.alloc(MAX / 2), Buffer.alloc(MAX / 2), Buffer.alloc(10)]),
    ],
  ])('past RELEASE_MAX_BYTES (%s): 413 naming the limit, nothing stored, nothing recorded', async (_what, body) => {
    const before = await changes('release.add');
    const res = await upload(build('3.0.0.0'), body(), callers.adminKey);
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(res.body.error.Description).toBe(
      `body: a build may be at most ${MAX} bytes (RELEASE_MAX_BYTES); nothing was stored`,
    );
    expect(await changes('release.add')).toBe(before);
    expect(
      await t.app.deps.db
        .select()
        .from(artifacts)
        .where(eq(artifacts.fileName, build('3.0.0.0').file_name)),
    ).toEqual([]);
    // The store's folder for it may have been made; no file, whole or partial, is left in it.
    const folder = join(artifactsDir(t.config.dataDir), 'robot-hub', '3.0.0.0', 'linux-deb');
    expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
  });

  it.each<[string, Upload, string]>([
    ['an unknown os', { ...build('1.0.0.0'), os: 'beos' }, 'os'],
    ['an unknown arch', { ...build('1.0.0.0'), arch: 'sparc' }, 'arch'],
    ['a platform Downloads does not offer', { ...build('1.0.0.0'), os: 'windows', arch: 'deb' }, 'arch'],
    ['windows on arm64 (never offered)', { ...build('1.0.0.0'), os: 'windows', arch: 'arm64' }, 'arch'],
    ['three version parts', { ...build('1.0.0.0'), version: '1.0.0' }, 'version'],
    ['a version that is not numbers', { ...build('1.0.0.0'), version: '1.x.0.0' }, 'version'],
    ['no version', { ...build('1.0.0.0'), version: undefined as unknown as string }, 'version'],
    ['a file name with a slash', { ...build('1.0.0.0'), file_name: '../etc/passwd' }, 'file_name'],
    ['no file name', { ...build('1.0.0.0'), file_name: '' }, 'file_name'],
  ])('%s: 400 naming the field, nothing recorded', async (_what, query, field) => {
    const clean = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));
    const before = await changes('release.add');
    const res = await upload(clean, randomBytes(100), callers.adminKey);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.Code).toBe(ErrorCodes.VALIDATION.code);
    expect(res.body.error.Description).toMatch(new RegExp(`^${field}: `));
    expect(await changes('release.add')).toBe(before);
  });

  it('a body that is not application/octet-stream is 415; an empty one 400', async () => {
    const json = await upload(build('1.0.0.0'), Buffer.from('{}'), callers.adminKey, {
      contentType: 'application/json',
    });
    expect(json.status).toBe(415);
    expect(json.body.error.Description).toMatch(/^content-type: /);
    const empty = await upload(build('1.0.0.0'), Buffer.alloc(0), callers.adminKey);
    expect(empty.status).toBe(400);
    expect(empty.body.error.Description).toBe('body: the build is empty');
  });

  it('a version a platform has already is 409, and the stored build stays as it was', async () => {
    const first = randomBytes(500);
    expect((await upload(build('4.0.0.0', 'rpm'), first, callers.adminKey)).status).toBe(200);
    const before = await changes('release.add');
    const again = await upload(build('4.0.0.0', 'rpm'), randomBytes(600), callers.adminKey);
    expect(again.status).toBe(409);
    expect(again.body.error.Description).toMatch(/^version: 4\.0\.0\.0 of linux\/rpm is uploaded already/);
    expect(await changes('release.add')).toBe(before);
    const rows = await t.app.deps.db
      .select()
      .from(artifacts)
      .where(eq(artifacts.fileName, build('4.0.0.0', 'rpm').file_name));
    expect(rows.map((r) => r.sizeBytes)).toEqual([500]);
  });

  it('a row that cannot be written takes its stored object with it: nothing recorded, no file left', async () => {
    // The database refuses this one row (a trigger stands in for any failure after the upload).
    const db = t.app.deps.db;
    await db.execute(sql`create function refuse_artifact() returns trigger language plpgsql as $$
      begin if new.file_name = 'robot-hub-refused.deb' then raise exception 'refused by the test'; end if; return new; end $$`);
    await db.execute(
      sql`create trigger refuse_artifact before insert on artifacts for each row execute function refuse_artifact()`,
    );
    try {
      const before = await changes('release.add');
      const res = await upload(
        { ...build('10.0.0.0'), file_name: 'robot-hub-refused.deb' },
        randomBytes(100),
        callers.adminKey,
      );
      expect(res.status).toBe(500);
      expect(await changes('release.add')).toBe(before);
      const folder = join(artifactsDir(t.config.dataDir), 'robot-hub', '10.0.0.0', 'linux-deb');
      expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
    } finally {
      await db.execute(sql`drop trigger refuse_artifact on artifacts`);
      await db.execute(sql`drop function refuse_artifact()`);
    }
  });

  it('roles: support and finance 403 naming admin (a security entry), a customer and no credential the unknown route', async () => {
    const unknown = await t.api.post('/api/no-such-route', {});
    for (const [who, headers] of [
      ['support', callers.support],
      ['finance', callers.finance],
      ['finance key', callers.financeKey],
    ] as const) {
      const res = await upload(build('5.0.0.0'), randomBytes(10), headers);
      expect([who, res.status]).toEqual([who, 403]);
      expect(res.body.error.Description).toMatch(/may not call UploadRelease; it needs the role admin$/);
    }
    const refusals = await t.app.services.audit.list({ action: 'staff.refused', limit: 50 });
    expect(refusals.filter((e) => e.audit_entries.target === 'UploadRelease').length).toBeGreaterThanOrEqual(3);
    const outsiders: Headers[] = [
      { authorization: `Bearer ${customer.token}` },
      {},
      { [OPERATOR_HEADER]: 'wrong-key-of-at-least-32-characters' },
    ];
    for (const headers of outsiders) {
      const res = await upload(build('5.0.0.0'), randomBytes(10), headers);
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).toBe(
        JSON.stringify(unknown.body).replace('/api/no-such-route', RELEASE_UPLOAD_PATH),
      );
    }
    // A customer learns nothing from the body's type either.
    const typed = await upload(build('5.0.0.0'), Buffer.from('x'), {}, { contentType: 'text/plain' });
    expect(typed.status).toBe(404);
    expect(
      await t.app.deps.db
        .select()
        .from(artifacts)
        .where(eq(artifacts.fileName, build('5.0.0.0').file_name)),
    ).toEqual([]);
  });

  it('is protected by the CSRF rule like every POST: no token, 403', async () => {
    const res = await upload(build('6.0.0.0'), randomBytes(10), callers.adminKey, { csrf: false });
    expect(res.status).toBe(403);
    expect(res.body.error.Code).toBe(ErrorCodes.CSRF.code);
  });
});

describe('artifacts:add on the host', () => {
  it('runs the same code: one release.add entry by the command line, and a version taken is refused', async () => {
    const file = join(t.config.dataDir, 'robot-hub-9.0.0.rpm');
    writeFileSync(file, randomBytes(200));
    const cli = (version: string) =>
      runCli(['artifacts:add', file, '--os', 'linux', '--arch', 'rpm', '--version', version], {
        db: t.app.deps.db,
        config: t.config,
        clock: t.clock,
        out: () => undefined,
      });
    const before = await changes('release.add');
    await cli('9.0.0');
    expect(await changes('release.add')).toBe(before + 1);
    const [entry] = await t.app.services.audit.list({ action: 'release.add', limit: 1 });
    expect(entry?.audit_entries).toMatchObject({ actorKind: 'system', actorId: 'cli' });
    await expect(cli('9.0.0.0')).rejects.toThrow(/^version: 9\.0\.0\.0 of linux\/rpm is uploaded already/);
    expect(await changes('release.add')).toBe(before + 1);
  });
});

describe('withdrawing and restoring a build', () => {
  it('a withdrawn build leaves Downloads (the next highest is offered), its links stop, and restoring brings it back', async () => {
    for (const v of ['7.0.0.0', '7.1.0.0'])
      expect((await upload(build(v), randomBytes(300), callers.adminKey)).status).toBe(200);
    const listed = await platform('linux', 'deb');
    const newest = listed.builds[0]!;
    expect(newest).toMatchObject({ version: '7.1.0.0', offered: true });
    expect(listed.offered_artifact_id).toBe(newest.artifact_id);
    const link = (await getDownload(customer, '7.1.0.0'))?.body.download_link as string;

    const before = await changes('release.withdraw');
    const withdrawn = await staffCall(callers.admin, 'WithdrawRelease', {
      artifact_id: newest.artifact_id,
      reason: 'crashes on start',
    });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    const after = withdrawn.body.platform as ReleasePlatform;
    expect(after.builds.map((b) => [b.version, b.offered, b.withdrawn_reason])).toEqual([
      ['7.1.0.0', false, 'crashes on start'],
      ['7.0.0.0', true, ''],
    ]);
    expect(after.builds[0]!.withdrawn_at).toBeGreaterThan(0);
    expect(await changes('release.withdraw')).toBe(before + 1);

    // The customer's Downloads: 7.1 is gone, 7.0 is the newest; the link handed out before is dead.
    const hub = (await hubOf(customer)) as Asset;
    const debs = hub.artifacts.filter((a) => a.OS === 'linux' && a.Arch === 'deb').map((a) => a.path);
    expect(debs[0]).toContain('/7.0.0.0/');
    expect(debs.some((p) => p.includes('/7.1.0.0/'))).toBe(false);
    const dead = await t.app.inject({ method: 'GET', url: link });
    expect(dead.statusCode).toBe(404);
    expect(dead.body).toContain('This file is no longer available');
    expect((await getDownload(customer, '7.0.0.0'))?.status).toBe(200);

    // Withdrawing it again changes nothing and records nothing.
    const again = await staffCall(callers.adminKey, 'WithdrawRelease', {
      artifact_id: newest.artifact_id,
      reason: 'again',
    });
    expect(again.status).toBe(200);
    expect(await changes('release.withdraw')).toBe(before + 1);

    const restoredBefore = await changes('release.restore');
    const restored = await staffCall(callers.adminKey, 'RestoreRelease', {
      artifact_id: newest.artifact_id,
      reason: 'fixed on the server side',
    });
    expect(restored.status).toBe(200);
    expect((restored.body.platform as ReleasePlatform).offered_artifact_id).toBe(newest.artifact_id);
    expect(await changes('release.restore')).toBe(restoredBefore + 1);
    expect((await getDownload(customer, '7.1.0.0'))?.status).toBe(200);
  });

  it('withdrawing needs admin (support 403), a reason, and a release that exists', async () => {
    const [build0] = (await platform('linux', 'deb')).builds;
    const support = await staffCall(callers.support, 'WithdrawRelease', {
      artifact_id: build0!.artifact_id,
      reason: 'x',
    });
    expect(support.status).toBe(403);
    const noReason = await staffCall(callers.admin, 'WithdrawRelease', {
      artifact_id: build0!.artifact_id,
      reason: ' ',
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.Description).toMatch(/^reason: /);
    const missing = await staffCall(callers.admin, 'WithdrawRelease', {
      artifact_id: '00000000-0000-4000-8000-000000000000',
      reason: 'x',
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.Description).toMatch(/^artifact_id: /);
  });

  it('a platform whose every build is withdrawn offers nothing', async () => {
    expect((await upload(build('8.0.0.0', 'amd64', 'mac'), randomBytes(10), callers.adminKey)).status).toBe(200);
    const [only] = (await platform('mac', 'amd64')).builds;
    const res = await staffCall(callers.admin, 'WithdrawRelease', {
      artifact_id: only!.artifact_id,
      reason: 'bad build',
    });
    expect((res.body.platform as ReleasePlatform).offered_artifact_id).toBe('');
    const hub = (await hubOf(customer)) as Asset;
    expect(hub.artifacts.filter((a) => a.OS === 'mac' && a.Arch === 'amd64')).toEqual([]);
  });
});
