import { describe, expect, it } from 'vitest';
import type { PaymentPrice } from '../payment.ts';
import { formatPrice, formatPriceLabel, formatYearlyPrice, minorUnitsPerMajor, timePackagePrice } from './money.ts';

const price = (id: string, unit_amount: number, extra: Partial<PaymentPrice> = {}): PaymentPrice => ({
  id,
  currency: 'gbp',
  unit_amount,
  type: 'recurring',
  recurring: { interval: 'year', interval_count: 1 },
  ...extra,
});

describe('formatPrice: minor units in en-GB with the narrow symbol (spec/001 §9)', () => {
  it.each([
    // GBP, the default: pence / 100
    [1999, 'gbp', '£19.99'],
    [1005, 'GBP', '£10.05'],
    [1999, undefined, '£19.99'],
    [1999, null, '£19.99'],
    [5, 'gbp', '£0.05'],
    [1, 'gbp', '£0.01'],
    [110, 'gbp', '£1.10'],
    [100050, 'gbp', '£1,000.50'],
    [-250, 'gbp', '-£2.50'],
    // USD and EUR: cents / 100
    [500, 'usd', '$5.00'],
    [123456789, 'usd', '$1,234,567.89'],
    [1999, 'eur', '€19.99'],
    // JPY has no minor unit: its amounts are whole yen
    [500, 'jpy', '¥500'],
    [1234567, 'JPY', '¥1,234,567'],
    // KWD has three digits; a currency without a narrow symbol is written with its code
    [1234, 'kwd', 'KWD\u00a01.234'],
    // a zero price shows 0, in every currency
    [0, 'gbp', '£0'],
    [0, 'usd', '$0'],
    [0, 'eur', '€0'],
    [0, 'jpy', '¥0'],
    [-0, 'gbp', '£0'],
    // a fraction of a minor unit (a yearly price's monthly share) rounds to the currency's digits
    [10000 / 12, 'gbp', '£8.33'],
    [15000 / 12, 'gbp', '£12.50'],
    [1 / 12, 'gbp', '£0.00'],
  ] as const)('%d %s -> %s', (amount, currency, text) => {
    expect(formatPrice(amount, currency)).toBe(text);
  });

  it.each([
    ['gbp', 100],
    ['usd', 100],
    ['eur', 100],
    ['jpy', 1],
    ['krw', 1],
    ['kwd', 1000],
  ])('minor units per major unit of %s: %i', (currency, units) => {
    expect(minorUnitsPerMajor(currency)).toBe(units);
  });

  it('refuses a code that is not a currency code', () => {
    expect(() => formatPrice(100, 'pounds')).toThrow(RangeError);
  });
});

describe('yearly prices show "/year"', () => {
  it.each([
    [12000, 'gbp', '£120.00/year'],
    [999, 'usd', '$9.99/year'],
    [0, 'gbp', '£0/year'],
  ] as const)('formatYearlyPrice(%i, %s) = %s', (amount, currency, text) => {
    expect(formatYearlyPrice(amount, currency)).toBe(text);
  });

  it.each<[string, PaymentPrice, string]>([
    ['yearly GBP', price('a', 12_000), '£120.00/year'],
    ['yearly EUR', price('e', 9_900, { currency: 'eur' as PaymentPrice['currency'] }), '€99.00/year'],
    ['monthly GBP', price('b', 999, { recurring: { interval: 'month', interval_count: 1 } }), '£9.99'],
    ['one-time USD', price('c', 500, { currency: 'usd', type: 'one_time', recurring: null }), '$5.00'],
    ['one-time zero', price('d', 0, { type: 'one_time', recurring: null }), '£0'],
  ])('formatPriceLabel: %s', (_name, p, text) => {
    expect(formatPriceLabel(p)).toBe(text);
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
