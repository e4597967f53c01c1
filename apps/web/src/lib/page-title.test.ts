import { describe, expect, it } from 'vitest';
import { formatPageTitle } from './page-title';

describe('formatPageTitle', () => {
  it.each([
    { name: 'Profile', expected: 'Robot Portal | Profile' },
    { name: ' Privacy Policy ', expected: 'Robot Portal | Privacy Policy' },
    { name: '', expected: 'Robot Portal' },
    { name: null, expected: 'Robot Portal' },
    { name: undefined, expected: 'Robot Portal' },
  ])('$name -> $expected', ({ name, expected }) => {
    expect(formatPageTitle(name)).toBe(expected);
  });
});
