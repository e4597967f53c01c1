import type { CartItem, PaymentPrice } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  type CartAction,
  cartCurrency,
  cartItemCount,
  cartReducer,
  cartTotal,
  checkoutLines,
  commitQuantityInput,
  digitsOnly,
  itemsLabel,
  lineCurrency,
  lineTotal,
  minusRemoves,
  planReplacedBy,
  toCartItem,
} from './cart';

const item = (id: string, quantity = 1, amount = 1000): CartItem => ({
  id,
  name: `Product ${id}`,
  description: '',
  prices: [],
  selected_price_id: `price_${id}`,
  selected_price_unit_amount: amount,
  quantity,
});

const quantities = (items: CartItem[]) => items.map((i) => [i.id, i.quantity]);

describe('cartReducer', () => {
  it.each<[string, CartItem[], CartAction, (string | number)[][]]>([
    ['add to an empty cart', [], { type: 'add', item: item('a') }, [['a', 1]]],
    [
      'add a new id appends',
      [item('a')],
      { type: 'add', item: item('b', 2) },
      [
        ['a', 1],
        ['b', 2],
      ],
    ],
    [
      'add an existing id adds quantities',
      [item('a', 2), item('b')],
      { type: 'add', item: item('a', 3) },
      [
        ['a', 5],
        ['b', 1],
      ],
    ],
    ['remove', [item('a'), item('b')], { type: 'remove', id: 'a' }, [['b', 1]]],
    ['remove an unknown id', [item('a')], { type: 'remove', id: 'zz' }, [['a', 1]]],
    ['clear', [item('a'), item('b')], { type: 'clear' }, []],
    ['replace', [item('a'), item('b')], { type: 'replace', items: [item('t', 1)] }, [['t', 1]]],
    ['increase by a delta', [item('a', 2)], { type: 'changeQuantity', id: 'a', delta: 1 }, [['a', 3]]],
    ['decrease by a delta', [item('a', 2)], { type: 'changeQuantity', id: 'a', delta: -1 }, [['a', 1]]],
    ['a delta never goes below 1', [item('a', 1)], { type: 'changeQuantity', id: 'a', delta: -1 }, [['a', 1]]],
    [
      'set quantity',
      [item('a', 2), item('b')],
      { type: 'setQuantity', id: 'a', quantity: 7 },
      [
        ['a', 7],
        ['b', 1],
      ],
    ],
    ['set quantity 0 keeps 1', [item('a', 2)], { type: 'setQuantity', id: 'a', quantity: 0 }, [['a', 1]]],
    ['set quantity is capped', [item('a', 2)], { type: 'setQuantity', id: 'a', quantity: 5000 }, [['a', 999]]],
    ['set quantity of an unknown id', [item('a', 2)], { type: 'setQuantity', id: 'zz', quantity: 4 }, [['a', 2]]],
  ])('%s', (_name, state, action, expected) => {
    const before = structuredClone(state);
    expect(quantities(cartReducer(state, action))).toEqual(expected);
    expect(state).toEqual(before);
  });
});

describe('totals', () => {
  it.each([
    [[], 0, 0],
    [[item('a', 1, 1999)], 1999, 1],
    [[item('a', 3, 1000), item('b', 2, 250)], 3500, 5],
  ])('%o costs %i for %i items', (items, total, count) => {
    expect(cartTotal(items)).toBe(total);
    expect(cartItemCount(items)).toBe(count);
  });

  it('lineTotal is price times quantity', () => {
    expect(lineTotal(item('a', 4, 1250))).toBe(5000);
  });

  it.each([
    [0, 'Items'],
    [1, 'Item'],
    [2, 'Items'],
  ])('%i -> %s', (n, label) => {
    expect(itemsLabel(n)).toBe(label);
  });
});

describe('quantity input', () => {
  it.each([
    ['12', '12'],
    ['1a2', '12'],
    ['-3', '3'],
    ['abc', ''],
    ['4.5', '45'],
  ])('typing %s keeps %s', (typed, kept) => {
    expect(digitsOnly(typed)).toBe(kept);
  });

  it.each([
    ['5', 2, 5],
    [' 7 ', 2, 7],
    ['', 3, 3],
    ['abc', 3, 3],
    ['1e3', 3, 3],
    ['-1', 3, 3],
    ['0', 3, 1],
    ['100000', 3, 999],
  ])('committing %s over %i gives %i', (text, previous, quantity) => {
    expect(commitQuantityInput(text, previous)).toBe(quantity);
  });

  it.each([
    [0, true],
    [1, true],
    [2, false],
  ])('minus at %i removes: %s', (q, removes) => {
    expect(minusRemoves(q)).toBe(removes);
  });
});

