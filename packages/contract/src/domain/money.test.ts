import { describe, expect, it } from 'vitest';
import type { PaymentPrice } from '../payment.ts';
import { formatPrice, formatYearlyPrice, majorAmount, timePackagePrice } from './money.ts';

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

describe('formatYearlyPrice', () => {
  it.each([
    [12000, 'gbp', '£120.00/year'],
    [999, 'usd', '$9.99/year'],
  ] as const)('formatYearlyPrice(%i, %s) = %s', (amount, currency, text) => {
    expect(formatYearlyPrice(amount, currency)).toBe(text);
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
