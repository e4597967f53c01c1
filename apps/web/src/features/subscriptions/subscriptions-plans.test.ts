import type { PaymentPrice } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  gbpOnly,
  pairPlanPrices,
  planBilling,
  planButtonState,
  planCards,
  planFeatures,
  planPriceView,
  planTierIndex,
  sortPlansByFirstPrice,
} from './subscriptions-plans';

const price = (id: string, unit_amount: number, extra: Partial<PaymentPrice> = {}): PaymentPrice => ({
  id,
  currency: 'gbp',
  unit_amount,
  type: 'recurring',
  recurring: { interval: 'year', interval_count: 1 },
  ...extra,
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

describe('planButtonState', () => {
  it.each([
    [0, 0, 'Current Plan', true],
    [1, 1, 'Current Plan', true],
    [2, 2, 'Current Plan', true],
    [0, 1, 'Unavailable', true],
    [0, 2, 'Unavailable', true],
    [1, 2, 'Unavailable', true],
    [1, 0, 'Upgrade Now', false],
    [2, 0, 'Upgrade Now', false],
    [2, 1, 'Upgrade Now', false],
  ] as const)('plan %i against current %i shows %s', (plan, current, label, disabled) => {
    const state = planButtonState(plan, current);
    expect(state.label).toBe(label);
    expect(state.disabled).toBe(disabled);
  });
});

describe('planFeatures', () => {
  it.each([
    ['Robot Manager;Infinite dial time', ['Robot Manager', 'Infinite dial time']],
    [' a ; ;b;', ['a', 'b']],
    ['', []],
    [undefined, []],
  ])('%j', (features, list) => {
    expect(planFeatures({ BOW_FEATURES: features })).toEqual(list);
  });
});

describe('planTierIndex', () => {
  it.each([
    ['Pro Subscription', {}, 2],
    ['Standard Subscription', {}, 1],
    ['Lite Subscription', {}, 0],
    ['Team plan', { BOW_TIER: 'Standard Subscription' }, 1],
    ['Pro Subscription', { BOW_TIER: 'Lite Subscription' }, 0],
    ['Team plan', {}, -1],
  ])('%s with %j is %i', (name, metadata, index) => {
    expect(planTierIndex({ name, metadata })).toBe(index);
  });
});

describe('planCards', () => {
  const product = (name: string, tier: string | undefined, ...prices: PaymentPrice[]) => ({
    id: name,
    name,
    description: '',
    metadata: { BOW_SORTING: 'subscription', ...(tier ? { BOW_TIER: tier } : {}), BOW_FEATURES: 'x;y' },
    prices,
  });
  const monthly = (id: string, amount: number, currency: 'gbp' | 'usd' = 'gbp') =>
    price(id, amount, { currency, recurring: { interval: 'month', interval_count: 1 } });
  const products = [
    product(
      'Pro Subscription',
      'Pro Subscription',
      monthly('pro_usd', 100, 'usd'),
      monthly('pro_m', 4900),
      price('pro_y', 49000),
    ),
    { id: 'nao', name: 'Nao driver', description: '', metadata: { BOW_SORTING: 'driver' }, prices: [price('n', 9900)] },
    product('Standard Subscription', undefined, monthly('std_m', 1500), price('std_y', 15000)),
    product('Lite Subscription', 'Lite Subscription', monthly('lite', 0)),
  ];

  it('keeps the subscription products, GBP prices only, sorted by their first price', () => {
    const cards = planCards(products);
    expect(cards.map((c) => c.product.name)).toEqual([
      'Lite Subscription',
      'Standard Subscription',
      'Pro Subscription',
    ]);
    expect(cards[2]?.prices.map((p) => p.id)).toEqual(['pro_m', 'pro_y']);
  });

  it.each([
    ['Lite Subscription', 0, false, 'Includes the following...', false],
    ['Standard Subscription', 1, true, 'Includes the following...', true],
    ['Pro Subscription', 2, false, 'Everything in standard, plus...', true],
  ] as const)('%s: tier %i, popular %s, "%s", toggle %s', (name, index, popular, intro, toggle) => {
    const card = planCards(products).find((c) => c.product.name === name);
    expect(card).toMatchObject({ tierIndex: index, popular, intro, features: ['x', 'y'] });
    expect(card?.billing).toEqual({ hasToggle: toggle, initial: 'annually' });
  });
});

describe('planPriceView', () => {
  const m = price('m', 1500, { recurring: { interval: 'month', interval_count: 1 } });
  const y = price('y', 15000);
  it.each([
    ['annually', [m, y], 'y', '£150.00', '/year', '£12.50'],
    ['monthly', [m, y], 'm', '£15.00', '/month', undefined],
    [
      'annually, monthly price only',
      [price('lite', 0, { recurring: { interval: 'month', interval_count: 1 } })],
      'lite',
      '£0',
      '/month',
      undefined,
    ],
    ['monthly, yearly price only', [y], 'y', '£150.00', '/year', '£12.50'],
    ['annually, a zero yearly price', [price('z', 0)], 'z', '£0', '/year', '£0'],
    ['annually, £120.00 a year', [price('y', 12000)], 'y', '£120.00', '/year', '£10.00'],
    ['annually, £100.00 a year', [price('y', 10000)], 'y', '£100.00', '/year', '£8.33'],
    ['annually, £99.99 a year', [price('y', 9999)], 'y', '£99.99', '/year', '£8.33'],
    ['annually, a penny a year', [price('y', 1)], 'y', '£0.01', '/year', '£0.00'],
    [
      'monthly, £49.00 a month',
      [price('m', 4900, { recurring: { interval: 'month', interval_count: 1 } })],
      'm',
      '£49.00',
      '/month',
      undefined,
    ],
    ['no price', [], undefined, '£0', '/month', undefined],
  ] as const)('%s', (billing, prices, id, amount, period, perMonth) => {
    const view = planPriceView(prices, billing.startsWith('monthly') ? 'monthly' : 'annually');
    expect(view.price?.id).toBe(id);
    expect(view.amount).toBe(amount);
    expect(view.period).toBe(period);
    expect(view.monthlyEquivalent).toBe(perMonth);
  });
});
