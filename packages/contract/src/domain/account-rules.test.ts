import { describe, expect, it } from 'vitest';
import {
  changePasswordFormSchema,
  changePasswordIssues,
  characterClasses,
  deleteAccountFormSchema,
  deleteConfirmationValid,
  forgotPasswordSchema,
  loginFormSchema,
  newPasswordIssues,
  profileFormSchema,
  registrationFormSchema,
  resetPasswordFormSchema,
  yearOfBirthIssue,
} from './account-rules.ts';

const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? [] : (r.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('characterClasses', () => {
  it.each([
    ['Abc1!', { upper: true, lower: true, digit: true, special: true }],
    ['abc', { upper: false, lower: true, digit: false, special: false }],
    ['ÄÖ£', { upper: true, lower: false, digit: false, special: true }],
    ['pass word', { upper: false, lower: true, digit: false, special: false }],
  ])('%s', (password, expected) => expect(characterClasses(password)).toEqual(expected));
});

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
    expect(messages(changePasswordFormSchema(input.email).safeParse(input))).toEqual(expected);
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

describe('login form', () => {
  it.each([
    [{ email: 'a@b.co', password: '12345678', rememberMe: true }, []],
    [{ email: 'nope', password: '12345678', rememberMe: true }, ['email: Invalid email address']],
    [{ email: 'a@b.co', password: '1234567', rememberMe: true }, ['password: Password must be at least 8 characters']],
    [
      { email: 'a@b.co', password: 'x'.repeat(256), rememberMe: false },
      ['password: Password must be less than 256 characters'],
    ],
  ])('%j', (form, expected) => expect(messages(loginFormSchema.safeParse(form))).toEqual(expected));
});

describe('forgot password email', () => {
  it.each([
    ['a@b.co', []],
    ['', ['email: Please enter an email address']],
    ['a@', ['email: Please enter a valid email address']],
  ])('%s', (email, expected) => expect(messages(forgotPasswordSchema.safeParse({ email }))).toEqual(expected));
});

describe('registration form', () => {
  const ok = {
    name: 'Ada Lovelace',
    organisation: '',
    yearBorn: 1990,
    country: 'United Kingdom',
    email: 'ada@example.com',
    confirmEmail: 'ADA@example.com',
    password: 'Robot-Pass-42!',
    confirmPassword: 'Robot-Pass-42!',
    termsAgreed: true,
    marketing: false,
  };
  it.each([
    ['valid', {}, []],
    ['no name', { name: '' }, ['name: Please enter your name']],
    [
      'short organisation',
      { organisation: 'X' },
      ['organisation: Organisation name is too short (minimum is 2 characters)'],
    ],
    ['no country', { country: '' }, ['country: Please enter your country']],
    ['emails differ', { confirmEmail: 'other@example.com' }, ['confirmEmail: Emails do not match']],
    ['passwords differ', { confirmPassword: 'Robot-Pass-43!' }, ['confirmPassword: Passwords do not match']],
    [
      'too young',
      { yearBorn: new Date().getUTCFullYear() - 1 },
      ['yearBorn: You must be at least 6 years old to use this service.'],
    ],
    ['terms', { termsAgreed: false }, ['termsAgreed: You must agree to the terms and the privacy policy']],
  ])('%s', (_l, patch, expected) =>
    expect(messages(registrationFormSchema.safeParse({ ...ok, ...patch }))).toEqual(expected),
  );
});

describe('reset password form', () => {
  it.each([
    [{ email: 'a@b.co', password: 'Robot-Pass-42!', confirmPassword: 'Robot-Pass-42!' }, []],
    [
      { email: 'bad', password: 'Robot-Pass-42!', confirmPassword: 'Robot-Pass-42!' },
      ['email: Please enter a valid email address'],
    ],
    [
      { email: 'a@b.co', password: 'Robot-Pass-42!', confirmPassword: 'x' },
      ['confirmPassword: Passwords do not match'],
    ],
  ])('%j', (form, expected) => expect(messages(resetPasswordFormSchema.safeParse(form))).toEqual(expected));
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

describe('registration form shows every problem at once', () => {
  it('reports the field rules and the confirmations together', () => {
    const result = registrationFormSchema.safeParse({
      name: '',
      organisation: '',
      yearBorn: 1990,
      country: '',
      email: '',
      confirmEmail: 'x@y.z',
      password: 'short',
      confirmPassword: 'other',
      termsAgreed: false,
      marketing: false,
    });
    const fields = new Set(messages(result).map((m) => m.split(':')[0]));
    expect([...fields].sort()).toEqual([
      'confirmEmail',
      'confirmPassword',
      'country',
      'email',
      'name',
      'password',
      'termsAgreed',
    ]);
  });
  it('also when no year was chosen (the select gives NaN)', () => {
    const result = registrationFormSchema.safeParse({
      name: '',
      organisation: '',
      yearBorn: Number.NaN,
      country: '',
      email: '',
      confirmEmail: '',
      password: '',
      confirmPassword: '',
      termsAgreed: false,
      marketing: false,
    });
    const fields = new Set(messages(result).map((m) => m.split(':')[0]));
    expect([...fields].sort()).toEqual(['country', 'email', 'name', 'password', 'termsAgreed', 'yearBorn']);
    expect(messages(result)).toContain('yearBorn: Please select a valid year of birth');
  });
});
