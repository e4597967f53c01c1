import { describe, expect, it } from 'vitest';
import { addedToCartMessage, filterAddRobotItems, paginateRobots, sortRobots } from './add-robot-catalogue';

const r = (make: string, model: string) => ({ make, model });
const catalogue = [
  r('PAL', 'Tiago_Steel'),
  r('PAL', 'Tiago++'),
  r('Aldebaran', 'Nao'),
  r('Other', 'Generic'),
  r('Acme', 'Roboy'),
  r('Psyonic', 'Artus_Hand'),
];

describe('filterAddRobotItems', () => {
  it.each([
    ['no filter: unsupported models dropped', '', ['Tiago_Steel', 'Tiago++', 'Nao', 'Generic', 'Artus_Hand']],
    ['case-insensitive match', 'TIAGO', ['Tiago_Steel', 'Tiago++', 'Generic']],
    ['no match keeps Generic', 'zzz', ['Generic']],
    ['matches the shown name', 'artus hand', ['Generic', 'Artus_Hand']],
    ['surrounding spaces ignored', '  nao ', ['Nao', 'Generic']],
  ])('%s', (_name, query, models) => {
    expect(filterAddRobotItems(catalogue, query).map((i) => i.model)).toEqual(models);
  });

  it('takes another supported list', () => {
    expect(filterAddRobotItems(catalogue, '', ['roboy']).map((i) => i.model)).toEqual(['Roboy']);
  });
});

describe('sortRobots', () => {
  const items = [r('b-make', 'Zeta'), r('A-make', 'alpha'), r('c-make', 'Beta'), r('a-make', 'Gamma')];
  it.each([
    ['model', ['alpha', 'Beta', 'Gamma', 'Zeta']],
    ['make', ['alpha', 'Gamma', 'Zeta', 'Beta']],
  ] as const)('A-Z by %s', (by, models) => {
    const before = [...items];
    expect(sortRobots(items, by).map((i) => i.model)).toEqual(models);
    expect(items).toEqual(before);
  });
});

describe('paginateRobots', () => {
  const list = (n: number) => Array.from({ length: n }, (_, i) => i);
  it.each([
    ['empty', 0, 1, [], 1, 1, true],
    ['fewer than 8', 5, 1, [0, 1, 2, 3, 4], 1, 1, true],
    ['exactly 8', 8, 1, list(8), 1, 1, false],
    ['first of two pages', 10, 1, list(8), 1, 2, false],
    ['last page of two', 10, 2, [8, 9], 2, 2, true],
    ['page beyond the end is clamped', 10, 9, [8, 9], 2, 2, true],
    ['page 0 is clamped', 10, 0, list(8), 1, 2, false],
    ['16 items, page 2 full', 16, 2, [8, 9, 10, 11, 12, 13, 14, 15], 2, 2, false],
  ])('%s', (_name, n, page, items, current, pageCount, generic) => {
    expect(paginateRobots(list(n), page, 8)).toEqual({ items, page: current, pageCount, showGenericCard: generic });
  });
});

describe('addedToCartMessage', () => {
  it('names the product', () => {
    expect(addedToCartMessage('Nao driver')).toBe('You have successfully added Nao driver to your cart.');
  });
  it.each([
    ['Tiago_Steel driver', 'Tiago Steel driver'],
    ['Artus_Hand driver', 'Artus Hand driver'],
    ['Tiago_Titanium driver', 'Tiago Titanium driver'],
  ])('names %s as %s (spec/001 §2 Display mapping)', (product, shown) => {
    expect(addedToCartMessage(product)).toBe(`You have successfully added ${shown} to your cart.`);
  });
});
