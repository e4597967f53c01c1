import { STAFF_ROLES } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** stored lower-cased and trimmed */
    email: text('email').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    yearBorn: integer('year_born').notNull().default(-1),
    country: text('country').notNull().default(''),
    marketing: boolean('marketing').notNull().default(false),
    termsAgreed: boolean('terms_agreed').notNull().default(false),
    company: text('company').notNull().default(''),
    profession: text('profession').notNull().default(''),
    emailValidated: boolean('email_validated').notNull().default(false),
    /** set by an operator (portal-admin users:disable): no sign-in, no refresh, sessions revoked */
    disabledAt: ts('disabled_at'),
    joinedAt: ts('joined_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /**
     * The newest sign-in or refresh the retention job has seen before pruning the tokens that showed
     * it; with joined_at and updated_at it says when the account was last used (docs/decisions/027).
     */
    lastActiveAt: ts('last_active_at'),
    /**
     * A staff member's role (issue 34, decision 070): it applies only in a session started with a
     * passkey, and is read again on every call. Null: a customer.
     */
    staffRole: text('staff_role', { enum: STAFF_ROLES }),
  },
  // The console's customer lookup matches prefixes (issue 35, docs/decisions/075): byte-order
  // indexes that a range `~>=~ … ~<~` uses whatever the database's collation.
  (t) => [
    index('users_email_prefix_idx').on(t.email.op('text_pattern_ops')),
    index('users_name_prefix_idx').on(sql`lower(${t.name}) text_pattern_ops`),
    index('users_company_prefix_idx').on(sql`lower(${t.company}) text_pattern_ops`),
  ],
);

/** A signed-in session: one refresh-token family. Access tokens name it (`sid`). */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    target: text('target').notNull().default('portal'),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    revokedReason: text('revoked_reason'),
    /** the browser's User-Agent at sign-in, cut to 512 characters (docs/decisions/033) */
    userAgent: text('user_agent').notNull().default(''),
    /** the client address of the sign-in, then of each refresh */
    address: text('address').notNull().default(''),
    /** the sign-in, then each refresh: written with the rotation, never per request (docs/decisions/033) */
    lastUsedAt: ts('last_used_at'),
    /** how it was started: only a passkey session carries a staff role's rights (decision 070) */
    method: text('method', { enum: ['password', 'passkey'] })
      .notNull()
      .default('password'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    jti: uuid('jti').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    parentJti: uuid('parent_jti'),
    issuedAt: ts('issued_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    /** set when this token was traded for a newer one */
    rotatedAt: ts('rotated_at'),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

/** Single-use tokens sent by email; only their SHA-256 is kept. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['verify', 'reset'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('email_tokens_user_idx').on(t.userId, t.kind)],
);

/** Fixed-window counters shared by every server instance. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').notNull(),
    windowStart: ts('window_start').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_limits_window_idx').on(t.windowStart)],
);

/**
 * Failed password checks (sign-in, and the current password of change and delete), keyed by a hash
 * of the email address so an address without an account counts exactly like one with
 * (docs/decisions/026). `source` is the client address, or `*` for the account across every address.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    accountKey: text('account_key').notNull(),
    source: text('source').notNull(),
    failures: integer('failures').notNull().default(0),
    lockedUntil: ts('locked_until'),
    /** the last successful sign-in from this address (an address the owner uses is not held by the account-wide delay) */
    lastSuccessAt: ts('last_success_at'),
    updatedAt: ts('updated_at').notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.accountKey, t.source] }), index('login_failures_updated_idx').on(t.updatedAt)],
);
