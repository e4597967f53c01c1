import { describe, expect, it } from 'vitest';
import {
  changePasswordFormSchema,
  deleteAccountFormSchema,
  deleteConfirmationValid,
  profileFormSchema,
} from './account-forms';

const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? [] : (r.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('change password form', () => {
  const ok = { currentPassword: 'Old-Pass-1!', newPassword: 'New-Pass-2@', repeatPassword: 'New-Pass-2@' };
  it.each([
    ['valid', {}, []],
    ['no current', { currentPassword: '' }, ['currentPassword: Current password is required.']],
    ['repeat differs', { repeatPassword: 'New-Pass-2#' }, ['repeatPassword: Passwords do not match.']],
    [
      'same as the email',
      { newPassword: 'a@b.co', repeatPassword: 'a@b.co' },
      [
        'newPassword: Password must be at least 8 characters.',
        'newPassword: Password must contain: 1 uppercase, 1 number and 1 special character.',
        'newPassword: Password must not be the same as email.',
      ],
    ],
  ])('%s', (_label, patch: Partial<typeof ok>, expected) => {
    expect(messages(changePasswordFormSchema('a@b.co').safeParse({ ...ok, ...patch }))).toEqual(expected);
  });
});

describe('profile form', () => {
  it.each([
    [{ name: 'Ada', organisation: '', country: 'France', yearBorn: -1 }, []],
    [{ name: 'Ad', organisation: '', country: 'France', yearBorn: -1 }, ['name: Name must be at least 3 characters']],
    [
      { name: 'Ada', organisation: '', country: 'Atlantis', yearBorn: -1 },
      ['country: Please choose a country from the list'],
    ],
    [
      { name: 'Ada', organisation: '', country: 'France', yearBorn: 1.5 },
      ['yearBorn: Please select your year of birth'],
    ],
  ])('%j', (form, expected) => expect(messages(profileFormSchema.safeParse(form))).toEqual(expected));
});

describe('delete confirmation', () => {
  it.each([
    ['delete my account', 'pw', true],
    ['DELETE MY ACCOUNT', 'pw', true],
    ['  Delete My Account ', 'pw', true],
    ['delete account', 'pw', false],
    ['delete my account', '', false],
  ])('%s / %s', (confirmation, password, expected) => {
    expect(deleteConfirmationValid(confirmation, password)).toBe(expected);
    expect(deleteAccountFormSchema.safeParse({ confirmation, password }).success).toBe(expected);
  });
});
