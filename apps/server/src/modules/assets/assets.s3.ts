import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  type ArtifactStore,
  artifactsDir,
  type Delivery,
  isValidKey,
  LocalArtifactStore,
  type StoredArtifact,
  safeFileName,
} from './assets.store.ts';

/** The SDK client for the S3 variables of the configuration (docs/operations.md#artifacts-and-downloads). */
export function s3ClientFor(config: Pick<Config, `S3_${string}` & keyof Config>): S3Client {
  return new S3Client({
    region: config.S3_REGION,
    ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    ...(config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY } }
      : {}),
    // Plain SigV4 requests every S3-compatible service understands: no CRC trailers (docs/decisions/028).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Whether a failed S3 call means that nothing is stored under the key. */
const isMissing = (err: unknown) =>
  err instanceof S3ServiceException &&
  (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);

/** Presigned URLs live at least this long, so a link used in its last second still downloads. */
const MIN_PRESIGN_S = 30;

/**
 * Artifacts in an S3-compatible bucket under their keys. Uploads are spooled to a temporary file
 * first (the checksum and the length must be known before the PUT); downloads are presigned GETs
 * that expire when the portal's download link does and name the file for the browser.
 */
export class S3ArtifactStore implements ArtifactStore {
  readonly description: string;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly clock: Clock,
  ) {
    this.description = `s3://${bucket}`;
  }

  private checkKey(key: string): void {
    if (!isValidKey(key)) throw new Error(`invalid artifact key: ${key}`);
  }

  async put(key: string, data: Uint8Array | Readable): Promise<StoredArtifact> {
    this.checkKey(key);
    const spool = join(tmpdir(), `portal-artifact-${randomUUID()}`);
    const hash = createHash('sha256');
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(data instanceof Readable ? data : Readable.from([data]), counter, createWriteStream(spool));
      const sha256 = hash.digest('hex');
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: createReadStream(spool),
          ContentLength: size,
          ContentType: 'application/octet-stream',
          Metadata: { sha256 },
        }),
      );
      return { size, sha256 };
    } finally {
      await rm(spool, { force: true });
    }
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    if (!isValidKey(key)) return undefined;
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!(res.Body instanceof Readable)) throw new Error('the S3 answer has no body stream');
      return { stream: res.Body, size: res.ContentLength ?? 0 };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async deliver(key: string, opts: { fileName: string; expiresAt: Date }): Promise<Delivery | undefined> {
    if (!isValidKey(key)) return undefined;
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
    const now = this.clock.now();
    const expiresIn = Math.max(MIN_PRESIGN_S, Math.ceil((opts.expiresAt.getTime() - now.getTime()) / 1000));
    const url = await getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentDisposition: `attachment; filename="${safeFileName(opts.fileName)}"`,
        ResponseCacheControl: 'private, no-store',
      }),
      { expiresIn, signingDate: now },
    );
    return { kind: 'redirect', url };
  }
}

/** The store the configuration names: the bucket when S3_BUCKET is set, else DATA_DIR/artifacts. */
export function artifactStoreFor(config: Config, clock: Clock): ArtifactStore {
  if (config.S3_BUCKET) return new S3ArtifactStore(s3ClientFor(config), config.S3_BUCKET, clock);
  return new LocalArtifactStore(artifactsDir(config.dataDir));
}
