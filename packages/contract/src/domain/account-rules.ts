import { z } from 'zod';
import {
  DELETE_CONFIRMATION_TEXT,
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
 * exact messages. The web forms and the server both use them.
 */

/** Anything that is not a letter, a digit or white space counts as a special character. */
const SPECIAL = /[^\p{L}\p{N}\s]/u;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
const DIGIT = /\p{N}/u;

export interface CharacterClasses {
  upper: boolean;
  lower: boolean;
  digit: boolean;
  special: boolean;
}

export function characterClasses(password: string): CharacterClasses {
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

export function deleteConfirmationValid(confirmation: string, password: string): boolean {
  return confirmation.trim().toLowerCase() === DELETE_CONFIRMATION_TEXT && password.length > 0;
}

// ---- zod schemas of the forms -------------------------------------------------------------

// No rule aborts the parse, so a form shows every field's problem at once (an aborted field would
// hide the object-level checks: confirmations, password rules, terms).
export const nameRule = z
  .string()
  .trim()
  .refine((v) => v.length > 0, { error: 'Please enter your name' })
  .refine((v) => v.length === 0 || v.length >= NAME_MIN, { error: 'Name must be at least 3 characters' })
  .refine((v) => v.length <= 100, { error: 'Name must be at most 100 characters' });

export const organisationRule = z
  .string()
  .trim()
  .max(100, { error: 'Organisation name is too long (maximum is 100 characters)' })
  .refine((v) => v.length === 0 || v.length >= ORGANISATION_MIN, {
    error: 'Organisation name is too short (minimum is 2 characters)',
  });

export const countryRule = z
  .string()
  .trim()
  .refine((v) => v.length > 0, { error: 'Please enter your country' })
  .refine((v) => v.length === 0 || COUNTRY_NAMES.has(v), { error: 'Please choose a country from the list' });

export const yearBornRule = z
  .number({ error: 'Please select a valid year of birth' })
  .int({ error: 'Please select a valid year of birth' })
  .superRefine((year, ctx) => {
    const issue = yearOfBirthIssue(year);
    if (issue) ctx.addIssue({ code: 'custom', message: issue });
  });

const emailShape = z.email();
export const emailEntryRule = z
  .string()
  .trim()
  .refine((v) => v.length > 0, { error: 'Please enter an email address' })
  .refine((v) => v.length === 0 || emailShape.safeParse(v).success, { error: 'Please enter a valid email address' });

/** The fields the server takes for a new account. */
export const registrationFields = z
  .object({
    email: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.email({ error: 'Invalid email address' }).max(254)),
    password: z.string(),
    name: nameRule,
    year_born: yearBornRule,
    country: countryRule,
    company: organisationRule.optional().default(''),
    profession: z.string().trim().max(100).optional().default(''),
    marketing: z.boolean().default(false),
    termsagreed: z.literal(true, { error: 'You must agree to the terms and the privacy policy' }),
  })
  .superRefine((user, ctx) => {
    for (const message of newPasswordIssues(user.password, user.email))
      ctx.addIssue({ code: 'custom', path: ['password'], message });
  });

export const loginFormSchema = z.object({
  email: z.email({ error: 'Invalid email address' }),
  password: z
    .string()
    .min(PASSWORD_MIN, { error: 'Password must be at least 8 characters' })
    .max(PASSWORD_MAX - 1, { error: 'Password must be less than 256 characters' }),
  rememberMe: z.boolean(),
});
export type LoginForm = z.infer<typeof loginFormSchema>;

export const forgotPasswordSchema = z.object({ email: emailEntryRule });

export const registrationFormSchema = z
  .object({
    name: nameRule,
    organisation: organisationRule,
    // The year select left on its prompt gives NaN. z.number() alone would reject it with an aborting
    // issue, which skips the checks below (password, confirmations, terms); the year rule there reports it.
    yearBorn: z.union([z.number(), z.nan()], { error: 'Please select a valid year of birth' }),
    country: countryRule,
    email: emailEntryRule,
    confirmEmail: z.string().trim(),
    password: z.string(),
    confirmPassword: z.string(),
    termsAgreed: z.boolean(),
    marketing: z.boolean(),
  })
  .superRefine((form, ctx) => {
    const yearIssue = yearOfBirthIssue(form.yearBorn);
    if (yearIssue) ctx.addIssue({ code: 'custom', path: ['yearBorn'], message: yearIssue });
    if (form.confirmEmail.toLowerCase() !== form.email.toLowerCase())
      ctx.addIssue({ code: 'custom', path: ['confirmEmail'], message: 'Emails do not match' });
    for (const message of newPasswordIssues(form.password, form.email))
      ctx.addIssue({ code: 'custom', path: ['password'], message });
    if (form.confirmPassword !== form.password)
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'Passwords do not match' });
    if (!form.termsAgreed)
      ctx.addIssue({
        code: 'custom',
        path: ['termsAgreed'],
        message: 'You must agree to the terms and the privacy policy',
      });
  });
export type RegistrationForm = z.infer<typeof registrationFormSchema>;

export const resetPasswordFormSchema = z
  .object({
    email: z
      .string()
      .trim()
      .pipe(z.email({ error: 'Please enter a valid email address' })),
    password: z.string(),
    confirmPassword: z.string(),
  })
  .superRefine((form, ctx) => {
    for (const message of newPasswordIssues(form.password, form.email))
      ctx.addIssue({ code: 'custom', path: ['password'], message });
    if (form.confirmPassword !== form.password)
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'Passwords do not match' });
  });
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;

export function changePasswordFormSchema(email: string) {
  return z
    .object({ currentPassword: z.string(), newPassword: z.string(), repeatPassword: z.string() })
    .superRefine((form, ctx) => {
      for (const issue of changePasswordIssues({ ...form, email }))
        ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
    });
}
export type ChangePasswordForm = z.infer<ReturnType<typeof changePasswordFormSchema>>;

export const profileFormSchema = z.object({
  name: nameRule,
  organisation: organisationRule,
  country: countryRule,
  /** Not on the form; sent as -1 (spec/000 §3). */
  yearBorn: z.number().int({ error: 'Please select your year of birth' }),
});
export type ProfileForm = z.infer<typeof profileFormSchema>;

export const deleteAccountFormSchema = z
  .object({ confirmation: z.string(), password: z.string() })
  .refine((f) => deleteConfirmationValid(f.confirmation, f.password), {
    error: "Please type 'delete my account' to confirm deletion",
    path: ['confirmation'],
  });
