import { STAFF_ROLES } from '@portal/contract';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A single-use link where a new staff member registers the passkey they will sign in with (issue
 * 34, decision 070): only its SHA-256 is kept; valid 24 hours.
 */
export const staffEnrolments = pgTable(
  'staff_enrolments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: STAFF_ROLES }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** who invited: a staff member's user id, an API key's id, or 'cli' */
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('staff_enrolments_user_idx').on(t.userId)],
);

/**
 * Named API keys with a role, instead of one shared operator token (issue 34): shown once, kept as
 * a SHA-256, revocable, their last use recorded.
 */
export const apiKeys = pgTable('api_keys', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  role: text('role', { enum: STAFF_ROLES }).notNull(),
  /** the first characters of the key, shown in lists to tell keys apart */
  prefix: text('prefix').notNull(),
  secretHash: text('secret_hash').notNull().unique(),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull(),
  lastUsedAt: ts('last_used_at'),
  revokedAt: ts('revoked_at'),
});
