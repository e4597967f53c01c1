import { bigint, boolean, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A WebAuthn credential (passkey) of a user (docs/decisions/032). */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** the credential id, base64url, as the authenticator names it */
    credentialId: text('credential_id').notNull().unique(),
    /** the COSE public key, base64url */
    publicKey: text('public_key').notNull(),
    /** the authenticator's signature counter; a sign-in must raise it unless the authenticator keeps none (0) */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    /** how the browser can reach the authenticator (usb, internal, hybrid...), comma-separated */
    transports: text('transports').notNull().default(''),
    backedUp: boolean('backed_up').notNull().default(false),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [index('passkeys_user_idx').on(t.userId)],
);

/**
 * Outstanding WebAuthn challenges, in the database so any instance can finish a ceremony another
 * began. A challenge is deleted when it is used (single use) and refused once it expires.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    /** base64url of 32 random bytes */
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose', { enum: ['register', 'authenticate'] }).notNull(),
    /** who is adding a passkey; null for a sign-in (the passkey says whose it is) */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('webauthn_challenges_expires_idx').on(t.expiresAt)],
);

/**
 * The browsers (browser and system, as parsed from the user agent) an account has signed in from:
 * a sign-in from one not listed sends a security email (docs/decisions/033). The names come from a
 * fixed list, so an account has a few dozen rows at most.
 */
export const knownBrowsers = pgTable(
  'known_browsers',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** "Firefox on Windows" */
    browser: text('browser').notNull(),
    firstSeenAt: ts('first_seen_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.browser] })],
);
