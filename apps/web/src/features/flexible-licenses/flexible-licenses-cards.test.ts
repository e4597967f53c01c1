import type { FlexibleLicenseCard, PaymentProduct } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  cardInSlot,
  flexCardsFromProducts,
  searchLicenseCards,
  sortLicenseCards,
  toggleSortDirection,
} from './flexible-licenses-cards';

const card = (
  manufacturer: string,
  modelName: string,
  extra: Partial<FlexibleLicenseCard> = {},
): FlexibleLicenseCard => ({
  id: `${manufacturer}-${modelName}`,
  robot_id: modelName.toLowerCase(),
  manufacturer,
  modelName,
  description: '',
  robotType: [],
  features: ['Support', '1 Physical Robot License'],
  img: '',
  ...extra,
});

describe('searchLicenseCards', () => {
  const cards = [
    card('SoftBank', 'Pepper', { description: 'Humanoid for retail', robotType: ['Humanoid'] }),
    card('PAL Robotics', 'Tiago', { features: ['Support', 'Mobile base'], robotType: ['Mobile Manipulator'] }),
    card('Aldebaran', 'Nao', { description: 'Small humanoid' }),
  ];
  it.each([
    ['', ['Pepper', 'Tiago', 'Nao']],
    ['softbank', ['Pepper']],
    ['TIAGO', ['Tiago']],
    ['humanoid', ['Pepper', 'Nao']],
    ['manipulator', ['Tiago']],
    ['mobile base', ['Tiago']],
    ['support', ['Pepper', 'Tiago', 'Nao']],
    ['nothing', []],
  ])('%s -> %o', (query, models) => {
    expect(searchLicenseCards(cards, query).map((c) => c.modelName)).toEqual(models);
  });
});

describe('sortLicenseCards', () => {
  const cards = [card('PAL', 'Tiago'), card('Aldebaran', 'Nao'), card('aldebaran', 'Pepper'), card('PAL', 'Reem')];
  it.each([
    ['asc', ['Nao', 'Pepper', 'Reem', 'Tiago']],
    ['desc', ['Tiago', 'Reem', 'Pepper', 'Nao']],
  ] as const)('%s', (direction, models) => {
    expect(sortLicenseCards(cards, direction).map((c) => c.modelName)).toEqual(models);
  });

  it.each([
    ['asc', 'desc'],
    ['desc', 'asc'],
  ] as const)('toggle %s -> %s', (from, to) => {
    expect(toggleSortDirection(from)).toBe(to);
  });
});

describe('flexCardsFromProducts', () => {
  const product = (name: string, metadata: PaymentProduct['metadata']): PaymentProduct => ({
    id: `prod_${name}`,
    name,
    description: `${name} driver`,
    metadata,
    prices: [],
  });
  const products = [
    product('Nao', {
      BOW_SORTING: 'driver',
      BOW_UUID: 'r-nao',
      manufacturer: 'Aldebaran',
      robotType: 'Humanoid, Social',
      features: 'Speech,Vision',
    }),
    product('Roboy', { BOW_SORTING: 'driver', BOW_UUID: 'r-roboy' }),
    product('Pepper', { BOW_SORTING: 'subscription', BOW_UUID: 'r-pepper' }),
    product('Rhino', { BOW_SORTING: 'driver' }),
  ];

  it('keeps approved driver products with a robot id', () => {
    expect(flexCardsFromProducts(products)).toEqual([
      {
        id: 'prod_Nao',
        robot_id: 'r-nao',
        manufacturer: 'Aldebaran',
        modelName: 'Nao',
        description: 'Nao driver',
        robotType: ['Humanoid', 'Social'],
        features: ['Support', '1 Physical Robot License', 'Speech', 'Vision'],
        img: '/images/robots/nao.svg',
      },
    ]);
  });

  it.each([
    [['roboy'], ['Roboy']],
    [[], []],
  ])('approved list %o -> %o', (approved, names) => {
    expect(flexCardsFromProducts(products, approved).map((c) => c.modelName)).toEqual(names);
  });

  it.each([
    [{ slot_id: 2, robot_id: 'nao' }, 'slot-2-Aldebaran-Nao', 2],
    [{ slot_id: 0, robot_id: '' }, undefined, undefined],
    [{ slot_id: 0, robot_id: 'unknown' }, undefined, undefined],
  ])('cardInSlot %o', (entry, cardId, slotId) => {
    const placed = cardInSlot(entry, [card('Aldebaran', 'Nao')]);
    expect(placed?.cardId).toBe(cardId);
    expect(placed?.slot_id).toBe(slotId);
  });
});
