import type { Purchase } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { purchasedLines } from './cart-purchased-lines';

const purchase = (lines: Purchase['lines'], currency: Purchase['currency'] = 'usd'): Purchase => ({
  session_id: 'cs_1',
  status: 'paid',
  amount: 0,
  currency,
  lines,
  reference: '',
  pairings: [],
});

const shape = (lines: ReturnType<typeof purchasedLines>) =>
  lines.map((l) => [l.name, l.quantity, l.unitAmount, l.currency]);

describe('purchasedLines (what Payment Successful lists)', () => {
  it.each<[string, Purchase, (string | number)[][]]>([
    [
      "the server's lines, in the session's currency",
      purchase([
        { product_id: 'p', name: 'Pepper', quantity: 1, unit_amount: 5_000 },
        { product_id: 'n', name: 'Nao', quantity: 2, unit_amount: 12_000 },
      ]),
      [
        ['Pepper', 1, 5_000, 'usd'],
        ['Nao', 2, 12_000, 'usd'],
      ],
    ],
    [
      'a model named as the cards name it (Tiago_Steel as Tiago Steel)',
      purchase([{ product_id: 't', name: 'Tiago_Steel driver', quantity: 1, unit_amount: 49_000 }], 'gbp'),
      [['Tiago Steel driver', 1, 49_000, 'gbp']],
    ],
    ['none when the server has none', purchase([]), []],
  ])('%s', (_, p, expected) => {
    expect(shape(purchasedLines(p))).toEqual(expected);
  });
});
