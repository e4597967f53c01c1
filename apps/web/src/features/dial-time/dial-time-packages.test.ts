import type { PaymentPrice, PaymentProduct } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { timePackageCartItem, timePackages } from './dial-time-packages';

const price = (id: string, unit_amount: number, currency: 'gbp' | 'usd' = 'gbp'): PaymentPrice => ({
  id,
  currency,
  unit_amount,
  type: 'one_time',
});

const pkg = (minutes: string | undefined, ...prices: PaymentPrice[]): PaymentProduct => ({
  id: `prod_time_${minutes}`,
  name: `${minutes} dial minutes`,
  description: 'Durable minutes',
  metadata: { BOW_PRICING: 'onetime', ...(minutes ? { BOW_MINUTES: minutes } : {}) },
  prices,
});

const CATALOGUE: PaymentProduct[] = [
  pkg('300', price('p300_lite', 5000), price('p300_member', 4000)),
  {
    id: 'prod_driver',
    name: 'Nao driver',
    description: '',
    metadata: { BOW_SORTING: 'driver' },
    prices: [price('d', 9900)],
  },
  pkg('60', price('p60_lite', 1200), price('p60_member', 1000), price('p60_usd', 500, 'usd')),
  pkg('none'),
];

describe('timePackages', () => {
  it.each([
    ['Lite pays the highest price', 'Lite', ['p60_lite', 'p300_lite'], ['£12.00', '£50.00']],
    ['Standard pays the lowest', 'Standard', ['p60_member', 'p300_member'], ['£10.00', '£40.00']],
    ['Pro is priced as Standard (and may not buy)', 'Pro', ['p60_member', 'p300_member'], ['£10.00', '£40.00']],
  ] as const)('%s', (_name, tier, ids, texts) => {
    const list = timePackages(CATALOGUE, tier);
    expect(list.map((p) => p.price.id)).toEqual(ids);
    expect(list.map((p) => p.priceText)).toEqual(texts);
    expect(list.map((p) => p.minutes)).toEqual([60, 300]);
  });

  it('leaves out products that are not packages, and packages without a GBP price', () => {
    expect(timePackages([pkg('10', price('usd_only', 100, 'usd'))], 'Lite')).toEqual([]);
    expect(timePackages([], 'Lite')).toEqual([]);
  });

  it('a package that does not say its minutes counts 0 and comes first', () => {
    const list = timePackages([pkg('60', price('a', 1)), pkg(undefined, price('b', 1))], 'Lite');
    expect(list.map((p) => [p.price.id, p.minutes])).toEqual([
      ['b', 0],
      ['a', 60],
    ]);
  });
});

describe('timePackageCartItem', () => {
  it('is one package at the shown price', () => {
    const [first] = timePackages(CATALOGUE, 'Lite');
    expect(first && timePackageCartItem(first)).toMatchObject({
      id: 'prod_time_60',
      name: '60 dial minutes',
      selected_price_id: 'p60_lite',
      selected_price_unit_amount: 1200,
      quantity: 1,
    });
  });
});
