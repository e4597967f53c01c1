import { defined } from '@/lib/search-params';

/**
 * The audit trail's filters as the address keeps them (so a filtered view can be shared and
 * reloaded): actor, customer, action, and a day range (YYYY-MM-DD, from inclusive, to inclusive).
 * The route reads them from the address (routes/admin/-audit-search.ts).
 */
export interface AuditSearch {
  actor?: string | undefined;
  customer?: string | undefined;
  action?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
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
