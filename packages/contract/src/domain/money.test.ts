import { describe, expect, it } from 'vitest';
import type { PaymentPrice } from '../payment.ts';
import {
  formatPrice,
  formatYearlyPrice,
  gbpOnly,
  majorAmount,
  monthlyEquivalent,
  pairPlanPrices,
  planAmount,
  planBilling,
  sortPlansByFirstPrice,
  timePackagePrice,
} from './money.ts';

const price = (id: string, unit_amount: number, extra: Partial<PaymentPrice> = {}): PaymentPrice => ({
  id,
  currency: 'gbp',
  unit_amount,
  type: 'recurring',
  recurring: { interval: 'year', interval_count: 1 },
  ...extra,
});

describe('formatPrice', () => {
  it.each([
    [1999, 'gbp', '£19.99'],
    [500, 'usd', '$5.00'],
    [0, 'gbp', '£0.00'],
    [5, 'gbp', '£0.05'],
    [100050, 'gbp', '£1000.50'],
    [1005, 'GBP', '£10.05'],
    [1999, undefined, '£19.99'],
    [1999, 'eur', 'EUR 19.99'],
  ] as const)('%i %s -> %s', (amount, currency, text) => {
    expect(formatPrice(amount, currency)).toBe(text);
  });

  it.each([
    [-250, '-2.50'],
    [1, '0.01'],
    [110, '1.10'],
  ])('majorAmount(%i) = %s', (amount, text) => {
    expect(majorAmount(amount)).toBe(text);
  });
});

describe('yearly and monthly display', () => {
  it.each([
    [12000, 'gbp', '£120.00/year'],
    [999, 'usd', '$9.99/year'],
  ] as const)('formatYearlyPrice(%i, %s) = %s', (amount, currency, text) => {
    expect(formatYearlyPrice(amount, currency)).toBe(text);
  });

  it.each([
    [12000, '10.00'],
    [10000, '8.33'],
    [9999, '8.33'],
    [1, '0.00'],
    [0, '0'],
  ])('monthlyEquivalent(%i) = %s', (amount, text) => {
    expect(monthlyEquivalent(amount)).toBe(text);
  });

  it.each([
    [0, '0'],
    [4900, '49.00'],
  ])('planAmount(%i) = %s', (amount, text) => {
    expect(planAmount(amount)).toBe(text);
  });
});

describe('pairPlanPrices', () => {
  const monthly = price('m', 1000, { recurring: { interval: 'month', interval_count: 1 } });
  const yearly = price('y', 10000);
  it.each([
    ['no prices', [], undefined, undefined],
    ['two prices, cheaper first', [monthly, yearly], 'm', 'y'],
    ['two prices, dearer first', [yearly, monthly], 'm', 'y'],
    ['the cheaper is monthly whatever its interval', [price('a', 5000), price('b', 100)], 'b', 'a'],
    ['one monthly price', [monthly], 'm', undefined],
    ['one yearly price', [yearly], undefined, 'y'],
    ['one one-time price', [price('o', 300, { type: 'one_time', recurring: null })], undefined, 'o'],
  ] as const)('%s', (_name, prices, m, y) => {
    const pair = pairPlanPrices(prices);
    expect(pair.monthly?.id).toBe(m);
    expect(pair.yearly?.id).toBe(y);
  });
});

describe('planBilling', () => {
  it.each([
    ['Standard Subscription', true],
    ['Pro Subscription', true],
    ['Lite Subscription', false],
    ['lite subscription', false],
    ['  LITE subscription ', false],
  ])('%s has toggle: %s', (name, toggle) => {
    expect(planBilling(name)).toEqual({ hasToggle: toggle, initial: 'annually' });
  });
});

describe('timePackagePrice', () => {
  const prices = [price('mid', 2000), price('low', 1000), price('high', 3000)];
  it.each([
    ['Lite', 'high'],
    ['Standard', 'low'],
    ['Pro', 'low'],
  ] as const)('%s sees %s', (tier, id) => {
    expect(timePackagePrice(prices, tier)?.id).toBe(id);
  });
  it('no prices gives nothing', () => {
    expect(timePackagePrice([], 'Lite')).toBeUndefined();
  });
});

describe('gbpOnly', () => {
  it.each([
    [
      [price('a', 1), price('b', 2, { currency: 'usd' }), price('c', 3)],
      ['a', 'c'],
    ],
    [[price('b', 2, { currency: 'usd' })], []],
    [[], []],
  ] as const)('keeps only gbp', (prices, ids) => {
    expect(gbpOnly(prices).map((p) => p.id)).toEqual(ids);
  });
});

describe('sortPlansByFirstPrice', () => {
  const plan = (name: string, ...amounts: number[]) => ({ name, prices: amounts.map((a) => price(name, a)) });
  it.each([
    ['ascending by first price', [plan('pro', 5000), plan('lite', 0), plan('std', 2000)], ['lite', 'std', 'pro']],
    ['only the first price counts', [plan('a', 3000, 1), plan('b', 2000, 9999)], ['b', 'a']],
    ['no price goes last', [plan('none'), plan('x', 10)], ['x', 'none']],
    ['stable on ties', [plan('first', 10), plan('second', 10)], ['first', 'second']],
  ] as const)('%s', (_name, plans, order) => {
    const input = [...plans];
    expect(sortPlansByFirstPrice(plans).map((p) => p.name)).toEqual(order);
    expect(plans).toEqual(input);
  });
});
