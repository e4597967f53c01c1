import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { registrationFormSchema, resetPasswordFormSchema } from './auth-forms';
import { forgotPasswordSchema, isEmail, loginFormSchema } from './login-forms';

const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? [] : (r.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

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

describe('isEmail (the sign-in page, without zod) agrees with z.email()', () => {
  it.each([
    'a@b.co',
    'first.last+tag@sub.example.org',
    "o'brien@example.ie",
    'under_score-dash@ex-ample.com',
    'a@b',
    'a@b.c',
    '.a@b.co',
    'a..b@b.co',
    'a.@b.co',
    'a@-b.co',
    'a@b..co',
    'a b@b.co',
    'a@b.co ',
    '@b.co',
    'a@',
    'é@b.co',
    'a@b.c0m',
  ])('%s', (email) => expect(isEmail(email)).toBe(z.email().safeParse(email).success));
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
