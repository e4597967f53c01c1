import { describe, expect, it } from 'vitest';
import { registrationFormSchema } from './auth-forms';
import { birthYearOptions } from './signup-options';

describe('birthYearOptions', () => {
  it.each([
    [new Date('2026-06-01T00:00:00Z'), 2026, 127],
    [new Date('2030-01-01T00:00:00Z'), 2030, 131],
  ])('at %s offers %i down to 1900 (%i years)', (now, first, count) => {
    const years = birthYearOptions(now);
    expect(years[0]).toBe(first);
    expect(years.at(-1)).toBe(1900);
    expect(years).toHaveLength(count);
  });
});

describe('registrationFormSchema as the sign-up form uses it', () => {
  const thisYear = new Date().getUTCFullYear();
  const valid = {
    name: 'Ada Lovelace',
    organisation: '',
    yearBorn: 1990,
    country: 'United Kingdom',
    email: 'ada@example.test',
    confirmEmail: 'ADA@example.test',
    password: 'Robot-Pass-42!',
    confirmPassword: 'Robot-Pass-42!',
    termsAgreed: true,
    marketing: false,
  };
  const messages = (patch: Record<string, unknown>) => {
    const parsed = registrationFormSchema.safeParse({ ...valid, ...patch });
    return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it.each([
    ['a valid form', {}, []],
    ['no name', { name: '' }, ['name: Please enter your name']],
    [
      'a short organisation',
      { organisation: 'A' },
      ['organisation: Organisation name is too short (minimum is 2 characters)'],
    ],
    [
      'no year (the select left on its prompt)',
      { yearBorn: Number.NaN },
      ['yearBorn: Please select a valid year of birth'],
    ],
    ['a year before 1900', { yearBorn: 1899 }, ['yearBorn: Please select a valid year of birth']],
    [
      'a child under 6',
      { yearBorn: thisYear - 2 },
      ['yearBorn: You must be at least 6 years old to use this service.'],
    ],
    ['no country', { country: '' }, ['country: Please enter your country']],
    ['a different confirmation email', { confirmEmail: 'other@example.test' }, ['confirmEmail: Emails do not match']],
    [
      'a different confirmation password',
      { confirmPassword: 'Robot-Pass-43!' },
      ['confirmPassword: Passwords do not match'],
    ],
    ['terms not agreed', { termsAgreed: false }, ['termsAgreed: You must agree to the terms and the privacy policy']],
  ])('%s', (_label, patch, expected) => {
    expect(messages(patch)).toEqual(expected);
  });
});
