/**
 * The date formats the spec gives the screens (spec/001 §2 and §9). They live together because
 * they share one way of reading a date's parts; the downloads, robots and subscription screens use them.
 */

const DATE_LOCALE = 'en-GB';

function parts(ms: number, locale: string, options: Intl.DateTimeFormatOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of new Intl.DateTimeFormat(locale, options).formatToParts(new Date(ms))) out[p.type] = p.value;
  return out;
}

/** "weekday hh:mm dd/mm/yyyy", e.g. "Sun 14:05 05/01/2025" (24-hour clock). */
export function formatDateTime(ms: number, timeZone?: string): string {
  const p = parts(ms, DATE_LOCALE, {
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone,
  });
  return `${p.weekday} ${p.hour}:${p.minute} ${p.day}/${p.month}/${p.year}`;
}

/** "Jan 05, 2025", as the Subscription Details duration shows dates. */
export function formatShortDate(ms: number, timeZone?: string): string {
  const p = parts(ms, 'en-US', { month: 'short', day: '2-digit', year: 'numeric', timeZone });
  return `${p.month} ${p.day}, ${p.year}`;
}

/** dd/mm/yyyy (en-GB). */
export function formatDateGB(ms: number, timeZone?: string): string {
  const p = parts(ms, DATE_LOCALE, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone });
  return `${p.day}/${p.month}/${p.year}`;
}

/** "1 March 2026" (en-GB, day without a leading zero), as the privacy policy states its effective date. */
export function formatLongDateGB(ms: number, timeZone?: string): string {
  const p = parts(ms, DATE_LOCALE, { day: 'numeric', month: 'long', year: 'numeric', timeZone });
  return `${p.day} ${p.month} ${p.year}`;
}
