import { changePasswordIssues, countryRule, nameRule, organisationRule } from '@portal/contract';
import * as z from 'zod/mini';
import { changePasswordRules, passwordPairIssuesAt } from '@/components/form/password-pair-rules';

/**
 * The profile page's forms (spec/000 §2 and §5): change password, profile details and account
 * deletion, with the spec's exact messages. The field rules come from the contract, where the server
 * checks the same.
 */

export function changePasswordFormSchema(email: string) {
  return z.object({ currentPassword: z.string(), newPassword: z.string(), repeatPassword: z.string() }).check(
    z.superRefine((form, ctx) => {
      for (const issue of changePasswordIssues({ ...form, email }))
        if (issue.field === 'currentPassword')
          ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
      const pair = changePasswordRules({
        password: form.newPassword,
        repeat: form.repeatPassword,
        email,
        currentPassword: form.currentPassword,
      });
      for (const issue of passwordPairIssuesAt(pair, { password: 'newPassword', repeat: 'repeatPassword' }))
        ctx.addIssue({ code: 'custom', ...issue });
    }),
  );
}
export type ChangePasswordForm = z.infer<ReturnType<typeof changePasswordFormSchema>>;

export const profileFormSchema = z.object({
  name: nameRule,
  organisation: organisationRule,
  country: countryRule,
  /** Not on the form; sent as -1 (spec/000 §3). */
  yearBorn: z.number().check(z.int({ error: 'Please select your year of birth' })),
});
export type ProfileForm = z.infer<typeof profileFormSchema>;

/** What the user types to confirm deletion; the server asks for the password, not this text. */
export const DELETE_CONFIRMATION_TEXT = 'delete my account';

export function deleteConfirmationValid(confirmation: string, password: string): boolean {
  return confirmation.trim().toLowerCase() === DELETE_CONFIRMATION_TEXT && password.length > 0;
}

export const deleteAccountFormSchema = z.object({ confirmation: z.string(), password: z.string() }).check(
  z.refine((f) => deleteConfirmationValid(f.confirmation, f.password), {
    error: "Please type 'delete my account' to confirm deletion",
    path: ['confirmation'],
  }),
);
