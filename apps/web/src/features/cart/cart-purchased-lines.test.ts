import type { Purchase } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { cartLine } from '@/test/cart-fixtures';
import { purchasedLines } from './cart-purchased-lines';

const purchase = (lines: Purchase['lines'], currency: Purchase['currency'] = 'usd'): Purchase => ({
  session_id: 'cs_1',
  status: 'paid',
  amount: 0,
  currency,
  lines,
});

const cart = [cartLine('Nao', 2, 12_000)];
const shape = (lines: ReturnType<typeof purchasedLines>) =>
  lines.map((l) => [l.name, l.quantity, l.unitAmount, l.currency]);

describe('purchasedLines (what Payment Successful lists)', () => {
  it.each<[string, Purchase | undefined, (string | number)[][]]>([
    [
      "the server's lines when it has some",
      purchase([{ product_id: 'p', name: 'Pepper', quantity: 1, unit_amount: 5_000 }]),
      [['Pepper', 1, 5_000, 'usd']],
    ],
    ['the arrival cart when the server has none yet', purchase([]), [['Nao', 2, 12_000, 'gbp']]],
    ['the arrival cart when the server did not answer', undefined, [['Nao', 2, 12_000, 'gbp']]],
  ])('%s', (_, p, expected) => {
    expect(shape(purchasedLines(p, cart))).toEqual(expected);
  });

  it('is empty with neither', () => {
    expect(purchasedLines(undefined, [])).toEqual([]);
  });
});