describe('toCartItem', () => {
  const price = (id: string, unit_amount: number, currency: 'gbp' | 'usd' = 'gbp'): PaymentPrice => ({
    id,
    currency,
    unit_amount,
    type: 'one_time',
    recurring: null,
  });
  const product = (prices: PaymentPrice[], selected_price_id?: string) => ({
    id: 'prod',
    name: 'Nao driver',
    description: 'A license',
    prices,
    selected_price_id,
  });
  it.each([
    ['the selected price', product([price('a', 100), price('b', 200)], 'b'), 'b', 200],
    [
      'an unknown selection falls back to the first gbp',
      product([price('u', 50, 'usd'), price('g', 80)], 'zz'),
      'g',
      80,
    ],
    ['no gbp: the first price', product([price('u', 50, 'usd')]), 'u', 50],
  ])('%s', (_name, p, id, amount) => {
    const result = toCartItem(p);
    expect(
      result.ok && [result.item.selected_price_id, result.item.selected_price_unit_amount, result.item.quantity],
    ).toEqual([id, amount, 1]);
  });

  it('no price gives the spec error', () => {
    expect(toCartItem(product([]))).toEqual({ ok: false, error: 'Could not find a valid price for this item.' });
  });
});

describe('checkoutLines', () => {
  it('checkout lines carry no amount', () => {
    expect(checkoutLines([item('a', 2, 999)])).toEqual([{ id: 'a', selected_price_id: 'price_a', quantity: 2 }]);
  });
});

describe('lineCurrency and cartCurrency', () => {
  const priced = (currency: 'gbp' | 'usd', selected = 'p1'): CartItem => ({
    ...item('x'),
    prices: [{ id: 'p1', currency, unit_amount: 100, type: 'one_time' }],
    selected_price_id: selected,
  });
  it.each<[string, CartItem[], string]>([
    ['an empty cart shows the default', [], 'gbp'],
    ["the first line's selected price", [priced('usd'), priced('gbp')], 'usd'],
    ['a selected price not in the list falls back to the default', [priced('usd', 'gone')], 'gbp'],
  ])('%s', (_, items, expected) => {
    expect(cartCurrency(items)).toBe(expected);
    if (items[0]) expect(lineCurrency(items[0])).toBe(expected);
  });
});

describe('plans are sold one at a time (issue 31)', () => {
  const plan = (id: string, quantity = 1): CartItem => ({ ...item(id, quantity), plan: true });
  it.each<[string, CartItem[], CartAction, (string | number)[][]]>([
    ['adding a plan twice keeps quantity 1', [plan('std')], { type: 'add', item: plan('std', 3) }, [['std', 1]]],
    [
      'a second plan replaces the first, other lines stay',
      [item('a', 2), plan('std')],
      { type: 'add', item: plan('pro') },
      [
        ['a', 2],
        ['pro', 1],
      ],
    ],
    ['plus on a plan stays at 1', [plan('std')], { type: 'changeQuantity', id: 'std', delta: 1 }, [['std', 1]]],
    ['typing 5 for a plan stays at 1', [plan('std')], { type: 'setQuantity', id: 'std', quantity: 5 }, [['std', 1]]],
    [
      'a replace with two plans keeps the last, quantity 1',
      [],
      { type: 'replace', items: [plan('std', 2), item('a', 2), plan('pro', 4)] },
      [
        ['a', 2],
        ['pro', 1],
      ],
    ],
  ])('%s', (_name, state, action, expected) => {
    expect(quantities(cartReducer(state, action))).toEqual(expected);
  });

  it('tells which plan a new plan replaces', () => {
    expect(planReplacedBy([item('a'), plan('std')], plan('pro'))?.id).toBe('std');
    expect(planReplacedBy([plan('std')], plan('std'))).toBeUndefined();
    expect(planReplacedBy([plan('std')], item('a'))).toBeUndefined();
  });

  it('a plan product becomes a plan line of quantity 1', () => {
    const price: PaymentPrice = { id: 'p', currency: 'gbp', unit_amount: 1500, recurring: null, type: 'one_time' };
    const product = { id: 'prod_pro', name: 'Pro', description: '', prices: [price], selected_price_id: 'p' };
    const made = toCartItem({ ...product, metadata: { BOW_SORTING: 'subscription', BOW_TIER: 'Pro' } }, 5);
    expect(made.ok && [made.item.plan, made.item.quantity]).toEqual([true, 1]);
    const driver = toCartItem({ ...product, metadata: { BOW_SORTING: 'driver' } }, 5);
    expect(driver.ok && [driver.item.plan, driver.item.quantity]).toEqual([undefined, 5]);
  });
});
