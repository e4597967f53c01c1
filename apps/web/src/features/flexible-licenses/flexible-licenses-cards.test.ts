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
    id: `prod_${name.replace(/\W+/g, '_')}`,
    name,
    description: `${name} license`,
    metadata,
    prices: [],
  });
  // Named as the catalogue names them: "Nao driver" drives the model Nao.
  const products = [
    product('Nao driver', {
      BOW_SORTING: 'driver',
      BOW_UUID: 'driver-nao',
      model: 'Nao',
      manufacturer: 'Aldebaran',
      robotType: 'Humanoid, Social',
      features: 'Speech,Vision,Support',
    }),
    product('Tiago_Steel driver', { BOW_SORTING: 'driver', BOW_UUID: 'driver-tiago-steel', model: 'Tiago_Steel' }),
    product('Roboy driver', { BOW_SORTING: 'driver', BOW_UUID: 'driver-roboy', model: 'Roboy' }),
    product('Pepper plan', { BOW_SORTING: 'subscription', BOW_UUID: 'driver-pepper', model: 'Pepper' }),
    product('Rhino driver', { BOW_SORTING: 'driver', model: 'Rhino' }),
  ];
  const approved = ['driver-nao', 'driver-tiago-steel', 'driver-pepper', ''];

  it('builds a card from the model metadata, never the product name', () => {
    expect(flexCardsFromProducts(products, approved)[0]).toEqual({
      id: 'prod_Nao_driver',
      robot_id: 'driver-nao',
      manufacturer: 'Aldebaran',
      modelName: 'Nao',
      description: 'Nao driver license',
      robotType: ['Humanoid', 'Social'],
      features: ['Support', '1 Physical Robot License', 'Speech', 'Vision'],
      img: '/images/robots/nao.svg',
    });
  });

  it.each([
    ['the approved drivers only (no plan, no product without a robot id)', approved, ['Nao', 'Tiago_Steel']],
    ['another list', ['driver-roboy'], ['Roboy']],
    ['an empty list', [], []],
  ])('%s', (_name, list, models) => {
    expect(flexCardsFromProducts(products, list).map((c) => c.modelName)).toEqual(models);
  });

  it('pictures the model', () => {
    expect(flexCardsFromProducts(products, approved)[1]?.img).toBe('/images/robots/tiago-steel.svg');
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
