import type { ResellerInfo } from '@portal/contract';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { assets } from './assets.ts';
import { robots } from './robots.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Robot licenses: the right to drive one robot of a model for a period. An unpaired license holds a
 * pairing code (docs/decisions/007): its keyed hash for lookup and the code sealed for its owner.
 * Pairing binds `robot_id` and clears both.
 */
export const robotLicenses = pgTable(
  'robot_licenses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** the robot-driver asset licensed; '' when granted without one */
    assetId: text('asset_id').notNull().default(''),
    robotMake: text('robot_make').notNull().default(''),
    robotModel: text('robot_model').notNull(),
    /** one license per robot */
    robotId: uuid('robot_id')
      .unique()
      .references(() => robots.id, { onDelete: 'set null' }),
    isFlexible: boolean('is_flexible').notNull().default(false),
    startsAt: ts('starts_at').notNull(),
    durationS: integer('duration_s').notNull(),
    endsAt: ts('ends_at').notNull(),
    resellerInfo: jsonb('reseller_info').$type<ResellerInfo>(),
    /** HMAC-SHA256 of the pairing code (hex); null once paired */
    pairCodeHash: text('pair_code_hash').unique(),
    /** the pairing code, AES-256-GCM sealed, so its owner can see it; null once paired */
    pairCodeSealed: text('pair_code_sealed'),
    pairCodeIssuedAt: ts('pair_code_issued_at'),
    pairedAt: ts('paired_at'),
    /** when it was last unpaired (UNPAIR, UNREGISTER); null if never paired: created_at says since when */
    unpairedAt: ts('unpaired_at'),
    source: text('source', { enum: ['purchase', 'operator', 'flexible', 'demo'] }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('robot_licenses_user_idx').on(t.userId)],
);

/**
 * A license shared with an email address for a while; stopped early by setting `stopped_at`.
 * `recipient_id` is the verified account of `recipient_email`: null while the share is a pending
 * invitation, set when that address is verified (docs/decisions/023).
 */
export const licenseShares = pgTable(
  'license_shares',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    licenseId: uuid('license_id')
      .notNull()
      .references(() => robotLicenses.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recipientId: uuid('recipient_id').references(() => users.id, { onDelete: 'cascade' }),
    /** the address the owner shared with, normalised; the account's email once bound */
    recipientEmail: text('recipient_email').notNull(),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    stoppedAt: ts('stopped_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('license_shares_recipient_idx').on(t.recipientId, t.endsAt),
    index('license_shares_license_idx').on(t.licenseId, t.recipientEmail),
    index('license_shares_email_idx').on(t.recipientEmail),
    // the owner's share list and the per-owner invitation caps look shares up by owner
    index('license_shares_owner_idx').on(t.ownerId),
  ],
);

/** Asset licenses granted by BUYASSET (fulfilment, operators). */
export const assetLicenses = pgTable(
  'asset_licenses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    assetId: text('asset_id')
      .notNull()
      .references(() => assets.id),
    startsAt: ts('starts_at').notNull(),
    durationS: integer('duration_s').notNull(),
    endsAt: ts('ends_at').notNull(),
    resellerInfo: jsonb('reseller_info').$type<ResellerInfo>(),
    /** the robot license a robot-driver asset granted with it */
    robotLicenseId: uuid('robot_license_id').references(() => robotLicenses.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('asset_licenses_user_idx').on(t.userId)],
);
