import type { CartItem, PaymentPrice } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { cartChangeText, replacementPrice, repriceCart } from './cart-reprice';

const monthly = (id: string, amount: number, currency: 'gbp' | 'usd' = 'gbp'): PaymentPrice => ({
  id,
  currency,
  unit_amount: amount,
  type: 'recurring',
  recurring: { interval: 'month', interval_count: 1 },
});
const yearly = (id: string, amount: number): PaymentPrice => ({
  id,
  currency: 'gbp',
  unit_amount: amount,
  type: 'recurring',
  recurring: { interval: 'year', interval_count: 1 },
});
const once = (id: string, amount: number): PaymentPrice => ({
  id,
  currency: 'gbp',
  unit_amount: amount,
  type: 'one_time',
});

const line = (price: PaymentPrice, quantity = 1): CartItem => ({
  id: 'prod_standard',
  name: 'Standard Subscription',
  description: '',
  prices: [price],
  selected_price_id: price.id,
  selected_price_unit_amount: price.unit_amount,
  quantity,
});

describe('replacementPrice', () => {
  it.each([
    [
      'the same interval and currency first',
      monthly('old', 1500),
      [yearly('y', 15000), monthly('m$', 1700, 'usd'), monthly('m', 1600)],
      'm',
    ],
    ['then the same interval', monthly('old', 1500), [yearly('y', 15000), monthly('m$', 1700, 'usd')], 'm$'],
    ['then the same currency', monthly('old', 1500), [monthly('m$', 1700, 'usd'), yearly('y', 15000)].slice(1), 'y'],
    ['a one-time price takes a one-time price', once('old', 1200), [monthly('m', 1600), once('o', 1300)], 'o'],
    ['an unknown old price takes the first', undefined, [yearly('y', 15000), monthly('m', 1600)], 'y'],
    ['no prices, none', monthly('old', 1500), [], undefined],
  ] as [string, PaymentPrice | undefined, PaymentPrice[], string | undefined][])('%s', (_, old, prices, expected) => {
    expect(replacementPrice(old, prices)?.id).toBe(expected);
  });
});

describe('repriceCart', () => {
  it('moves a line on a price no longer sold to the current price of its interval, and says so', () => {
    const cart = [line(monthly('price_old', 1500), 1)];
    const { items, changes } = repriceCart(cart, [
      { id: 'prod_standard', prices: [yearly('y', 15000), monthly('price_new', 1600)] },
    ]);
    expect(items[0]).toMatchObject({ selected_price_id: 'price_new', selected_price_unit_amount: 1600, quantity: 1 });
    expect(changes).toEqual([
      {
        kind: 'repriced',
        id: 'prod_standard',
        name: 'Standard Subscription',
        from: '£15.00 a month',
        to: '£16.00 a month',
      },
    ]);
    expect(cartChangeText(changes[0] as (typeof changes)[number])).toBe(
      'The price of Standard Subscription has changed from £15.00 a month to £16.00 a month.',
    );
  });

  it('makes a plan saved before lines said so a plan line, quantity 1, without a notice (issue 31)', () => {
    const price = monthly('price_standard', 1500);
    const cart = [line(price, 3)];
    const planProduct = {
      id: 'prod_standard',
      prices: [price],
      metadata: { BOW_SORTING: 'subscription', BOW_TIER: 'Standard Subscription' },
    };
    const { items, changes } = repriceCart(cart, [planProduct]);
    expect(items).not.toBe(cart);
    expect(items[0]).toMatchObject({ plan: true, quantity: 1, selected_price_id: 'price_standard' });
    expect(changes).toEqual([]);
    // Once marked, nothing changes again.
    expect(repriceCart(items, [planProduct]).items).toBe(items);
  });

  it('keeps a line whose price is still sold, taking its current amount', () => {
    const cart = [line(once('p', 1200), 2)];
    expect(repriceCart(cart, [{ id: 'prod_standard', prices: [once('p', 1200)] }])).toEqual({
      items: cart,
      changes: [],
    });
    const dearer = repriceCart(cart, [{ id: 'prod_standard', prices: [once('p', 1300)] }]);
    expect(dearer.items[0]?.selected_price_unit_amount).toBe(1300);
    expect(dearer.changes[0]).toMatchObject({ kind: 'repriced', from: '£12.00', to: '£13.00' });
  });

  it('removes a line whose product is no longer sold', () => {
    const { items, changes } = repriceCart([line(once('p', 1200))], [{ id: 'prod_other', prices: [once('q', 1)] }]);
    expect(items).toEqual([]);
    expect(cartChangeText(changes[0] as (typeof changes)[number])).toBe(
      'Standard Subscription is no longer sold and was removed from your cart.',
    );
  });
});
