import type { Readable } from 'node:stream';
import {
  ApiError,
  type Artifact,
  type ArtifactArch,
  type ArtifactOS,
  type Asset,
  AssetType,
  compareVersions,
  isReleasePlatform,
  LICENSE_AGREEMENT_VERSION,
  RELEASE_PLATFORMS,
  type VersionInfo,
} from '@portal/contract';
import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUuid } from '../../lib/keys.ts';
import type { AuditInput, AuditService } from '../audit/audit.service.ts';
import type { DownloadLinks } from './assets.links.ts';
import { type ArtifactRow, assetRepository as repo } from './assets.repository.ts';
import type { ArtifactStore, Delivery } from './assets.store.ts';

/** The hub application's asset: where builds go unless told otherwise. */
export const HUB_ASSET_ID = 'robot-hub';

/** Who adds, withdraws or restores a release, and from where (the audit entry's actor and address). */
export interface ReleaseActor {
  by: AuditInput['actor'];
  ip?: string | undefined;
}

/** A release to add: the bytes (a stream is never held whole in memory) and what they are. */
export interface NewRelease {
  assetId?: string | undefined;
  fileName: string;
  data: Uint8Array | Readable;
  os: ArtifactOS;
  arch: ArtifactArch;
  version: VersionInfo['sdk'];
}

/** Every build of one platform, newest first, and the one Downloads offers (undefined: none). */
export interface PlatformReleases {
  os: ArtifactOS;
  arch: ArtifactArch;
  offered: ArtifactRow | undefined;
  builds: ArtifactRow[];
}

