import { describe, expect, it } from 'vitest';
import { ONE_DAY_MS, type TierShort } from '../constants.ts';
import {
  addYearsUtc,
  creditEntry,
  type LedgerContext,
  type LedgerEntry,
  openPeriod,
  periodAt,
  TIME_WARNINGS,
  useEntry,
  userTimeFromLedger,
} from './time-ledger.ts';

const JOINED = Date.UTC(2024, 2, 10, 9, 30);

type Step =
  | { at: number; tier?: TierShort; anchor?: number; use: number }
  | { at: number; tier?: TierShort; anchor?: number; buy: number };

/** Runs steps the way the server does (open the period, then append), and reads the balance at `readAt`. */
function simulate(steps: Step[], readAt: number) {
  const entries: LedgerEntry[] = [];
  let ctx: LedgerContext = { tier: 'Lite', anchorMs: JOINED, nowMs: JOINED, subscriptionEndMs: 0 };
  for (const step of steps) {
    ctx = { ...ctx, tier: step.tier ?? ctx.tier, anchorMs: step.anchor ?? ctx.anchorMs, nowMs: step.at };
    entries.push(...openPeriod(entries, ctx));
    entries.push('use' in step ? useEntry(entries, ctx, step.use) : creditEntry(ctx, 'purchase', step.buy));
  }
  return { entries, time: userTimeFromLedger(entries, { ...ctx, nowMs: readAt }) };
}

const day = (n: number) => JOINED + n * ONE_DAY_MS;

describe('dial-time ledger', () => {
  it.each<[string, Step[], number, Record<string, unknown>]>([
    [
      'a new Lite account has its yearly allocation',
      [],
      day(1),
      { total_perishable_time: 600, used_perishable_time: 0, total_durable_time: 0, remaining_yearly_time: 600 },
    ],
    [
      'perishable time is used first',
      [
        { at: day(1), buy: 100 },
        { at: day(2), use: 50 },
      ],
      day(3),
      { used_perishable_time: 50, used_durable_time: 0, total_durable_time: 100, total_time: 700 },
    ],
    [
      'use spills into durable time once perishable is gone',
      [
        { at: day(1), buy: 100 },
        { at: day(2), use: 650 },
      ],
      day(3),
      { used_perishable_time: 600, used_durable_time: 50, remaining_yearly_time: 0, time_status: 'low' },
    ],
    [
      'never below 0: use beyond both pools charges only what is left',
      [
        { at: day(1), buy: 100 },
        { at: day(2), use: 800 },
        { at: day(3), use: 5 },
      ],
      day(4),
      {
        used_perishable_time: 600,
        used_durable_time: 100,
        remaining_yearly_time: 0,
        total_yearly_used: 805,
        time_status: 'exhausted',
        warning_message: TIME_WARNINGS.exhausted,
      },
    ],
    [
      'allocation reset: a new period brings a fresh allocation, the rest expires, durable stays',
      [
        { at: day(1), buy: 100 },
        { at: day(10), use: 650 },
        { at: addYearsUtc(JOINED, 1) + ONE_DAY_MS, use: 20 },
      ],
      addYearsUtc(JOINED, 1) + 2 * ONE_DAY_MS,
      {
        total_perishable_time: 600,
        used_perishable_time: 20,
        total_durable_time: 100,
        used_durable_time: 50,
        total_yearly_used: 20,
        current_period_start: addYearsUtc(JOINED, 1),
        current_period_end: addYearsUtc(JOINED, 2),
      },
    ],
    [
      'unused perishable time does not carry over',
      [{ at: day(10), use: 100 }],
      addYearsUtc(JOINED, 1) + ONE_DAY_MS,
      { total_perishable_time: 600, used_perishable_time: 0, remaining_yearly_time: 600, total_time: 600 },
    ],
    [
      'Standard allocates 3000 minutes a year from the subscription start',
      [{ at: day(40), tier: 'Standard', anchor: day(30), use: 10 }],
      day(41),
      {
        total_perishable_time: 3000,
        used_perishable_time: 10,
        total_yearly_allocation: 3000,
        current_period_start: day(30),
        subscription_type: 'Standard Subscription',
      },
    ],
    [
      'an upgrade starts a new period: the Lite remainder expires, Standard allocates',
      [
        { at: day(5), use: 100 },
        { at: day(40), tier: 'Standard', anchor: day(30), use: 10 },
      ],
      day(41),
      { total_perishable_time: 3000, used_perishable_time: 10, total_yearly_used: 10 },
    ],
    [
      'Pro is infinite: use is recorded, nothing is charged',
      [
        { at: day(1), buy: 100 },
        { at: day(40), tier: 'Pro', anchor: day(30), use: 10_000 },
      ],
      day(41),
      {
        has_infinite_time: true,
        time_status: 'infinite',
        warning_message: '',
        total_perishable_time: 0,
        used_durable_time: 0,
        total_durable_time: 100,
        total_yearly_used: 10_000,
        total_yearly_allocation: 0,
        subscription_type: 'Pro Subscription',
      },
    ],
    [
      'at or below 60 minutes left the status is low, with a warning',
      [{ at: day(1), use: 545 }],
      day(2),
      { time_status: 'low', warning_message: TIME_WARNINGS.low(55) },
    ],
  ])('%s', (_name, steps, readAt, expected) => {
    expect(simulate(steps, readAt).time).toMatchObject(expected);
  });

  it('writes one expiry per closed period and one allocation per period, whatever is replayed', () => {
    const { entries } = simulate(
      [
        { at: day(10), use: 100 },
        { at: addYearsUtc(JOINED, 1) + ONE_DAY_MS, use: 1 },
        { at: addYearsUtc(JOINED, 1) + 2 * ONE_DAY_MS, use: 1 },
      ],
      addYearsUtc(JOINED, 1) + 3 * ONE_DAY_MS,
    );
    expect(entries.filter((e) => e.kind === 'allocation').map((e) => e.periodStart)).toEqual([
      JOINED,
      addYearsUtc(JOINED, 1),
    ]);
    expect(entries.filter((e) => e.kind === 'expiry')).toEqual([
      { kind: 'expiry', perishable: -500, durable: 0, minutes: 500, periodStart: JOINED },
    ]);
    const ctx = {
      tier: 'Lite' as const,
      anchorMs: JOINED,
      nowMs: addYearsUtc(JOINED, 1) + 4 * ONE_DAY_MS,
      subscriptionEndMs: 0,
    };
    expect(openPeriod(entries, ctx)).toEqual([]);
  });

  it('reports the days until the next allocation and the subscription end', () => {
    const ctx = { tier: 'Standard' as const, anchorMs: day(0), nowMs: day(100), subscriptionEndMs: day(365) };
    const time = userTimeFromLedger([], ctx);
    expect(time.days_until_next_allocation).toBe(Math.round((addYearsUtc(day(0), 1) - day(100)) / ONE_DAY_MS));
    expect(time.yearly_subscription_end).toBe(day(365));
  });
});

