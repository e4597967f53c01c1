import type { Permission, StaffRole, SupportStatus } from '@portal/contract';

/** How the console names each role, and what it says a role may do (docs/operations.md). */
export const ROLE_LABELS: Record<StaffRole, string> = { support: 'Support', finance: 'Finance', admin: 'Admin' };

export const ROLE_SUMMARIES: Record<StaffRole, string> = {
  support:
    'Read customers, answer support requests, revoke sessions, resend verification mails and grant goodwill dial time.',
  finance: 'Everything support can, plus refunds, subscription grants and payments.',
  admin: 'Everything, plus staff, API keys, the audit trail, slot counts, releases and the catalogue.',
};

/** The warning the frame shows while the server's OPERATOR_TOKEN is set (the key "legacy"). */
export const LEGACY_KEY_WARNING =
  'OPERATOR_TOKEN is set: every holder of that one shared token acts as an admin (the API key "legacy"). Create a named API key for each script, then remove OPERATOR_TOKEN from the server\'s configuration.';

/** What an unknown, used or expired enrolment link says. */
export const ENROLMENT_LINK_UNUSABLE =
  'This enrolment link is unknown, already used or expired. Ask an admin for a new link: it is valid for 24 hours and can be used once.';

/** An instant as the console shows it, or the word for "never" when 0. */
export function formatInstant(ms: number, never = 'Never'): string {
  if (!ms) return never;
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A value of an audit entry's before/after, short enough for a table cell. */
export function formatChangeValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** What each permission lets a staff member do, as the overview lists them. */
export const PERMISSION_LABELS: Record<Permission, string> = {
  'customers.read': 'Read customer accounts',
  'support.answer': 'Answer support requests',
  'sessions.revoke': "Revoke a customer's sessions",
  'verification.resend': 'Resend verification mails',
  'dial_time.goodwill': 'Grant goodwill dial time',
  'robots.unpair': "Unpair a customer's robot",
  'payments.read': 'Read payments',
  'payments.refund': 'Refund payments',
  'subscriptions.grant': 'Grant subscriptions',
  'staff.manage': 'Manage staff and their roles',
  'api_keys.manage': 'Manage API keys',
  'slots.set': 'Set slot counts',
  'releases.manage': 'Manage releases',
  'catalogue.manage': 'Manage the catalogue',
  'audit.read': 'Read and export the audit trail',
  'accounts.disable': 'Disable accounts',
  'licenses.grant': 'Grant licenses',
  'jobs.run': 'Run maintenance jobs',
};

/** The inbox's words for a request's status (docs/decisions/074). */
export const SUPPORT_STATUS_NAMES: Record<SupportStatus, string> = {
  new: 'New',
  open: 'Open',
  waiting: 'Waiting on customer',
  closed: 'Closed',
};

/** An amount in minor units with its currency, as a receipt would show it. */
export function formatMoney(minor: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).format(minor / 100);
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}
