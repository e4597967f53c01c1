import { ONE_DAY_MS, TIER_SHORT, TIERS, type TierName, type TierShort } from '../constants.ts';
import type { UserTime } from '../time.ts';
import { consumeMinutes, remainingDaysUntil, remainingMinutes } from './dial-time.ts';

/**
 * The dial-time ledger (docs/architecture.md#robots-licenses-and-dial-time, docs/decisions/008). Every change of a user's dial time is an
 * append-only entry; balances are sums of entries. Two pools:
 * - perishable: a yearly allocation by tier, one per period; what is left when a new period starts
 *   expires (an `expiry` entry closes the old period);
 * - durable: purchases and operator grants; never expires.
 * Use takes perishable time first, then durable, and never takes more than is left. Pro has
 * infinite time: its use is recorded but charges nothing. All amounts are whole minutes.
 */

/** Yearly perishable allocation by tier, in minutes; Pro has infinite time (null). */
export const YEARLY_ALLOCATION_MINUTES = { Lite: 600, Standard: 3_000, Pro: null } as const satisfies Record<
  TierShort,
  number | null
>;

/** At or below this many minutes left, the time status is `low` and a warning is answered. */
export const LOW_TIME_MINUTES = 60;

export const TimeStatus = { Infinite: 'infinite', Available: 'available', Low: 'low', Exhausted: 'exhausted' } as const;
export type TimeStatus = (typeof TimeStatus)[keyof typeof TimeStatus];

export const TIME_WARNINGS = {
  exhausted:
    'You have no dial time left. Buy more time or upgrade to Pro to keep dialling robots you hold no license for.',
  low: (minutes: number) => `Only ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} of dial time left.`,
} as const;

