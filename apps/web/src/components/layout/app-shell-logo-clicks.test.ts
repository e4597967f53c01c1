import { describe, expect, it } from 'vitest';
import { registerLogoClick } from './app-shell-logo-clicks';

describe('registerLogoClick', () => {
  it.each([
    { count: 0, expected: { count: 1, spin: false } },
    { count: 1, expected: { count: 2, spin: false } },
    { count: 2, expected: { count: 0, spin: true } },
    // A count left over from a missed reset still ends in a spin rather than growing forever.
    { count: 7, expected: { count: 0, spin: true } },
  ])('after $count clicks', ({ count, expected }) => {
    expect(registerLogoClick(count, 3)).toEqual(expected);
  });

  it('spins on the third click of a run', () => {
    let state = { count: 0, spin: false };
    const spins: boolean[] = [];
    for (let i = 0; i < 6; i++) {
      state = registerLogoClick(state.count, 3);
      spins.push(state.spin);
    }
    expect(spins).toEqual([false, false, true, false, false, true]);
  });
});
