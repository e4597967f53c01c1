import type { VersionInfo } from '@portal/contract';
import { ArtifactArch, ArtifactOS } from '@portal/contract';
import { bigint, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Downloadable assets (the hub application) and licensable ones (robot drivers). */
export const assets = pgTable('assets', {
  /** a readable id, e.g. `robot-hub` or `driver-pepper` */
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  author: text('author').notNull().default(''),
  license: text('license').notNull().default(''),
  make: text('make').notNull().default(''),
  model: text('model').notNull().default(''),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** Build artifacts of an asset; the bytes live in the ArtifactStore under `store_key`. */
export const artifacts = pgTable(
  'artifacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    assetId: text('asset_id')
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    os: text('os', { enum: ArtifactOS.options as [ArtifactOS, ...ArtifactOS[]] }).notNull(),
    arch: text('arch', { enum: ArtifactArch.options as [ArtifactArch, ...ArtifactArch[]] }).notNull(),
    versionInfo: jsonb('version_info').$type<VersionInfo>().notNull(),
    language: text('language').notNull().default(''),
    /** the artifact's `path`: its name in the store, relative */
    storeKey: text('store_key').notNull().unique(),
    /** the name the browser saves it as */
    fileName: text('file_name').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    /** sha256 of the bytes, hex */
    checksum: text('checksum').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    /**
     * A build withdrawn by staff (docs/decisions/076): Downloads no longer offers it, and its links
     * stop working; null while it is offered. Restoring it clears both.
     */
    withdrawnAt: ts('withdrawn_at'),
    withdrawnReason: text('withdrawn_reason').notNull().default(''),
  },
  (t) => [index('artifacts_asset_idx').on(t.assetId)],
);

/**
 * A user's acceptance of one version of the license agreement: when they first accepted it, and
 * for which download. One row per user and version, however often they download (docs/decisions/027).
 */
export const licenseAcceptances = pgTable(
  'license_acceptances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    agreementVersion: text('agreement_version').notNull(),
    assetId: text('asset_id').notNull(),
    artifactId: uuid('artifact_id').references(() => artifacts.id, { onDelete: 'set null' }),
    acceptedAt: ts('accepted_at').notNull(),
  },
  (t) => [uniqueIndex('license_acceptances_user_version_idx').on(t.userId, t.agreementVersion)],
);
