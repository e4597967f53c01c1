import * as z from 'zod/mini';
import { epochMs, jwt } from './common.ts';
import { action, response, service } from './define.ts';
import { PERMISSIONS, type Permission, STAFF_ROLES } from './domain/staff-roles.ts';

/**
 * The back office's own service (issue 34, docs/decisions/070 and 071): who the staff are, the API
 * keys, and the audit trail. Every action is `staff`: a passkey session of an account with a role
 * (Authorization: Bearer), or an API key (x-operator-token), whose role has the action's
 * permission, re-read on every call. Anything else (no credential, a customer, a staff account in a
 * password session, a wrong or revoked key) gets the answer of a route that does not exist (404), so
 * /api/admin tells a customer nothing; a staff member short of the role gets 403 naming the role it
 * needs, and the refusal is a security entry of the audit trail.
 */

const permissionName = z.enum(Object.keys(PERMISSIONS) as [Permission, ...Permission[]]);
export const staffRole = z.enum(STAFF_ROLES, { error: `Role must be one of ${STAFF_ROLES.join(', ')}` });
const uuid = (field: string) => z.uuid({ error: `${field} must be a UUID` });
/** The bearer header carries the staff session; the web client also puts the access token here. */
const token = z.optional(jwt);
const emailText = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.minLength(3, { error: 'Email must be an email address' }),
    z.maxLength(254, { error: 'Email must be at most 254 characters' }),
    z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: 'Email must be an email address' }),
  );

/** A staff member as the console lists them. Instants are epoch ms. */
export const staffMember = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  role: staffRole,
  /** how many passkeys the account has: 0 until the enrolment link is used */
  passkeys: z.int().check(z.minimum(0)),
  /** the open invitation's expiry (epoch ms), 0 when none is open */
  invitation_expires_at: z._default(epochMs, 0),
  /** the account's last sign-in (epoch ms), 0 for never */
  last_sign_in_at: z._default(epochMs, 0),
});
export type StaffMember = z.infer<typeof staffMember>;

/** An API key as listed: never its secret. */
export const apiKeyView = z.object({
  key_id: z.string(),
  name: z.string(),
  role: staffRole,
  /** what the key starts with (`rpk_…`), to recognise it */
  prefix: z.string(),
  created_at: epochMs,
  /** epoch ms, 0 for never (written at most once a minute) */
  last_used_at: z._default(epochMs, 0),
  /** epoch ms, 0 while the key works */
  revoked_at: z._default(epochMs, 0),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;

export const auditActorKind = z.enum(['staff', 'key', 'customer', 'stripe', 'system']);
export const auditKind = z.enum(['change', 'read', 'security']);

/** One entry of the audit trail with its personal side row (or `anonymised`). */
export const auditEntryView = z.object({
  seq: z.int(),
  /** epoch ms */
  at: epochMs,
  actor_kind: auditActorKind,
  actor_id: z.string(),
  /** the actor as a person reads it: a staff member's email, a key's name, "stripe", "system" */
  actor_label: z.string(),
  /** the customer it concerns, '' when none */
  subject_user_id: z.string(),
  /** that customer's email now, '' when none or the account is gone */
  subject_email: z.string(),
  kind: auditKind,
  /** e.g. staff.add, api_key.create, auth.sign_in, payment.refund */
  action: z.string(),
  target: z.string(),
  /** the names of the changed fields */
  fields: z.array(z.string()),
  /** before and after of each changed field; {} when anonymised */
  changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })),
  ip: z.string(),
  user_agent: z.string(),
  reason: z.string(),
  /** the rest of the personal side row (e.g. the email a staff invitation named) */
  details: z.record(z.string(), z.unknown()),
  /** the personal side row was replaced by the marker (retention or account deletion) */
  anonymised: z.boolean(),
});
export type AuditEntryView = z.infer<typeof auditEntryView>;

/** The filters of the audit trail, shared by the list and the CSV export. */
const auditFilter = {
  /** a staff member's email, an API key's name or id, a customer's email, "stripe" or "system" */
  actor: z.optional(z.string().check(z.trim(), z.maxLength(254, { error: 'Actor must be at most 254 characters' }))),
  /** the customer's email or user id */
  customer: z.optional(
    z.string().check(z.trim(), z.maxLength(254, { error: 'Customer must be at most 254 characters' })),
  ),
  /** an action name, or its prefix ending in "." (e.g. "staff.") */
  audit_action: z.optional(
    z.string().check(z.trim(), z.maxLength(80, { error: 'Audit action must be at most 80 characters' })),
  ),
  /** epoch ms, inclusive */
  from: z.optional(epochMs.check(z.minimum(0, { error: 'From must be a time (epoch ms)' }))),
  /** epoch ms, exclusive */
  to: z.optional(epochMs.check(z.minimum(0, { error: 'To must be a time (epoch ms)' }))),
};

