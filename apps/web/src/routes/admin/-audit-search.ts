import type { AuditSearch } from '@/features/admin/admin-audit-search';
import { defined, searchParser, text } from '@/lib/search-params';

/*
 * The audit trail's address parameters. Here, beside the route, and plain readers rather than zod:
 * a route's validateSearch runs in the entry of every page, which must hold no admin code.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A day as YYYY-MM-DD that is a real date, else undefined. */
function day(value: unknown): string | undefined {
  if (typeof value !== 'string' || !DAY.test(value)) return undefined;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(value) ? value : undefined;
}

/** The audit route's validateSearch: anything unusable is dropped, so a bad link still opens the trail. */
export const auditSearch = searchParser(
  (raw): AuditSearch =>
    defined({
      actor: text(raw.actor, { min: 1, max: 254, trim: true }),
      customer: text(raw.customer, { min: 1, max: 254, trim: true }),
      action: text(raw.action, { min: 1, max: 80, trim: true }),
      from: day(raw.from),
      to: day(raw.to),
    }),
);
