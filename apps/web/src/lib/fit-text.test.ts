import { describe, expect, it } from 'vitest';
import { fitFontSize } from './fit-text';

describe('fitFontSize', () => {
  it.each([
    ['fits at the maximum', 100, 36, 200, 36],
    ['exactly fits', 200, 36, 200, 36],
    ['twice too wide halves the size', 400, 36, 200, 18],
    ['rounds down to stay inside', 300, 36, 200, 24],
    ['rounds down a fraction', 310, 36, 200, 23],
    ['never below the minimum', 2000, 36, 200, 12],
    ['measured at another size', 100, 18, 200, 36],
    ['measured at another size, too wide', 300, 18, 200, 12],
    ['nothing to measure keeps the maximum', 0, 36, 200, 36],
    ['no room gives the minimum', 100, 36, 0, 12],
  ])('%s', (_name, textWidth, measuredAtPx, availableWidth, expected) => {
    expect(fitFontSize({ textWidth, measuredAtPx, availableWidth, maxPx: 36, minPx: 12 })).toBe(expected);
  });
});
