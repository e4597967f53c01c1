import { describe, expect, it } from 'vitest';
import { candidateForms, isCommonPassword, loadCommonPasswords } from './common-passwords.ts';

describe('the common-password list', () => {
  it('is loaded from the bundled dictionary', () => {
    expect(loadCommonPasswords()).toBeGreaterThan(40_000);
  });

  it.each([
    // common ones, as typed and as people dress them up to pass the character rules
    ['password', true],
    ['Password1!', true],
    ['P@ssw0rd', true],
    ['P@ssw0rd2024', true],
    ['Qwerty123!', true],
    ['!1Password', true],
    ['Monkey123$', true],
    ['Dragon!!99', true],
    ['Letmein!2024', true],
    ['Michael2026!', true],
    // the project's own test and demo passwords, and passphrases
    ['Robot-Pass-42!', false],
    ['Demo-Robot-2026!', false],
    ['E2e-Robot-Pass-1!', false],
    ['Correct-Horse-9!', false],
    ['Tr0ub4dor&3', false],
    ['Zq9$Zq9$a', false],
    // a common word buried in a long tail is not the common password
    ['Abc!2345678', false],
  ])('%s -> %s', (password, common) => {
    expect(isCommonPassword(password)).toBe(common);
  });

  it.each([
    ['Password1!', ['password1!', 'password', 'passwordii']],
    ['P@ssw0rd', ['p@ssw0rd', 'password']],
    ['!1Qwerty', ['!1qwerty', 'qwerty', 'iiqwerty']],
  ])('%s is looked up as %j', (password, forms) => {
    expect(candidateForms(password)).toEqual(forms);
  });
});
