import { describe, expect, it } from 'vitest';
import { ONE_DAY_MS } from '../constants.ts';
import { consumeMinutes, dialSummary, percentRemaining, remainingDaysUntil, remainingMinutes } from './dial-time.ts';

describe('remainingMinutes', () => {
  it.each([
    [100, 30, 70],
    [100, 100, 0],
    [100, 130, 0],
    [0, 0, 0],
    [0, 5, 0],
  ])('%i - %i = %i', (total, used, remaining) => {
    expect(remainingMinutes(total, used)).toBe(remaining);
  });
});

describe('percentRemaining', () => {
  it.each([
    [100, 25, 75],
    [200, 50, 75],
    [100, 0, 100],
    [100, 100, 0],
    [100, 150, 0],
    [0, 0, 0],
    [3, 1, (2 / 3) * 100],
    [100, -10, 100],
  ])('%i total, %i used -> %f %%', (total, used, pct) => {
    expect(percentRemaining(total, used)).toBeCloseTo(pct);
  });
});

const time = (durable: [number, number], perishable: [number, number], infinite = false) => ({
  total_durable_time: durable[0],
  used_durable_time: durable[1],
  total_perishable_time: perishable[0],
  used_perishable_time: perishable[1],
  has_infinite_time: infinite,
});

describe('dialSummary', () => {
  it.each([
    ['both pools', time([100, 20], [600, 300]), 80, 80, 300, 50, 380],
    ['overdrawn durable', time([10, 20], [0, 0]), 0, 0, 0, 0, 0],
    ['empty', time([0, 0], [0, 0]), 0, 0, 0, 0, 0],
  ] as const)('%s', (_name, t, dRem, dPct, pRem, pPct, total) => {
    const s = dialSummary(t);
    expect([
      s.durable.remaining,
      s.durable.percentRemaining,
      s.perishable.remaining,
      s.perishable.percentRemaining,
      s.remaining,
    ]).toEqual([dRem, dPct, pRem, pPct, total]);
  });
});

describe('remainingDaysUntil', () => {
  const now = Date.UTC(2025, 0, 1);
  it.each([
    [now + 10 * ONE_DAY_MS, 10],
    [now + 10.4 * ONE_DAY_MS, 10],
    [now + 10.6 * ONE_DAY_MS, 11],
    [now + 10.5 * ONE_DAY_MS, 11],
    [now + 10.5 * ONE_DAY_MS - 1_000, 10],
    [now, 0],
    [now - 5 * ONE_DAY_MS, 0],
  ])('%i -> %i days', (end, days) => {
    expect(remainingDaysUntil(end, now)).toBe(days);
  });
});

describe('consumeMinutes', () => {
  it.each([
    ['perishable covers it', time([100, 0], [50, 0]), 30, { perishable: 30, durable: 0, uncovered: 0 }],
    ['perishable first, then durable', time([100, 0], [50, 40]), 30, { perishable: 10, durable: 20, uncovered: 0 }],
    ['only durable left', time([100, 90], [50, 50]), 5, { perishable: 0, durable: 5, uncovered: 0 }],
    ['more than both pools', time([10, 0], [10, 0]), 25, { perishable: 10, durable: 10, uncovered: 5 }],
    ['nothing left', time([0, 0], [0, 0]), 3, { perishable: 0, durable: 0, uncovered: 3 }],
  ] as const)('%s', (_name, t, minutes, result) => {
    expect(consumeMinutes(t, minutes)).toEqual(result);
  });
});
