import { countryRule, nameRule, organisationRule, yearOfBirthIssue } from '@portal/contract';
import * as z from 'zod/mini';
import { passwordPairIssuesAt, resetPasswordRules } from '@/components/form/password-pair-rules';

/**
 * The sign-up and reset-password forms of spec/000 §2 and §5, with the
 * spec's exact messages. The field rules come from the contract, where the server checks the same.
 */

const emailShape = z.email();
const emailEntryRule = z.string().check(
  z.trim(),
  z.refine((v) => v.length > 0, { error: 'Please enter an email address' }),
  z.refine((v) => v.length === 0 || emailShape.safeParse(v).success, { error: 'Please enter a valid email address' }),
);

// The sign-in and forgot-password forms are in login-forms.ts, without zod.

/** Both forms word their password pair as the reset form does (spec/000 §5 Reset password form). */
const passwordIssues = (form: { email: string; password: string; confirmPassword: string }) =>
  passwordPairIssuesAt(
    resetPasswordRules({ password: form.password, repeat: form.confirmPassword, email: form.email }),
    { password: 'password', repeat: 'confirmPassword' },
  );

export const registrationFormSchema = z
  .object({
    name: nameRule,
    organisation: organisationRule,
    // The year select left on its prompt gives NaN. z.number() alone would reject it with an aborting
    // issue, which skips the checks below (password, confirmations, terms); the year rule there reports it.
    yearBorn: z.union([z.number(), z.nan()], { error: 'Please select a valid year of birth' }),
    country: countryRule,
    email: emailEntryRule,
    confirmEmail: z.string().check(z.trim()),
    password: z.string(),
    confirmPassword: z.string(),
    termsAgreed: z.boolean(),
    marketing: z.boolean(),
  })
  .check(
    z.superRefine((form, ctx) => {
      const yearIssue = yearOfBirthIssue(form.yearBorn);
      if (yearIssue) ctx.addIssue({ code: 'custom', path: ['yearBorn'], message: yearIssue });
      if (form.confirmEmail.toLowerCase() !== form.email.toLowerCase())
        ctx.addIssue({ code: 'custom', path: ['confirmEmail'], message: 'Emails do not match' });
      for (const issue of passwordIssues(form)) ctx.addIssue({ code: 'custom', ...issue });
      if (!form.termsAgreed)
        ctx.addIssue({
          code: 'custom',
          path: ['termsAgreed'],
          message: 'You must agree to the terms and the privacy policy',
        });
    }),
  );
export type RegistrationForm = z.infer<typeof registrationFormSchema>;

export const resetPasswordFormSchema = z
  .object({
    email: z.pipe(z.string().check(z.trim()), z.email({ error: 'Please enter a valid email address' })),
    password: z.string(),
    confirmPassword: z.string(),
  })
  .check(
    z.superRefine((form, ctx) => {
      for (const issue of passwordIssues(form)) ctx.addIssue({ code: 'custom', ...issue });
    }),
  );
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;
