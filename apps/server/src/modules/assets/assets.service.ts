import type { Readable } from 'node:stream';
import {
  ApiError,
  type Artifact,
  type ArtifactArch,
  type ArtifactOS,
  type Asset,
  compareVersions,
  LICENSE_AGREEMENT_VERSION,
  type VersionInfo,
} from '@portal/contract';
import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUuid } from '../../lib/keys.ts';
import type { DownloadLinks } from './assets.links.ts';
import { type ArtifactRow, assetRepository as repo } from './assets.repository.ts';
import type { ArtifactStore, Delivery } from './assets.store.ts';

function artifactView(row: ArtifactRow): Artifact {
  return {
    path: row.storeKey,
    asset_id: row.assetId,
    OS: row.os,
    Arch: row.arch,
    version_info: row.versionInfo,
    language: row.language,
    timestamp: row.createdAt.getTime(),
    checksum: row.checksum,
  };
}

/** Newest first: highest sdk version, then the later upload. */
const newestFirst = (a: ArtifactRow, b: ArtifactRow) =>
  compareVersions(b.versionInfo.sdk, a.versionInfo.sdk) || b.createdAt.getTime() - a.createdAt.getTime();

/** Parses "1.4.2" or "1.4.2.0" into a version number. */
export function parseVersion(text: string): VersionInfo['sdk'] | undefined {
  const m = /^(\d{1,6})\.(\d{1,6})\.(\d{1,6})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), revision: Number(m[4] ?? 0) };
}

/** Downloads (spec/001 §2 Downloads; docs/architecture.md#data-model): the catalogue, signed links, and adding artifacts. */
export class AssetService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly store: ArtifactStore,
    private readonly links?: DownloadLinks,
  ) {}

  async all(): Promise<Asset[]> {
    const rows = await repo.downloadable(this.db);
    return rows.map(({ asset, artifacts }) => ({
      id: asset.id,
      type: asset.type,
      name: asset.name,
      description: asset.description,
      author: asset.author,
      license: asset.license,
      make: asset.make,
      model: asset.model,
      artifacts: [...artifacts].sort(newestFirst).map(artifactView),
    }));
  }

  /**
   * Records the acceptance of the license agreement and answers a signed link to the artifact, once
   * storage holds it; rejects with StorageUnavailable when storage cannot tell.
   */
  async download(
    userId: string,
    input: { assetId: string; requestedAssetId: string; path: string; agreementVersion: string },
  ): Promise<string> {
    if (!this.links) throw new Error('download links are not configured');
    if (input.agreementVersion !== LICENSE_AGREEMENT_VERSION)
      throw new ApiError(
        'VALIDATION',
        `agreement_version: must be the current license agreement (${LICENSE_AGREEMENT_VERSION})`,
      );
    if (input.requestedAssetId !== input.assetId)
      throw new ApiError('VALIDATION', 'assets.id: must be the asset named by asset_id');
    const artifact = await repo.artifactOf(this.db, input.assetId, input.path);
    // The bytes are checked before a link is handed out (a HEAD, with its timeout): with storage
    // down the caller hears it now (StorageUnavailable), not from a link that fails.
    if (!artifact || !(await this.store.has(artifact.storeKey)))
      throw new ApiError('NOT_FOUND', 'assets.artifacts.0.path: Invalid asset for download');
    await repo.recordAcceptance(this.db, {
      userId,
      agreementVersion: input.agreementVersion,
      assetId: artifact.assetId,
      artifactId: artifact.id,
      acceptedAt: this.clock.now(),
    });
    return this.links.create(artifact.id, userId).link;
  }

  /** The artifact a checked link names, with how to deliver it until the link expires (StorageUnavailable: storage is down). */
  async deliverArtifact(
    id: string,
    expiresAt: Date,
  ): Promise<{ artifact: ArtifactRow; delivery: Delivery } | undefined> {
    const artifact = isUuid(id) ? await repo.artifact(this.db, id) : undefined;
    if (!artifact) return undefined;
    const delivery = await this.store.deliver(artifact.storeKey, { fileName: artifact.fileName, expiresAt });
    return delivery && { artifact, delivery };
  }

  /** Stores the bytes and records the artifact (operator command line, demo seed). */
  async addArtifact(
    ex: Executor,
    input: {
      assetId: string;
      fileName: string;
      data: Uint8Array | Readable;
      os: ArtifactOS;
      arch: ArtifactArch;
      version: VersionInfo['sdk'];
      language?: string;
      createdAt?: Date;
    },
  ): Promise<ArtifactRow> {
    const v = input.version;
    const key = `${input.assetId}/${v.major}.${v.minor}.${v.patch}.${v.revision}/${input.os}-${input.arch}/${input.fileName}`;
    const stored = await this.store.put(key, input.data);
    return repo.insertArtifact(ex, {
      assetId: input.assetId,
      os: input.os,
      arch: input.arch,
      versionInfo: { sdk: v, client: v, core: v, messaging: v },
      language: input.language ?? '',
      storeKey: key,
      fileName: input.fileName,
      sizeBytes: stored.size,
      checksum: stored.sha256,
      createdAt: input.createdAt ?? this.clock.now(),
    });
  }
}
