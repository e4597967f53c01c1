import { describe, expect, it } from 'vitest';
import { parseThemePreference, resolveTheme, type ThemePreference } from './theme-preference';

describe('parseThemePreference', () => {
  it.each([
    { raw: null, expected: 'system' },
    { raw: '', expected: 'system' },
    { raw: 'light', expected: 'light' },
    { raw: 'dark', expected: 'dark' },
    { raw: 'system', expected: 'system' },
    { raw: 'Dark', expected: 'system' },
    { raw: 'blue', expected: 'system' },
  ])('$raw -> $expected', ({ raw, expected }) => {
    expect(parseThemePreference(raw)).toBe(expected);
  });
});

describe('resolveTheme', () => {
  it.each<{ pref: ThemePreference; systemDark: boolean; forced: boolean; expected: 'light' | 'dark' }>([
    { pref: 'light', systemDark: true, forced: false, expected: 'light' },
    { pref: 'dark', systemDark: false, forced: false, expected: 'dark' },
    { pref: 'system', systemDark: true, forced: false, expected: 'dark' },
    { pref: 'system', systemDark: false, forced: false, expected: 'light' },
    { pref: 'dark', systemDark: true, forced: true, expected: 'light' },
    { pref: 'system', systemDark: true, forced: true, expected: 'light' },
  ])(
    '$pref (system dark: $systemDark, forced light: $forced) -> $expected',
    ({ pref, systemDark, forced, expected }) => {
      expect(resolveTheme(pref, systemDark, forced)).toBe(expected);
    },
  );
});
