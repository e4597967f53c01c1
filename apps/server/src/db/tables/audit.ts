import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Who did something: a staff member, an API key, a customer, Stripe's webhooks, or the portal itself. */
export const AUDIT_ACTOR_KINDS = ['staff', 'key', 'customer', 'stripe', 'system'] as const;
/** A change (something was written), a read of a customer's record, or a security event. */
export const AUDIT_KINDS = ['change', 'read', 'security'] as const;

/**
 * The audit trail (issue 34, docs/decisions/069): append-only and hash-chained. Each entry's hash
 * covers the previous entry's hash and its own fields, among them the HMAC of its personal side row,
 * so editing any entry breaks the chain while the side row can be anonymised without breaking it.
 * No foreign key to users: deleting an account never deletes what was recorded about it. The
 * database refuses UPDATE and DELETE of entries (a trigger, migration 0014).
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    /** the chain's order: entries are appended under a lock, so seq order is chain order */
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull(),
    actorKind: text('actor_kind', { enum: AUDIT_ACTOR_KINDS }).notNull(),
    /** the staff member's or customer's user id, the API key's id, or '' (stripe, system) */
    actorId: text('actor_id').notNull(),
    /** the customer the action concerns, if any (no foreign key: it outlives the account) */
    subjectUserId: uuid('subject_user_id'),
    kind: text('kind', { enum: AUDIT_KINDS }).notNull(),
    /** what was done, e.g. `subscription.grant`, `auth.sign_in`, `payment.refund` */
    action: text('action').notNull(),
    /** what it was done to, e.g. a payment id or a robot id ('' when the subject says it all) */
    target: text('target').notNull(),
    /** the names of the fields it changed (their values are in the personal side row) */
    fields: jsonb('fields').$type<string[]>().notNull(),
    /** HMAC-SHA256 of the side row's data, base64url; what the chain covers of it */
    personalMac: text('personal_mac').notNull(),
    /** which key made personalMac (the first 8 hex digits of its SHA-256): rotations stay verifiable */
    macKeyId: text('mac_key_id').notNull(),
    /** SHA-256 of the previous entry's hash and this entry's fields, hex */
    hash: text('hash').notNull(),
  },
  (t) => [
    index('audit_entries_subject_idx').on(t.subjectUserId, t.seq),
    index('audit_entries_actor_idx').on(t.actorId, t.seq),
    index('audit_entries_action_idx').on(t.action, t.seq),
    index('audit_entries_at_idx').on(t.at),
  ],
);

/**
 * What an entry holds about people (email, name, address, client address, user agent, reason text,
 * the before and after of changed fields): apart, so that anonymising it (at the end of retention or
 * when the account is deleted) replaces `data` with a marker and leaves the chain whole.
 */
export const auditPersonal = pgTable('audit_personal', {
  seq: bigint('seq', { mode: 'number' }).primaryKey(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  anonymisedAt: ts('anonymised_at'),
});