/** Most entries one page lists. */
export const AUDIT_PAGE_MAX = 200;
/** Most entries one CSV export holds (a narrower filter for more). */
export const AUDIT_EXPORT_MAX = 50_000;

export const admin = service('admin', '/api/admin', {
  Me: action({
    summary:
      "The staff member (or API key) calling: the role, what it may do, and what the console's frame shows (the OPERATOR_TOKEN warning). The console's first call; for anyone without a role the route does not exist (404).",
    auth: 'staff',
    permission: 'customers.read',
    request: z.object({ token }),
    response: response({
      /** '' for an API key */
      user_id: z.string(),
      /** the staff member's email, or the key's name */
      name: z.string(),
      email: z.string(),
      role: staffRole,
      permissions: z.array(permissionName),
      /** OPERATOR_TOKEN is set (the key "legacy"): the console warns until it is removed */
      legacy_key_set: z.boolean(),
      /** what support may grant as goodwill dial time at once (minutes) */
      goodwill_max_minutes: z.int(),
      /** the staff session's absolute end (epoch ms), 0 for an API key */
      session_expires_at: z._default(epochMs, 0),
    }),
  }),
  ListStaff: action({
    summary: 'Every staff member with their role, passkeys and open invitation. Admins only.',
    auth: 'staff',
    permission: 'staff.manage',
    request: z.object({ token }),
    response: response({ staff: z.array(staffMember) }),
  }),
  InviteStaff: action({
    summary:
      "Give the account of `email` a role, making the account when there is none, and answer a single-use enrolment link (24 hours, on PUBLIC_URL) where they register the passkey they will sign in with; it replaces an unused link. Also mailed to them. The command line's staff:add does the same. Admins only.",
    auth: 'staff',
    permission: 'staff.manage',
    request: z.object({ token, email: emailText, role: staffRole }),
    response: response({
      user_id: z.string(),
      /** the account was made now */
      created: z.boolean(),
      role: staffRole,
      link: z.string(),
      /** epoch ms */
      expires_at: epochMs,
    }),
  }),
  SetStaffRole: action({
    summary:
      "Change a staff member's role, or take it away (`role` null): their next call already has the new one. The last admin cannot lose the role. Admins only.",
    auth: 'staff',
    permission: 'staff.manage',
    request: z.object({ token, user_id: uuid('User id'), role: z.nullable(staffRole) }),
    response: response({ staff: z.array(staffMember) }),
  }),
  ListApiKeys: action({
    summary: 'Every API key, live and revoked, newest first, with its last use; never a secret. Admins only.',
    auth: 'staff',
    permission: 'api_keys.manage',
    request: z.object({ token }),
    response: response({ keys: z.array(apiKeyView), legacy_key_set: z.boolean() }),
  }),
  CreateApiKey: action({
    summary:
      'A new API key with a name and a role. The answer holds the secret, the only time it is shown: it is stored as a hash. Admins only.',
    auth: 'staff',
    permission: 'api_keys.manage',
    request: z.object({
      token,
      name: z
        .string()
        .check(
          z.trim(),
          z.minLength(1, { error: 'Name is required' }),
          z.maxLength(80, { error: 'Name must be at most 80 characters' }),
        ),
      role: staffRole,
    }),
    response: response({ key: apiKeyView, secret: z.string() }),
  }),
  RevokeApiKey: action({
    summary: 'Revoke an API key: its next call is refused. Admins only.',
    auth: 'staff',
    permission: 'api_keys.manage',
    request: z.object({ token, key_id: uuid('Key id') }),
    response: response({ key: apiKeyView }),
  }),
  ListAudit: action({
    summary: `The audit trail, newest first, filtered by actor, customer, action and time; at most ${AUDIT_PAGE_MAX} entries a page, the next page from \`before_seq\`. Admins only.`,
    auth: 'staff',
    permission: 'audit.read',
    request: z.object({
      token,
      ...auditFilter,
      /** entries older than this seq (the last one of the previous page) */
      before_seq: z.optional(z.int().check(z.minimum(1, { error: 'Before seq must be at least 1' }))),
      limit: z._default(
        z
          .int()
          .check(
            z.minimum(1, { error: 'Limit must be at least 1' }),
            z.maximum(AUDIT_PAGE_MAX, { error: `Limit must be at most ${AUDIT_PAGE_MAX}` }),
          ),
        50,
      ),
    }),
    response: response({
      entries: z.array(auditEntryView),
      /** the before_seq of the next page, 0 when this is the last */
      next_before_seq: z.int(),
    }),
  }),
  ExportAudit: action({
    summary: `The audit trail under the same filters as CSV (RFC 4180, a header row, times in ISO 8601 UTC), newest first, at most ${AUDIT_EXPORT_MAX} entries; \`truncated\` when the filter matched more. The export is itself a read entry. Admins only.`,
    auth: 'staff',
    permission: 'audit.read',
    request: z.object({ token, ...auditFilter }),
    response: response({ filename: z.string(), csv: z.string(), rows: z.int(), truncated: z.boolean() }),
  }),
});
