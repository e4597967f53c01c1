import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  type ArtifactStore,
  artifactsDir,
  type Delivery,
  isValidKey,
  LocalArtifactStore,
  type StorageReadiness,
  StorageUnavailable,
  type StoredArtifact,
  safeFileName,
} from './assets.store.ts';

type S3Settings = Pick<Config, `S3_${string}` & keyof Config>;

/**
 * The SDK client for the S3 variables of the configuration (docs/operations.md#artifacts-and-downloads),
 * addressing `endpoint` (S3_ENDPOINT unless told). Each attempt gives up after S3_TIMEOUT_MS without
 * a connection, or without a byte moving once connected (an idle timeout, so a large upload that
 * moves is never cut short); a call that could not connect, timed out or got a 5xx is tried
 * S3_MAX_RETRIES more times (docs/decisions/059).
 */
export function s3ClientFor(config: S3Settings, endpoint = config.S3_ENDPOINT): S3Client {
  return new S3Client({
    region: config.S3_REGION,
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    ...(config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY } }
      : {}),
    // Plain SigV4 requests every S3-compatible service understands: no CRC trailers (docs/decisions/028).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: config.S3_MAX_RETRIES + 1,
    requestHandler: { connectionTimeout: config.S3_TIMEOUT_MS, socketTimeout: config.S3_TIMEOUT_MS },
  });
}

/** Whether a failed S3 call means that nothing is stored under the key. */
const isMissing = (err: unknown) =>
  err instanceof S3ServiceException &&
  (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);

/** Errors of a connection that could not be made or was lost (the SDK retries them). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * How a failed SDK call failed storage, or undefined when the service answered about the object
 * itself (a missing key): no connection, no answer in time, a 5xx, or a refusal of the portal's
 * credentials (401/403: storage that refuses the portal is as unavailable as storage that is down).
 */
export function storageFailureOf(operation: string, err: unknown): StorageUnavailable | undefined {
  const e = err as { name?: string; code?: string; $metadata?: { httpStatusCode?: number; attempts?: number } };
  const attempts = e.$metadata?.attempts;
  if (err instanceof S3ServiceException) {
    const status = err.$metadata.httpStatusCode;
    if (status !== undefined && status < 500 && status !== 401 && status !== 403) return undefined;
    const detail = { code: err.name, status, attempts, requestId: err.$metadata.requestId };
    return new StorageUnavailable(operation, 'error', detail, { cause: err });
  }
  // The SDK renames a reset or refused connection TimeoutError; its code tells what happened.
  if (e.code && NETWORK_CODES.has(e.code))
    return new StorageUnavailable(operation, 'unreachable', { code: e.code, attempts }, { cause: err });
  if (e.name === 'TimeoutError' || e.code === 'ETIMEDOUT')
    return new StorageUnavailable(operation, 'timeout', { code: e.code ?? 'TimeoutError', attempts }, { cause: err });
  return new StorageUnavailable(operation, 'error', { code: e.code ?? e.name, attempts }, { cause: err });
}

/** Presigned URLs live at least this long, so a link used in its last second still downloads. */
const MIN_PRESIGN_S = 30;
/** How old the latest outcome may be before /readyz has storage checked again (in the background). */
export const READINESS_FRESH_MS = 10_000;

/**
 * Artifacts in an S3-compatible bucket under their keys. Uploads are spooled to a temporary file
 * first (the checksum, stored as metadata, must be known before the upload starts), then sent by
 * lib-storage (one PUT, or a multipart upload from 5 MiB, each part retried); downloads are
 * presigned GETs that expire when the portal's download link does and name the file for the
 * browser, signed by `signer`: a client of S3_PUBLIC_ENDPOINT, since SigV4 signs the host.
 */
export class S3ArtifactStore implements ArtifactStore {
  readonly description: string;
  /** the latest outcome of a call (clock ms): what /readyz reports */
  private latest: { readiness: 'ok' | 'unreachable'; at: number } | undefined;
  private probing = false;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly clock: Clock,
    private readonly signer: S3Client = client,
  ) {
    this.description = `s3://${bucket}`;
  }

  private checkKey(key: string): void {
    if (!isValidKey(key)) throw new Error(`invalid artifact key: ${key}`);
  }

  private note(readiness: 'ok' | 'unreachable'): void {
    this.latest = { readiness, at: this.clock.now().getTime() };
  }

  /** One call to storage: a failure to serve it becomes StorageUnavailable, and every outcome is noted. */
  private async call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      const result = await run();
      this.note('ok');
      return result;
    } catch (err) {
      const failure = storageFailureOf(operation, err);
      this.note(failure ? 'unreachable' : 'ok');
      throw failure ?? err;
    }
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
      const upload = new Upload({
        client: this.client,
        params: {
          Bucket: this.bucket,
          Key: key,
          Body: createReadStream(spool),
          ContentLength: size,
          ContentType: 'application/octet-stream',
          Metadata: { sha256 },
        },
      });
      await this.call('Upload', () => upload.done());
      return { size, sha256 };
    } finally {
      await rm(spool, { force: true });
    }
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    if (!isValidKey(key)) return undefined;
    try {
      const res = await this.call('GetObject', () =>
        this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key })),
      );
      if (!(res.Body instanceof Readable)) throw new Error('the S3 answer has no body stream');
      return { stream: res.Body, size: res.ContentLength ?? 0 };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async has(key: string): Promise<boolean> {
    if (!isValidKey(key)) return false;
    try {
      await this.call('HeadObject', () => this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    this.checkKey(key);
    await this.call('DeleteObject', () => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })));
  }

  async deliver(key: string, opts: { fileName: string; expiresAt: Date }): Promise<Delivery | undefined> {
    if (!(await this.has(key))) return undefined;
    const now = this.clock.now();
    const expiresIn = Math.max(MIN_PRESIGN_S, Math.ceil((opts.expiresAt.getTime() - now.getTime()) / 1000));
    const url = await getSignedUrl(
      this.signer,
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

  /**
   * The latest call's outcome, answered at once: a probe (HEAD of the bucket) refreshes it in the
   * background once it is READINESS_FRESH_MS old, so a load balancer's probe never waits on storage.
   */
  readiness(): StorageReadiness {
    const now = this.clock.now().getTime();
    if (!this.probing && (!this.latest || now - this.latest.at >= READINESS_FRESH_MS)) {
      this.probing = true;
      this.call('HeadBucket', () => this.client.send(new HeadBucketCommand({ Bucket: this.bucket })))
        // A bucket that is not there (or not the portal's to list) serves no download either.
        .catch((err: unknown) => {
          if (!(err instanceof StorageUnavailable)) this.note('unreachable');
        })
        .finally(() => {
          this.probing = false;
        });
    }
    return this.latest?.readiness ?? 'unknown';
  }
}

/** The store the configuration names: the bucket when S3_BUCKET is set, else DATA_DIR/artifacts. */
export function artifactStoreFor(config: Config, clock: Clock): ArtifactStore {
  if (!config.S3_BUCKET) return new LocalArtifactStore(artifactsDir(config.dataDir));
  const client = s3ClientFor(config);
  const signer = config.S3_PUBLIC_ENDPOINT ? s3ClientFor(config, config.S3_PUBLIC_ENDPOINT) : client;
  return new S3ArtifactStore(client, config.S3_BUCKET, clock, signer);
}
