/**
 * Staff roles (issue 34, docs/decisions/070): what each role may do in the back office, decided on
 * the server for every call (the web only hides what the server would refuse anyway).
 */
export const STAFF_ROLES = ['support', 'finance', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Every permission an admin action or a console screen needs, by the least role that has it. */
export const PERMISSIONS = {
  // support: read customers, answer requests, the gentle fixes
  'customers.read': 'support',
  'support.answer': 'support',
  'sessions.revoke': 'support',
  'verification.resend': 'support',
  'dial_time.goodwill': 'support',
  // a stuck pairing is what support most often fixes for a customer (docs/decisions/075)
  'robots.unpair': 'support',
  // finance: everything support can, plus money
  'payments.read': 'finance',
  'payments.refund': 'finance',
  'subscriptions.grant': 'finance',
  // admin: everything, plus the company's own settings
  'staff.manage': 'admin',
  'api_keys.manage': 'admin',
  'slots.set': 'admin',
  'releases.manage': 'admin',
  'catalogue.manage': 'admin',
  'audit.read': 'admin',
  'accounts.disable': 'admin',
  'licenses.grant': 'admin',
  'jobs.run': 'admin',
} as const satisfies Record<string, StaffRole>;
export type Permission = keyof typeof PERMISSIONS;

const RANK: Record<StaffRole, number> = { support: 1, finance: 2, admin: 3 };

/** Whether a role may do this; no role (a customer, or a staff account in a password session) may not. */
export function roleCan(role: StaffRole | null | undefined, permission: Permission): boolean {
  if (!role) return false;
  return RANK[role] >= RANK[PERMISSIONS[permission]];
}

/** Whether `role` may give `granted` to someone: only an admin manages staff, and any role. */
export function roleCanGrant(role: StaffRole | null | undefined, _granted: StaffRole): boolean {
  return roleCan(role, 'staff.manage');
}

/** Goodwill dial time support may grant at once without finance (minutes; STAFF_GOODWILL_MAX_MINUTES). */
export const DEFAULT_GOODWILL_MAX_MINUTES = 120;
