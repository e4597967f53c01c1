import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { ErrorCodes, OPERATOR_HEADER, RELEASE_UPLOAD_PATH } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, auditEntries } from '../../db/schema.ts';
import { useTestApp } from '../../test/fixtures.ts';
import { startS3StandIn } from '../../test/s3-stand-in.ts';

/*
 * The upload route with a bucket (docs/decisions/076): the build reaches S3 through the same store
 * as artifacts:add (one PUT, or parts from 5 MiB), with its checksum; past the limit or with storage
 * down nothing reaches the bucket and nothing is recorded.
 */

const s3 = await startS3StandIn({ publicName: 'localhost' });
const MAX = 8 * 1024 * 1024;
const t = useTestApp({
  RELEASE_MAX_BYTES: String(MAX),
  S3_BUCKET: s3.bucket,
  S3_ENDPOINT: s3.endpoint,
  S3_PUBLIC_ENDPOINT: s3.publicEndpoint,
  S3_REGION: s3.region,
  S3_ACCESS_KEY_ID: s3.accessKeyId,
  S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  S3_FORCE_PATH_STYLE: 'true',
  S3_TIMEOUT_MS: '200',
  S3_MAX_RETRIES: '1',
});
afterAll(() => s3.close());

let key: Record<string, string>;
beforeAll(async () => {
  const made = await t.app.services.staff.createKey({ name: 'release-bot', role: 'admin', by: { kind: 'cli' } });
  key = { [OPERATOR_HEADER]: made.key };
});

async function upload(version: string, body: Buffer | Readable) {
  const res = await t.app.inject({
    method: 'POST',
    url: RELEASE_UPLOAD_PATH,
    query: { os: 'linux', arch: 'rpm', version, file_name: `robot-hub-${version}.rpm` },
    headers: { 'content-type': 'application/octet-stream', 'x-csrf-token': await t.api.csrf(), ...key },
    payload: body,
  });
  return { status: res.statusCode, body: res.json() };
}

const objectKey = (version: string) => `robot-hub/${version}/linux-rpm/robot-hub-${version}.rpm`;
const entries = async () =>
  (await t.app.deps.db.select().from(auditEntries).where(eq(auditEntries.action, 'release.add'))).length;

describe('uploading a build to the bucket', () => {
  it('stores the bytes under the release key with their checksum, one PUT', async () => {
    const bytes = randomBytes(40_000);
    const res = await upload('1.0.0.0', bytes);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(res.body.release).toMatchObject({ checksum: sha256, size_bytes: bytes.length });
    expect(s3.objects.get(objectKey('1.0.0.0'))?.body.equals(bytes)).toBe(true);
    expect(s3.objects.get(objectKey('1.0.0.0'))?.metadata.sha256).toBe(sha256);
    expect(await entries()).toBe(1);
  });

  it('a build of 5 MiB or more goes up in parts, streamed in chunks', async () => {
    const chunks = Array.from({ length: 6 }, () => randomBytes(1024 * 1024));
    const res = await upload('1.1.0.0', Readable.from(chunks));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(s3.multipartKeys).toContain(objectKey('1.1.0.0'));
    expect(s3.objects.get(objectKey('1.1.0.0'))?.body.equals(Buffer.concat(chunks))).toBe(true);
  });

  it('past the limit: 413, nothing in the bucket, nothing recorded', async () => {
    const before = await entries();
    const res = await upload('1.2.0.0', Readable.from(Array.from({ length: 9 }, () => randomBytes(1024 * 1024))));
    expect(res.status).toBe(413);
    expect(s3.objects.has(objectKey('1.2.0.0'))).toBe(false);
    expect(await entries()).toBe(before);
  });

  it('storage refusing connections: 503, nothing recorded', async () => {
    const before = await entries();
    await s3.setOutage('refuse');
    try {
      const res = await upload('1.3.0.0', randomBytes(1000));
      expect(res.status).toBe(503);
      expect(res.body.error.Code).toBe(ErrorCodes.UNAVAILABLE.code);
      expect(res.body.error.Description).toMatch(/^storage unreachable .*; nothing was recorded \(request /);
    } finally {
      await s3.setOutage(undefined);
    }
    expect(await entries()).toBe(before);
    expect(
      await t.app.deps.db
        .select()
        .from(artifacts)
        .where(eq(artifacts.storeKey, objectKey('1.3.0.0'))),
    ).toEqual([]);
  });
});
