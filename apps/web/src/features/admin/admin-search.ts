import { defined, text } from '@/lib/search-params';

/**
 * The audit trail's filters as the address keeps them (so a filtered view can be shared and
 * reloaded): actor, customer, action, and a day range (YYYY-MM-DD, from inclusive, to inclusive).
 * Read here, by the screen, rather than by the route's validateSearch: that runs in the entry of
 * every page, which holds no admin code (docs/decisions/073).
 */
export interface AuditSearch {
  actor?: string | undefined;
  customer?: string | undefined;
  action?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A day as YYYY-MM-DD that is a real date, else undefined. */
function day(value: unknown): string | undefined {
  if (typeof value !== 'string' || !DAY.test(value)) return undefined;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(value) ? value : undefined;
}

/** The filters in an address: anything unusable is dropped, so a bad link still opens the trail. */
export function readAuditSearch(raw: Record<string, unknown>): AuditSearch {
  return defined({
    actor: text(raw.actor, { min: 1, max: 254, trim: true }),
    customer: text(raw.customer, { min: 1, max: 254, trim: true }),
    action: text(raw.action, { min: 1, max: 80, trim: true }),
    from: day(raw.from),
    to: day(raw.to),
  });
}

/** Where the console's sign-in may send someone back to: a console address only, never elsewhere. */
export function consoleRedirect(value: unknown): string | undefined {
  const href = text(value, { min: 1, max: 2048 });
  return href && /^\/admin(?:[/?#]|$)/.test(href) && !href.startsWith('/admin/sign-in') ? href : undefined;
}

/** The enrolment link's token as the address carries it (the server checks it). */
export function enrolmentToken(value: unknown): string | undefined {
  return text(value, { min: 1, max: 128, trim: true });
}

const DAY_MS = 86_400_000;

/** The filters as ListAudit and ExportAudit take them: days in UTC, `to` exclusive (the next day's start). */
export function auditFilterOf(search: AuditSearch): {
  actor?: string;
  customer?: string;
  audit_action?: string;
  from?: number;
  to?: number;
} {
  return defined({
    actor: search.actor,
    customer: search.customer,
    audit_action: search.action,
    from: search.from ? Date.parse(`${search.from}T00:00:00Z`) : undefined,
    to: search.to ? Date.parse(`${search.to}T00:00:00Z`) + DAY_MS : undefined,
  });
}
