import * as z from 'zod/mini';
import {
  MINIMUM_AGE_YEARS,
  NAME_MIN,
  ORGANISATION_MIN,
  PASSWORD_MAX,
  PASSWORD_MIN,
  YEAR_BORN_MIN,
} from '../constants.ts';
import { COUNTRY_NAMES } from './countries.ts';

/**
 * The account rules of spec/000 section 5 as pure functions and zod schemas, with the spec's
 * exact messages. The server checks them on every account action, and the web app's forms build on them.
 */

/** Anything that is not a letter, a digit or white space counts as a special character. */
const SPECIAL = /[^\p{L}\p{N}\s]/u;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
const DIGIT = /\p{N}/u;

interface CharacterClasses {
  upper: boolean;
  lower: boolean;
  digit: boolean;
  special: boolean;
}

function characterClasses(password: string): CharacterClasses {
  return {
    upper: UPPER.test(password),
    lower: LOWER.test(password),
    digit: DIGIT.test(password),
    special: SPECIAL.test(password),
  };
}

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Rules for a new password (reset form, registration and the server): the spec's reset-form
 * messages, in the order the spec lists them.
 */
export function newPasswordIssues(password: string, email: string): string[] {
  const issues: string[] = [];
  const has = characterClasses(password);
  if (password.length < PASSWORD_MIN) issues.push('Password must be at least 8 characters');
  if (password.length >= PASSWORD_MAX) issues.push('Password must be less than 256 characters');
  if (!has.upper) issues.push('Password must contain at least one uppercase letter');
  if (!has.lower) issues.push('Password must contain at least one lowercase letter');
  if (!has.digit) issues.push('Password must contain at least one number');
  if (!has.special) issues.push('Password must contain at least one special character');
  if (email && sameText(password, email)) issues.push('Password must not be the same as email');
  return issues;
}

/**
 * A new password found in the list of common and breached passwords. Only the server checks it
 * (the list is too large for the web app); the forms show this message under the password field.
 */
export const COMMON_PASSWORD_MESSAGE =
  'This password is too common: it appears in lists of breached passwords. Please choose another.';

/** Rules of the change-password form, with its own wording (full stops, one composite message). */
export function changePasswordIssues(input: {
  currentPassword: string;
  newPassword: string;
  repeatPassword: string;
  email: string;
}): { field: 'currentPassword' | 'newPassword' | 'repeatPassword'; message: string }[] {
  const issues: { field: 'currentPassword' | 'newPassword' | 'repeatPassword'; message: string }[] = [];
  const { currentPassword, newPassword, repeatPassword, email } = input;
  if (!currentPassword) issues.push({ field: 'currentPassword', message: 'Current password is required.' });
  if (newPassword.length < PASSWORD_MIN)
    issues.push({ field: 'newPassword', message: 'Password must be at least 8 characters.' });
  if (newPassword.length >= PASSWORD_MAX)
    issues.push({ field: 'newPassword', message: 'Password must be less than 256 characters.' });
  const has = characterClasses(newPassword);
  if (!(has.upper && has.lower && has.digit && has.special))
    issues.push({
      field: 'newPassword',
      message: 'Password must contain: 1 uppercase, 1 number and 1 special character.',
    });
  if (currentPassword && newPassword && currentPassword === newPassword)
    issues.push({ field: 'newPassword', message: 'New password cannot be the same as the current password.' });
  if (email && newPassword && sameText(newPassword, email))
    issues.push({ field: 'newPassword', message: 'Password must not be the same as email.' });
  if (repeatPassword !== newPassword) issues.push({ field: 'repeatPassword', message: 'Passwords do not match.' });
  return issues;
}

/** Year of birth: 1900 to the current year, and at least six years old. */
export function yearOfBirthIssue(year: number, now: Date = new Date()): string | undefined {
  const current = now.getUTCFullYear();
  if (!Number.isInteger(year) || year < YEAR_BORN_MIN || year > current) return 'Please select a valid year of birth';
  if (current - year < MINIMUM_AGE_YEARS) return 'You must be at least 6 years old to use this service.';
  return undefined;
}

// ---- zod schemas of the fields ------------------------------------------------------------

// No rule aborts the parse, so a form shows every field's problem at once (an aborted field would
// hide the object-level checks: confirmations, password rules, terms).
export const nameRule = z.string().check(
  z.trim(),
  z.refine((v) => v.length > 0, { error: 'Please enter your name' }),
  z.refine((v) => v.length === 0 || v.length >= NAME_MIN, { error: 'Name must be at least 3 characters' }),
  z.refine((v) => v.length <= 100, { error: 'Name must be at most 100 characters' }),
);

export const organisationRule = z.string().check(
  z.trim(),
  z.maxLength(100, { error: 'Organisation name is too long (maximum is 100 characters)' }),
  z.refine((v) => v.length === 0 || v.length >= ORGANISATION_MIN, {
    error: 'Organisation name is too short (minimum is 2 characters)',
  }),
);

export const countryRule = z.string().check(
  z.trim(),
  z.refine((v) => v.length > 0, { error: 'Please enter your country' }),
  z.refine((v) => v.length === 0 || COUNTRY_NAMES.has(v), { error: 'Please choose a country from the list' }),
);

export const yearBornRule = z.number({ error: 'Please select a valid year of birth' }).check(
  z.int({ error: 'Please select a valid year of birth' }),
  z.superRefine((year, ctx) => {
    const issue = yearOfBirthIssue(year);
    if (issue) ctx.addIssue({ code: 'custom', message: issue });
  }),
);

/** The fields the server takes for a new account. */
export const registrationFields = z
  .object({
    email: z.pipe(
      z.string().check(z.trim(), z.toLowerCase()),
      z.email({ error: 'Invalid email address' }).check(z.maxLength(254)),
    ),
    password: z.string(),
    name: nameRule,
    year_born: yearBornRule,
    country: countryRule,
    company: z._default(z.optional(organisationRule), ''),
    profession: z._default(z.optional(z.string().check(z.trim(), z.maxLength(100))), ''),
    marketing: z._default(z.boolean(), false),
    termsagreed: z.literal(true, { error: 'You must agree to the terms and the privacy policy' }),
  })
  .check(
    z.superRefine((user, ctx) => {
      for (const message of newPasswordIssues(user.password, user.email))
        ctx.addIssue({ code: 'custom', path: ['password'], message });
    }),
  );