describe('periodAt', () => {
  const anchor = Date.UTC(2024, 1, 29, 12);
  it.each([
    ['at the anchor', anchor, anchor, Date.UTC(2025, 1, 28, 12)],
    ['inside the first year', Date.UTC(2024, 11, 31), anchor, Date.UTC(2025, 1, 28, 12)],
    [
      'on the first anniversary (29 Feb -> 28 Feb)',
      Date.UTC(2025, 1, 28, 12),
      Date.UTC(2025, 1, 28, 12),
      Date.UTC(2026, 1, 28, 12),
    ],
    ['in a leap year again', Date.UTC(2028, 2, 1), Date.UTC(2028, 1, 29, 12), Date.UTC(2029, 1, 28, 12)],
    [
      'a millisecond before an anniversary',
      Date.UTC(2026, 1, 28, 12) - 1,
      Date.UTC(2025, 1, 28, 12),
      Date.UTC(2026, 1, 28, 12),
    ],
    ['before the anchor', anchor - ONE_DAY_MS, anchor, Date.UTC(2025, 1, 28, 12)],
    [
      'thirty years on, a day after the anniversary',
      Date.UTC(2054, 2, 1),
      Date.UTC(2054, 1, 28, 12),
      Date.UTC(2055, 1, 28, 12),
    ],
    ['thirty years on, a day before it', Date.UTC(2054, 1, 27), Date.UTC(2053, 1, 28, 12), Date.UTC(2054, 1, 28, 12)],
  ])('%s', (_name, now, start, end) => {
    expect(periodAt(anchor, now)).toEqual({ start, end });
  });
});

describe('addYearsUtc', () => {
  it.each([
    ['a plain date, its time kept', Date.UTC(2023, 4, 17, 13, 45, 12, 345), 1, Date.UTC(2024, 4, 17, 13, 45, 12, 345)],
    ['29 Feb to a common year', Date.UTC(2024, 1, 29, 23, 59, 59, 999), 1, Date.UTC(2025, 1, 28, 23, 59, 59, 999)],
    ['29 Feb to a leap year', Date.UTC(2024, 1, 29, 6), 4, Date.UTC(2028, 1, 29, 6)],
    ['29 Feb to 2100 (no leap day)', Date.UTC(2096, 1, 29), 4, Date.UTC(2100, 1, 28)],
    ['29 Feb to 2000 (a leap day)', Date.UTC(1996, 1, 29), 4, Date.UTC(2000, 1, 29)],
    ['backwards (the retention cut-off)', Date.UTC(2026, 10, 24, 8, 30), -7, Date.UTC(2019, 10, 24, 8, 30)],
    ['before 1970', Date.UTC(1969, 11, 31, 23, 0), 1, Date.UTC(1970, 11, 31, 23, 0)],
    ['the last day of a month', Date.UTC(2025, 11, 31, 0, 0, 0, 1), 1, Date.UTC(2026, 11, 31, 0, 0, 0, 1)],
  ])('%s', (_name, from, years, expected) => {
    expect(addYearsUtc(from, years)).toBe(expected);
  });
});
