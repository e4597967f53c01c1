import { describe, expect, it } from 'vitest';
import { changePasswordIssues, newPasswordIssues, yearOfBirthIssue } from './account-rules.ts';

describe('newPasswordIssues (reset form and server)', () => {
  it.each([
    ['Robot-Pass-42!', 'a@b.co', []],
    ['Ab1!', 'a@b.co', ['Password must be at least 8 characters']],
    ['robot-pass-42!', 'a@b.co', ['Password must contain at least one uppercase letter']],
    ['ROBOT-PASS-42!', 'a@b.co', ['Password must contain at least one lowercase letter']],
    ['Robot-Pass-xx!', 'a@b.co', ['Password must contain at least one number']],
    ['RobotPass42', 'a@b.co', ['Password must contain at least one special character']],
    ['Me@Robot.co1', 'me@robot.co1', ['Password must not be the same as email']],
    [`A1!${'a'.repeat(253)}`, 'a@b.co', ['Password must be less than 256 characters']],
    [`A1!${'a'.repeat(252)}`, 'a@b.co', []],
    // Letters, digits and specials are told apart beyond ASCII; a space is not special.
    ['Ääöö-öä1', 'a@b.co', []],
    ['Äxyz£abc', 'a@b.co', ['Password must contain at least one number']],
    ['Pass word1', 'a@b.co', ['Password must contain at least one special character']],
  ])('%s', (password, email, expected) => expect(newPasswordIssues(password, email)).toEqual(expected));
});

describe('changePasswordIssues (change form wording)', () => {
  const ok = {
    currentPassword: 'Old-Pass-1!',
    newPassword: 'New-Pass-2@',
    repeatPassword: 'New-Pass-2@',
    email: 'a@b.co',
  };
  it.each([
    ['valid', {}, []],
    ['no current', { currentPassword: '' }, ['currentPassword: Current password is required.']],
    [
      'short',
      { newPassword: 'N-p2@', repeatPassword: 'N-p2@' },
      ['newPassword: Password must be at least 8 characters.'],
    ],
    [
      'no special',
      { newPassword: 'NewPass22', repeatPassword: 'NewPass22' },
      ['newPassword: Password must contain: 1 uppercase, 1 number and 1 special character.'],
    ],
    [
      'same as current',
      { newPassword: 'Old-Pass-1!', repeatPassword: 'Old-Pass-1!' },
      ['newPassword: New password cannot be the same as the current password.'],
    ],
    [
      'same as email',
      { email: 'New-Pass-2@x.io', newPassword: 'New-Pass-2@x.io', repeatPassword: 'New-Pass-2@x.io' },
      ['newPassword: Password must not be the same as email.'],
    ],
    ['repeat differs', { repeatPassword: 'New-Pass-2#' }, ['repeatPassword: Passwords do not match.']],
    [
      'too long',
      { newPassword: `Aa1!${'x'.repeat(252)}`, repeatPassword: `Aa1!${'x'.repeat(252)}` },
      ['newPassword: Password must be less than 256 characters.'],
    ],
  ])('%s', (_label, patch: Partial<typeof ok>, expected) => {
    const input = { ...ok, ...patch };
    expect(changePasswordIssues(input).map((i) => `${i.field}: ${i.message}`)).toEqual(expected);
  });
});

describe('yearOfBirthIssue', () => {
  const now = new Date('2026-11-22T00:00:00Z');
  it.each([
    [1990, undefined],
    [1900, undefined],
    [1899, 'Please select a valid year of birth'],
    [2027, 'Please select a valid year of birth'],
    [2020, undefined],
    [2021, 'You must be at least 6 years old to use this service.'],
    [2026, 'You must be at least 6 years old to use this service.'],
    [1990.5, 'Please select a valid year of birth'],
  ])('%s', (year, expected) => expect(yearOfBirthIssue(year, now)).toBe(expected));
});