export const versionText = (v: VersionInfo['sdk']) => `${v.major}.${v.minor}.${v.patch}.${v.revision}`;

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
    private readonly audit?: AuditService,
  ) {}

  /** Store keys being uploaded by this instance: a second upload of the same build waits for none, it is refused. */
  private readonly uploading = new Set<string>();

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
    // A withdrawn build's links stop working (docs/decisions/076): it answers "no longer available".
    const artifact = isUuid(id) ? await repo.offeredArtifact(this.db, id) : undefined;
    if (!artifact) return undefined;
    const delivery = await this.store.deliver(artifact.storeKey, { fileName: artifact.fileName, expiresAt });
    return delivery && { artifact, delivery };
  }

  /**
   * Adds a release of the hub (docs/decisions/076): the command line's artifacts:add and the upload
   * route both call it. Refuses a platform Downloads does not offer (unless `anyPlatform`) and a version the platform has
   * already (409); streams the bytes to the store outside any transaction (a failed store records
   * nothing), then records the row and its one audit entry `release.add` in one transaction; if
   * that fails, the stored object is removed (best effort).
   */
  async addRelease(
    input: NewRelease,
    actor: ReleaseActor,
    /**
     * The command line may store a build for a platform Downloads does not offer (Windows on ARM:
     * a build made ahead, and the state spec/001 names "No compatible downloads available"); the
     * console's upload may not, since nobody would ever be offered it.
     */
    options: { anyPlatform?: boolean } = {},
  ): Promise<ArtifactRow> {
    if (!options.anyPlatform && !isReleasePlatform(input.os, input.arch))
      throw new ApiError(
        'VALIDATION',
        `arch: ${input.os}/${input.arch} is not a platform Downloads offers (${RELEASE_PLATFORMS.map((p) => `${p.os}/${p.arch}`).join(', ')})`,
      );
    const assetId = input.assetId ?? HUB_ASSET_ID;
    const asset = await repo.asset(this.db, assetId);
    if (!asset) {
      if (assetId !== HUB_ASSET_ID) throw new ApiError('NOT_FOUND', `asset: no asset ${assetId}`);
      await repo.upsertAsset(this.db, { id: HUB_ASSET_ID, type: AssetType.Application, name: 'Robot Hub' });
    }
    const version = versionText(input.version);
    const taken = (await repo.releases(this.db)).find(
      (r) =>
        r.assetId === assetId &&
        r.os === input.os &&
        r.arch === input.arch &&
        versionText(r.versionInfo.sdk) === version,
    );
    if (taken)
      throw new ApiError(
        'CONFLICT',
        `version: ${version} of ${input.os}/${input.arch} is uploaded already (${taken.fileName}); a new build takes a new version`,
      );
    const key = this.keyOf(assetId, input);
    if (this.uploading.has(key))
      throw new ApiError('CONFLICT', `version: ${version} of ${input.os}/${input.arch} is being uploaded now`);
    this.uploading.add(key);
    try {
      const stored = await this.store.put(key, input.data);
      const audit = this.audit;
      try {
        return await this.db.transaction(async (tx) => {
          const row = await this.insertArtifact(tx, assetId, key, input, stored);
          await audit?.record(tx, {
            actor: actor.by,
            kind: 'change',
            action: 'release.add',
            target: row.id,
            changes: {
              version: { before: null, after: version },
              platform: { before: null, after: `${input.os}/${input.arch}` },
              file_name: { before: null, after: input.fileName },
              checksum: { before: null, after: stored.sha256 },
            },
            ...(actor.ip ? { personal: { ip: actor.ip } } : {}),
          });
          return row;
        });
      } catch (err) {
        // No row holds the object: it goes (another instance's row of the same key keeps it).
        if (!(await repo.artifactByKey(this.db, key).catch(() => undefined)))
          await this.store.remove?.(key).catch(() => undefined);
        throw err;
      }
    } finally {
      this.uploading.delete(key);
    }
  }

  private keyOf(assetId: string, input: Pick<NewRelease, 'os' | 'arch' | 'version' | 'fileName'>): string {
    return `${assetId}/${versionText(input.version)}/${input.os}-${input.arch}/${input.fileName}`;
  }

  private insertArtifact(
    ex: Executor,
    assetId: string,
    key: string,
    input: Pick<NewRelease, 'os' | 'arch' | 'version' | 'fileName'> & { language?: string; createdAt?: Date },
    stored: { size: number; sha256: string },
  ): Promise<ArtifactRow> {
    const v = input.version;
    return repo.insertArtifact(ex, {
      assetId,
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

  /** Every release per platform Downloads offers: builds newest first, and the one offered now. */
  async releases(): Promise<PlatformReleases[]> {
    const rows = await repo.releases(this.db);
    return RELEASE_PLATFORMS.map(({ os, arch }) => {
      const builds = rows.filter((r) => r.os === os && r.arch === arch).sort(newestFirst);
      return { os, arch, builds, offered: builds.find((b) => b.withdrawnAt === null) };
    });
  }

  /** The platform of a release, as `releases` answers it. */
  private async platformOf(row: ArtifactRow): Promise<PlatformReleases> {
    const all = await this.releases();
    const found = all.find((p) => p.os === row.os && p.arch === row.arch);
    return found ?? { os: row.os, arch: row.arch, offered: undefined, builds: [row] };
  }

  /**
   * Withdraws a release (`withdraw`) or restores it: one audit entry in the transaction of the change;
   * none when nothing changes (withdrawing a withdrawn build keeps its first reason).
   */
  async setWithdrawn(
    artifactId: string,
    withdraw: boolean,
    reason: string,
    actor: ReleaseActor,
  ): Promise<PlatformReleases> {
    const row = await this.db.transaction(async (tx) => {
      const before = await repo.lockArtifact(tx, artifactId);
      const asset = before && (await repo.asset(tx, before.assetId));
      if (!before || asset?.type !== AssetType.Application)
        throw new ApiError('NOT_FOUND', `artifact_id: no release ${artifactId}`);
      if ((before.withdrawnAt !== null) === withdraw) return before;
      const at = withdraw ? this.clock.now() : null;
      const after = await repo.setWithdrawn(tx, artifactId, at, withdraw ? reason : '');
      await this.audit?.record(tx, {
        actor: actor.by,
        kind: 'change',
        action: withdraw ? 'release.withdraw' : 'release.restore',
        target: artifactId,
        changes: {
          withdrawn_at: {
            before: before.withdrawnAt?.toISOString() ?? null,
            after: after.withdrawnAt?.toISOString() ?? null,
          },
        },
        personal: { reason, ...(actor.ip ? { ip: actor.ip } : {}) },
      });
      return after;
    });
    return this.platformOf(row);
  }

  /** Stores the bytes and records the artifact (the demo seed and tests; releases go through addRelease). */
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
    const key = this.keyOf(input.assetId, input);
    const stored = await this.store.put(key, input.data);
    return this.insertArtifact(ex, input.assetId, key, input, stored);
  }
}
