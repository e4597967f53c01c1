import { AssetType } from '@portal/contract';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { type Executor, preparedOn } from '../../db/client.ts';
import { artifacts, assets, licenseAcceptances } from '../../db/schema.ts';

export type AssetRow = typeof assets.$inferSelect;
export type ArtifactRow = typeof artifacts.$inferSelect;

/**
 * The catalogue (GetAll, on every Downloads visit): two statements, each built once (preparedOn).
 * A withdrawn build is not in it (docs/decisions/076), so Downloads offers the next highest.
 */
const artifactsQuery = preparedOn((db) =>
  db.select().from(artifacts).where(isNull(artifacts.withdrawnAt)).prepare('offered_artifacts'),
);
const downloadableQuery = preparedOn((db) =>
  db
    .select()
    .from(assets)
    .where(
      inArray(
        assets.id,
        db.selectDistinct({ id: artifacts.assetId }).from(artifacts).where(isNull(artifacts.withdrawnAt)),
      ),
    )
    .orderBy(assets.createdAt, assets.id)
    .prepare('downloadable_assets'),
);

export const assetRepository = {
  /** Assets that have at least one artifact, with their artifacts. */
  async downloadable(db: Executor): Promise<{ asset: AssetRow; artifacts: ArtifactRow[] }[]> {
    const [files, rows] = await Promise.all([artifactsQuery(db).execute(), downloadableQuery(db).execute()]);
    return rows.map((asset) => ({ asset, artifacts: files.filter((f) => f.assetId === asset.id) }));
  },

  async asset(db: Executor, id: string): Promise<AssetRow | undefined> {
    const [row] = await db.select().from(assets).where(eq(assets.id, id));
    return row;
  },

  async upsertAsset(db: Executor, row: typeof assets.$inferInsert): Promise<void> {
    const { id, ...rest } = row;
    await db.insert(assets).values(row).onConflictDoUpdate({ target: assets.id, set: rest });
  },

  /** The artifact, withdrawn or not. */
  async artifact(db: Executor, id: string): Promise<ArtifactRow | undefined> {
    const [row] = await db.select().from(artifacts).where(eq(artifacts.id, id));
    return row;
  },

  /** The artifact of a download: one that is offered (not withdrawn). */
  async offeredArtifact(db: Executor, id: string): Promise<ArtifactRow | undefined> {
    const [row] = await db
      .select()
      .from(artifacts)
      .where(and(eq(artifacts.id, id), isNull(artifacts.withdrawnAt)));
    return row;
  },

  /** The offered artifact of an asset stored under the key (GetDownload's choice). */
  async artifactOf(db: Executor, assetId: string, storeKey: string): Promise<ArtifactRow | undefined> {
    const [row] = await db
      .select()
      .from(artifacts)
      .where(and(eq(artifacts.assetId, assetId), eq(artifacts.storeKey, storeKey), isNull(artifacts.withdrawnAt)));
    return row;
  },

  /** Any artifact stored under the key, withdrawn or not. */
  async artifactByKey(db: Executor, storeKey: string): Promise<ArtifactRow | undefined> {
    const [row] = await db.select().from(artifacts).where(eq(artifacts.storeKey, storeKey));
    return row;
  },

  /** Every artifact of the application assets (the hub), withdrawn ones too: the releases. */
  async releases(db: Executor): Promise<ArtifactRow[]> {
    return db
      .select({ artifact: artifacts })
      .from(artifacts)
      .innerJoin(assets, eq(assets.id, artifacts.assetId))
      .where(eq(assets.type, AssetType.Application))
      .then((rows) => rows.map((r) => r.artifact));
  },

  /** Withdraws (a time and a reason) or restores (null) an artifact, locked; answers the row before. */
  async lockArtifact(db: Executor, id: string): Promise<ArtifactRow | undefined> {
    const [row] = await db.select().from(artifacts).where(eq(artifacts.id, id)).for('update');
    return row;
  },

  async setWithdrawn(db: Executor, id: string, at: Date | null, reason: string): Promise<ArtifactRow> {
    const [row] = await db
      .update(artifacts)
      .set({ withdrawnAt: at, withdrawnReason: reason })
      .where(eq(artifacts.id, id))
      .returning();
    if (!row) throw new Error('artifact update returned no row');
    return row;
  },

  async insertArtifact(db: Executor, row: typeof artifacts.$inferInsert): Promise<ArtifactRow> {
    const [created] = await db.insert(artifacts).values(row).returning();
    if (!created) throw new Error('artifact insert returned no row');
    return created;
  },

  /** Records the first acceptance of a version; accepting it again (another download) adds nothing. */
  async recordAcceptance(db: Executor, row: typeof licenseAcceptances.$inferInsert): Promise<void> {
    await db
      .insert(licenseAcceptances)
      .values(row)
      .onConflictDoNothing({ target: [licenseAcceptances.userId, licenseAcceptances.agreementVersion] });
  },

  async acceptances(db: Executor, userId: string) {
    return db.select().from(licenseAcceptances).where(eq(licenseAcceptances.userId, userId));
  },
};
