import { describe, expect, it } from 'vitest';
import {
  displayModel,
  filterAddRobotItems,
  matchesPairingFilter,
  paginateRobots,
  robotImage,
  robotStatusLabel,
  sortRobots,
} from './robot-display.ts';

describe('displayModel', () => {
  it.each([
    ['Tiago_Steel', 'Tiago', 'Steel'],
    ['Tiago_Titanium', 'Tiago', 'Titanium'],
    ['Tiago++', 'Tiago', '++'],
    ['Artus_Hand', 'Artus Hand', undefined],
    ['Tiago', 'Tiago', undefined],
    ['Pepper', 'Pepper', undefined],
    ['Unknown_Bot', 'Unknown_Bot', undefined],
  ])('%s -> %s %s', (raw, model, version) => {
    expect(displayModel(raw)).toEqual(version === undefined ? { model } : { model, version });
  });
});

describe('robot lists', () => {
  it.each([
    ['Tiago++', '/images/robots/tiago-plus-plus.svg'],
    ['Tiago_Steel', '/images/robots/tiago-steel.svg'],
    ['iCub', '/images/robots/icub.svg'],
    ['ICUB', '/images/robots/icub.svg'],
    ['Nao', '/images/robots/nao.svg'],
    ['Mystery', '/images/robots/generic.svg'],
    ['', '/images/robots/generic.svg'],
    [undefined, '/images/robots/generic.svg'],
  ])('image of %s is %s', (model, path) => {
    expect(robotImage(model)).toBe(path);
  });

  it.each([
    [true, 'Active'],
    [false, 'Inactive'],
    [undefined, 'Inactive'],
  ])('available %s -> %s', (available, label) => {
    expect(robotStatusLabel(available)).toBe(label);
  });

  it.each([
    [{ pair_code: 'ABCD2345' }, 'all', true],
    [{ pair_code: 'ABCD2345' }, 'unpaired', true],
    [{ pair_code: 'ABCD2345' }, 'paired', false],
    [{ pair_code: '' }, 'paired', true],
    [{}, 'paired', true],
    [{ pair_code: '' }, 'unpaired', false],
  ] as const)('%o under %s: %s', (item, filter, shown) => {
    expect(matchesPairingFilter(item, filter)).toBe(shown);
  });
});

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
