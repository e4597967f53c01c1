import { describe, expect, it } from 'vitest';
import { formatPercent, poolPie } from './dial-time-pie';

const g = { cx: 50, cy: 50, r: 40 };
const DISC = 'M 50 10 A 40 40 0 1 1 50 90 A 40 40 0 1 1 50 10 Z';

describe('poolPie: one pool against its own total', () => {
  it.each([
    ['a quarter left', 25, 0.25, 'M 50 50 L 50 10 A 40 40 0 0 1 90 50 Z'],
    ['half left', 50, 0.5, 'M 50 50 L 50 10 A 40 40 0 0 1 50 90 Z'],
    ['three quarters left: the large arc', 75, 0.75, 'M 50 50 L 50 10 A 40 40 0 1 1 10 50 Z'],
    ['full: the whole disc', 100, 1, DISC],
    ['nothing left: no wedge', 0, 0, ''],
    ['above 100 is full', 130, 1, DISC],
    ['below 0 is empty', -5, 0, ''],
    ['not a number is empty', Number.NaN, 0, ''],
  ])('%s', (_name, percent, fraction, path) => {
    expect(poolPie(percent, g)).toEqual({ fraction, path });
  });

  it('two pools are drawn independently: 91 % and 59 % each fill most of their own pie', () => {
    // The bug this replaces: one circle split 91:59 showed durable as 61 % of the whole.
    expect(poolPie(91, g).fraction).toBeCloseTo(0.91);
    expect(poolPie(59, g).fraction).toBeCloseTo(0.59);
  });
});

describe('formatPercent', () => {
  it.each([
    [0, '0%'],
    [0.4, '<1%'],
    [0.5, '1%'],
    [59, '59%'],
    [66.666, '67%'],
    [99.4, '99%'],
    [99.6, '>99%'],
    [100, '100%'],
    [120, '100%'],
    [-3, '0%'],
    [Number.NaN, '0%'],
  ])('%f -> %s', (percent, text) => {
    expect(formatPercent(percent)).toBe(text);
  });
});
