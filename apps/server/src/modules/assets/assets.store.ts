import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Where the local-disk store keeps artifacts. */
export const artifactsDir = (dataDir: string) => join(dataDir, 'artifacts');

export interface StoredArtifact {
  size: number;
  /** hex */
  sha256: string;
}

/** How a checked download link gets its file: the bytes from this server, or a presigned URL to go to. */
export type Delivery = { kind: 'stream'; stream: Readable; size: number } | { kind: 'redirect'; url: string };

/**
 * How storage failed a call (docs/decisions/059): no connection (`unreachable`), no answer within
 * S3_TIMEOUT_MS (`timeout`), or an error answer (`error`: a 5xx, or a refusal of the portal's own
 * credentials), each after its retries.
 */
export type StorageFailure = 'unreachable' | 'timeout' | 'error';

/**
 * Storage could not serve a call: a customer gets "Downloads are unavailable right now", the
 * operator's command line one line, and the log `storage` (what `logged` answers).
 */
export class StorageUnavailable extends Error {
  override readonly name = 'StorageUnavailable';
  constructor(
    /** the S3 operation, e.g. HeadObject */
    readonly operation: string,
    readonly failure: StorageFailure,
    readonly detail: {
      /** the network error's code (ECONNREFUSED) or the service's error code (InternalError) */
      code?: string | undefined;
      /** the service's HTTP status, when it answered */
      status?: number | undefined;
      attempts?: number | undefined;
      /** the service's request id, when it answered, for its operator */
      requestId?: string | undefined;
    },
    options?: { cause?: unknown },
  ) {
    const what = { unreachable: 'unreachable', timeout: 'did not answer in time', error: 'answered with an error' };
    const facts = [
      detail.code,
      detail.status && `HTTP ${detail.status}`,
      detail.attempts && `${detail.attempts} attempts`,
    ];
    super(`storage ${what[failure]} (${operation}: ${facts.filter(Boolean).join(', ')})`, options);
  }

  /** What a log line says of it: no key, no URL, nothing of the customer. */
  logged(): Record<string, string | number> {
    return Object.fromEntries(
      Object.entries({ operation: this.operation, failure: this.failure, ...this.detail }).filter(
        ([, v]) => v !== undefined,
      ),
    ) as Record<string, string | number>;
  }
}

/** What /readyz says of storage: the latest call's outcome, `unknown` until there is one. */
export type StorageReadiness = 'ok' | 'unreachable' | 'unknown';

/**
 * Where artifact bytes live. Keys are relative names like `robot-hub/1.4.2.0/robot-hub-windows.zip`.
 * The local-disk store serves development and single-host installs; the S3 store (assets.s3.ts,
 * docs/decisions/028) keeps them in a bucket and hands downloads presigned URLs. A call that
 * storage could not serve rejects with StorageUnavailable.
 */
export interface ArtifactStore {
  /** for logs and the command line: `DATA_DIR/artifacts` or `s3://bucket` */
  readonly description: string;
  put(key: string, data: Uint8Array | Readable): Promise<StoredArtifact>;
  /** The bytes and their size, or undefined when nothing is stored under the key. */
  open(key: string): Promise<{ stream: Readable; size: number } | undefined>;
  /** Whether something is stored under the key. */
  has(key: string): Promise<boolean>;
  /** What a download link that works until `expiresAt` gets; undefined when nothing is stored under the key. */
  deliver(key: string, opts: { fileName: string; expiresAt: Date }): Promise<Delivery | undefined>;
  /** Answered at once, never waiting on storage (docs/operations.md#endpoints). */
  readiness(): StorageReadiness;
  /**
   * Deletes what is stored under the key, if anything: an upload whose row could not be recorded
   * leaves no orphan (best effort, docs/decisions/076).
   */
  remove?(key: string): Promise<void>;
}

/** A file name safe inside a Content-Disposition header. */
export const safeFileName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_') || 'download';

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export function isValidKey(key: string): boolean {
  return KEY.test(key) && !key.split('/').some((part) => part === '..' || part === '.');
}

/** Artifacts under a folder on local disk (DATA_DIR/artifacts). */
export class LocalArtifactStore implements ArtifactStore {
  private readonly root: string;
  readonly description: string;
  constructor(root: string) {
    this.root = resolve(root);
    this.description = this.root;
  }

  private pathOf(key: string): string {
    const path = resolve(join(this.root, key));
    if (!isValidKey(key) || !path.startsWith(this.root + sep)) throw new Error(`invalid artifact key: ${key}`);
    return path;
  }

  async put(key: string, data: Uint8Array | Readable): Promise<StoredArtifact> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.partial-${process.pid}-${Date.now()}`;
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
      await pipeline(data instanceof Readable ? data : Readable.from([data]), counter, createWriteStream(partial));
      // Written whole, then moved into place: a reader never sees half a file.
      await rename(partial, path);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
    return { size, sha256: hash.digest('hex') };
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    if (!isValidKey(key)) return undefined;
    const path = this.pathOf(key);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    return { stream: createReadStream(path), size: info.size };
  }

  async has(key: string): Promise<boolean> {
    if (!isValidKey(key)) return false;
    const info = await stat(this.pathOf(key)).catch(() => undefined);
    return info?.isFile() ?? false;
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deliver(key: string): Promise<Delivery | undefined> {
    const file = await this.open(key);
    return file && { kind: 'stream', ...file };
  }

  readiness(): StorageReadiness {
    return 'ok';
  }
}
