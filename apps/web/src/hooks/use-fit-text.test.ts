import { describe, expect, it } from 'vitest';
import { type FitTarget, fitAll } from './use-fit-text';

/**
 * A text in a box, laid out like a browser: a width read after a style write costs a layout of the
 * page. `perPx` is the text's width at 1 px; `kerning` what exact scaling misses.
 */
function page() {
  const state = { dirty: true, layouts: 0 };
  const layout = () => {
    if (state.dirty) state.layouts += 1;
    state.dirty = false;
  };
  const text = (box: number, perPx: number, kerning = 0): FitTarget & { px(): number } => {
    let fontSize = '36px';
    const px = () => Number.parseFloat(fontSize);
    return {
      get clientWidth() {
        layout();
        return box;
      },
      get scrollWidth() {
        layout();
        return Math.ceil(px() * perPx + (px() > 12 ? kerning : 0));
      },
      style: {
        get fontSize() {
          return fontSize;
        },
        set fontSize(v: string) {
          fontSize = v;
          state.dirty = true;
        },
      },
      px,
    };
  };
  return { state, text };
}

const BOUNDS = { maxPx: 36, minPx: 12 };

describe('fitAll (the robot names, spec/001 §2: 36 px shrinking to 12 px)', () => {
  it.each([
    ['a short name keeps 36 px', 200, 4, 0, 36],
    ['a long one shrinks to fit', 200, 10, 0, 20],
    ['kerning takes one more step down', 200, 10, 5, 19],
    ['a very long one stops at 12 px', 200, 40, 0, 12],
  ])('%s', (_name, box, perPx, kerning, expected) => {
    const { text } = page();
    const el = text(box, perPx, kerning);
    fitAll([[el, BOUNDS]]);
    expect(el.px()).toBe(expected);
  });

  it('lays the page out twice for twelve names, not three times a name', () => {
    const { state, text } = page();
    const names = Array.from({ length: 12 }, (_, i) => text(200, 4 + i));
    fitAll(names.map((el) => [el, BOUNDS]));
    expect(names.map((el) => el.px())).toEqual([36, 36, 33, 28, 25, 22, 20, 18, 16, 15, 14, 13]);
    // one to measure at 36 px, one to check nothing overflows at the fitted sizes (one a name before)
    expect(state.layouts).toBe(2);
  });
});
