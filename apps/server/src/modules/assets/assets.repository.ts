import { and, eq, inArray } from 'drizzle-orm';
import { type Executor, preparedOn } from '../../db/client.ts';
import { artifacts, assets, licenseAcceptances } from '../../db/schema.ts';

export type AssetRow = typeof assets.$inferSelect;
export type ArtifactRow = typeof artifacts.$inferSelect;

/** The catalogue (GetAll, on every Downloads visit): two statements, each built once (preparedOn). */
const artifactsQuery = preparedOn((db) => db.select().from(artifacts).prepare('all_artifacts'));
const downloadableQuery = preparedOn((db) =>
  db
    .select()
    .from(assets)
    .where(inArray(assets.id, db.selectDistinct({ id: artifacts.assetId }).from(artifacts)))
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

  async artifact(db: Executor, id: string): Promise<ArtifactRow | undefined> {
    const [row] = await db.select().from(artifacts).where(eq(artifacts.id, id));
    return row;
  },

  async artifactOf(db: Executor, assetId: string, storeKey: string): Promise<ArtifactRow | undefined> {
    const [row] = await db
      .select()
      .from(artifacts)
      .where(and(eq(artifacts.assetId, assetId), eq(artifacts.storeKey, storeKey)));
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
