import type { PaymentPrice, PaymentProduct } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { addRobotItems, offeredPrice } from './add-robot-products';

const price = (id: string, over: Partial<PaymentPrice> = {}): PaymentPrice => ({
  id,
  currency: 'gbp',
  unit_amount: 1000,
  type: 'one_time',
  ...over,
});

const product = (name: string, metadata: PaymentProduct['metadata'], prices: PaymentPrice[] = []): PaymentProduct => ({
  id: `prod_${name}`,
  name,
  description: '',
  metadata,
  prices,
});

describe('offeredPrice (the price the cart will take)', () => {
  it.each<[string, Pick<PaymentProduct, 'prices' | 'selected_price_id'>, string | undefined]>([
    ['the selected price', { prices: [price('a'), price('b')], selected_price_id: 'b' }, 'b'],
    ['GBP before another currency', { prices: [price('u', { currency: 'usd' }), price('g')] }, 'g'],
    ['the first when none is GBP', { prices: [price('u', { currency: 'usd' })] }, 'u'],
    ['an unknown selection falls back', { prices: [price('a')], selected_price_id: 'zzz' }, 'a'],
    ['none without prices', { prices: [] }, undefined],
  ])('%s', (_, p, expected) => {
    expect(offeredPrice(p)?.id).toBe(expected);
  });
});

describe('addRobotItems', () => {
  it('keeps driver products only, by their model (metadata, else name), make and display variant', () => {
    const items = addRobotItems([
      product('Tiago_Steel driver', { BOW_SORTING: 'driver', model: 'Tiago_Steel', manufacturer: 'PAL Robotics' }, [
        price('p'),
      ]),
      product('Standard Subscription', { BOW_SORTING: 'subscription' }),
      product('60 minutes', { BOW_PRICING: 'onetime' }),
      product(' Nao ', { BOW_SORTING: 'driver' }),
    ]);
    expect(items.map((i) => [i.model, i.make, i.modelLabel, i.variant, i.image, i.price?.id])).toEqual([
      ['Tiago_Steel', 'PAL Robotics', 'Tiago', 'Steel', '/images/robots/tiago-steel.svg', 'p'],
      ['Nao', '', 'Nao', undefined, '/images/robots/nao.svg', undefined],
    ]);
  });
});