export const LEDGER_KINDS = ['allocation', 'expiry', 'purchase', 'grant', 'use'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
/** Entries that add durable minutes: a paid time package, or an operator's grant (ADD_TIME). */
export type CreditKind = Extract<LedgerKind, 'purchase' | 'grant'>;

export interface LedgerEntry {
  kind: LedgerKind;
  /** signed change of the perishable pool: + allocation, - use, - expiry */
  perishable: number;
  /** signed change of the durable pool: + purchase or grant, - use */
  durable: number;
  /** use: the minutes reported (charged or not); other kinds: the minutes the entry moves */
  minutes: number;
  /** start (epoch ms) of the perishable period the entry belongs to */
  periodStart: number;
}

export interface LedgerContext {
  tier: TierShort;
  /** where periods are counted from: the active subscription's start, or the join date for Lite */
  anchorMs: number;
  nowMs: number;
  /** the active subscription's end (epoch ms); 0 when there is none */
  subscriptionEndMs: number;
  /** when a renewal of the user's paid plan failed, the provider still retrying (epoch ms); 0 or absent: none */
  paymentFailedAtMs?: number;
}

export interface Period {
  start: number;
  end: number;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysInMonth = (year: number, month: number): number =>
  month === 1 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : (MONTH_DAYS[month] as number);

/** The same calendar date and time `years` later, in UTC; 29 February becomes 28 February when needed. */
export function addYearsUtc(ms: number, years: number): number {
  const d = new Date(ms);
  const year = d.getUTCFullYear() + years;
  const month = d.getUTCMonth();
  // The time of day is carried over as milliseconds since midnight: the same as re-adding the hours,
  // minutes, seconds and milliseconds, without reading them one by one.
  const dayMs = ms - Date.UTC(d.getUTCFullYear(), month, d.getUTCDate());
  return Date.UTC(year, month, Math.min(d.getUTCDate(), daysInMonth(year, month))) + dayMs;
}

/**
 * The yearly period holding `nowMs`, counted in calendar years from the anchor. Before the anchor
 * (a subscription that starts later) the first period is answered.
 */
export function periodAt(anchorMs: number, nowMs: number): Period {
  if (nowMs < anchorMs) return { start: anchorMs, end: addYearsUtc(anchorMs, 1) };
  // A guess from the mean year, then corrected: the period's two ends are all that is computed.
  let n = Math.floor((nowMs - anchorMs) / (365.2425 * ONE_DAY_MS));
  let start = addYearsUtc(anchorMs, n);
  while (n > 0 && start > nowMs) start = addYearsUtc(anchorMs, --n);
  let end = addYearsUtc(anchorMs, n + 1);
  while (end <= nowMs) {
    start = end;
    end = addYearsUtc(anchorMs, ++n + 1);
  }
  return { start, end };
}

export interface LedgerTotals {
  /** perishable minutes allocated to the period */
  perishableAllocated: number;
  /** perishable minutes charged for use in the period */
  perishableUsed: number;
  /** perishable minutes of the period that expired (only when a period is entered again) */
  perishableExpired: number;
  /** durable minutes ever credited */
  durableCredited: number;
  /** durable minutes ever charged for use */
  durableUsed: number;
  /** every minute reported in the period, charged or not (Pro, or beyond both pools) */
  minutesUsedInPeriod: number;
}

/** Sums of the entries for the period starting at `periodStart` (durable sums are for all time). */
export function ledgerTotals(entries: readonly LedgerEntry[], periodStart: number): LedgerTotals {
  const t: LedgerTotals = {
    perishableAllocated: 0,
    perishableUsed: 0,
    perishableExpired: 0,
    durableCredited: 0,
    durableUsed: 0,
    minutesUsedInPeriod: 0,
  };
  for (const e of entries) {
    const inPeriod = e.periodStart === periodStart;
    switch (e.kind) {
      case 'allocation':
        if (inPeriod) t.perishableAllocated += e.perishable;
        break;
      case 'expiry':
        if (inPeriod) t.perishableExpired -= e.perishable;
        break;
      case 'purchase':
      case 'grant':
        t.durableCredited += e.durable;
        break;
      case 'use':
        t.durableUsed -= e.durable;
        if (inPeriod) {
          t.perishableUsed -= e.perishable;
          t.minutesUsedInPeriod += e.minutes;
        }
        break;
    }
  }
  return t;
}

/**
 * The entries that bring the ledger into the current period: an `expiry` for what is left of every
 * other period, and the current period's allocation unless it has one (Pro gets none). Empty when
 * the ledger is up to date, so applying it twice changes nothing.
 */
export function openPeriod(
  entries: readonly LedgerEntry[],
  ctx: LedgerContext,
  period: Period = periodAt(ctx.anchorMs, ctx.nowMs),
): LedgerEntry[] {
  const left = new Map<number, number>();
  for (const e of entries)
    if (e.periodStart !== period.start) left.set(e.periodStart, (left.get(e.periodStart) ?? 0) + e.perishable);
  const out: LedgerEntry[] = [];
  for (const [periodStart, minutes] of [...left].sort((a, b) => a[0] - b[0]))
    if (minutes > 0) out.push({ kind: 'expiry', perishable: -minutes, durable: 0, minutes, periodStart });
  const allocation = YEARLY_ALLOCATION_MINUTES[ctx.tier];
  const allocated = entries.some((e) => e.kind === 'allocation' && e.periodStart === period.start);
  if (allocation !== null && allocation > 0 && !allocated)
    out.push({
      kind: 'allocation',
      perishable: allocation,
      durable: 0,
      minutes: allocation,
      periodStart: period.start,
    });
  return out;
}

interface Pools {
  total_perishable_time: number;
  used_perishable_time: number;
  total_durable_time: number;
  used_durable_time: number;
}

function pools(t: LedgerTotals): Pools {
  return {
    total_perishable_time: t.perishableAllocated,
    used_perishable_time: t.perishableUsed + t.perishableExpired,
    total_durable_time: t.durableCredited,
    used_durable_time: t.durableUsed,
  };
}

/**
 * The entry recording `minutes` of use: perishable first, then durable, never more than is left
 * (the rest is recorded in `minutes` but charged to no pool). Pro is charged nothing. `entries`
 * must already hold openPeriod's entries.
 */
export function useEntry(entries: readonly LedgerEntry[], ctx: LedgerContext, minutes: number): LedgerEntry {
  const { start } = periodAt(ctx.anchorMs, ctx.nowMs);
  if (ctx.tier === 'Pro') return { kind: 'use', perishable: 0, durable: 0, minutes, periodStart: start };
  const charge = consumeMinutes(pools(ledgerTotals(entries, start)), minutes);
  return { kind: 'use', perishable: -charge.perishable, durable: -charge.durable, minutes, periodStart: start };
}

/** The entry adding durable minutes (a purchase or an operator's grant). */
export function creditEntry(ctx: LedgerContext, kind: CreditKind, minutes: number): LedgerEntry {
  return { kind, perishable: 0, durable: minutes, minutes, periodStart: periodAt(ctx.anchorMs, ctx.nowMs).start };
}

export function tierName(tier: TierShort): TierName {
  return TIERS[TIER_SHORT.indexOf(tier)]!;
}

/**
 * The spec's user_time from the ledger. The current period's allocation counts even before it is
 * written (reading never writes); total_time is both pools' totals, total_yearly_used every minute
 * reported in the period.
 */
export function userTimeFromLedger(entries: readonly LedgerEntry[], ctx: LedgerContext): UserTime {
  const period = periodAt(ctx.anchorMs, ctx.nowMs);
  const totals = ledgerTotals([...entries, ...openPeriod(entries, ctx, period)], period.start);
  const p = pools(totals);
  const infinite = ctx.tier === 'Pro';
  const remainingPerishable = remainingMinutes(p.total_perishable_time, p.used_perishable_time);
  const remaining = remainingPerishable + remainingMinutes(p.total_durable_time, p.used_durable_time);
  const status: TimeStatus = infinite
    ? TimeStatus.Infinite
    : remaining === 0
      ? TimeStatus.Exhausted
      : remaining <= LOW_TIME_MINUTES
        ? TimeStatus.Low
        : TimeStatus.Available;
  // Each field named, not `...p`: on Node 20 a literal that spreads an object and then adds fields
  // costs ~0.7 µs a field (15 µs here, 5% of a CHECK_REMAINING_TIME; docs/performance.md).
  return {
    total_perishable_time: p.total_perishable_time,
    used_perishable_time: p.used_perishable_time,
    total_durable_time: p.total_durable_time,
    used_durable_time: p.used_durable_time,
    total_time: p.total_perishable_time + p.total_durable_time,
    remaining_yearly_time: remainingPerishable,
    has_infinite_time: infinite,
    time_status: status,
    warning_message:
      status === TimeStatus.Exhausted
        ? TIME_WARNINGS.exhausted
        : status === TimeStatus.Low
          ? TIME_WARNINGS.low(remaining)
          : '',
    current_period_start: period.start,
    current_period_end: period.end,
    days_until_next_allocation: remainingDaysUntil(period.end, ctx.nowMs),
    yearly_subscription_end: ctx.subscriptionEndMs,
    total_yearly_allocation: YEARLY_ALLOCATION_MINUTES[ctx.tier] ?? 0,
    total_yearly_used: totals.minutesUsedInPeriod,
    subscription_type: tierName(ctx.tier),
    payment_failed_at: ctx.paymentFailedAtMs ?? 0,
  };
}
