import { describe, expect, it } from 'vitest';
import { type PieInput, pieSlices } from './dial-time-pie';

const g = { cx: 50, cy: 50, r: 40 };
const v = (durable: number, perishable: number): PieInput[] => [
  { key: 'durable', value: durable },
  { key: 'perishable', value: perishable },
];

describe('pieSlices', () => {
  it.each([
    [
      'two halves',
      v(100, 100),
      [
        { key: 'durable', fraction: 0.5, path: 'M 50 50 L 50 10 A 40 40 0 0 1 50 90 Z' },
        { key: 'perishable', fraction: 0.5, path: 'M 50 50 L 50 90 A 40 40 0 0 1 50 10 Z' },
      ],
    ],
    [
      'a quarter and three quarters',
      v(25, 75),
      [
        { key: 'durable', fraction: 0.25, path: 'M 50 50 L 50 10 A 40 40 0 0 1 90 50 Z' },
        { key: 'perishable', fraction: 0.75, path: 'M 50 50 L 90 50 A 40 40 0 1 1 50 10 Z' },
      ],
    ],
    [
      'one pool empty: the other is the whole disc',
      v(0, 40),
      [{ key: 'perishable', fraction: 1, path: 'M 50 10 A 40 40 0 1 1 50 90 A 40 40 0 1 1 50 10 Z' }],
    ],
    ['both empty: no slices', v(0, 0), []],
    [
      'negative counts as empty',
      v(-5, 10),
      [{ key: 'perishable', fraction: 1, path: 'M 50 10 A 40 40 0 1 1 50 90 A 40 40 0 1 1 50 10 Z' }],
    ],
  ])('%s', (_name, values, slices) => {
    expect(pieSlices(values, g)).toEqual(slices);
  });

  it('fractions add up to 1', () => {
    const slices = pieSlices(v(33.3, 12.7), g);
    expect(slices.reduce((s, x) => s + x.fraction, 0)).toBeCloseTo(1);
  });
});
