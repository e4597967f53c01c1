import { changePasswordIssues, newPasswordIssues } from '@portal/contract';

/**
 * The rules and messages of a new password and its repeat, in one form's wording (spec/000 §5).
 * The rules themselves come from the contract, where the server checks the same; the reset and
 * change forms word them differently, so a form picks its set and its schema reports the issues
 * under its own two fields.
 */

export interface PasswordPairIssue {
  field: 'password' | 'repeat';
  message: string;
}

export interface PasswordPairInput {
  password: string;
  repeat: string;
  /** the account's email: a password may not equal it */
  email: string;
  /** the change form's current password: the new one may not equal it */
  currentPassword?: string;
}

/** What is wrong with a pair, first problem of each field first. */
export type PasswordPairRules = (input: PasswordPairInput) => PasswordPairIssue[];

/**
 * Reset password form, and sign-up: "Password must contain at least one uppercase letter", one
 * message a missing kind of character, ... "Passwords do not match".
 */
export const resetPasswordRules: PasswordPairRules = ({ password, repeat, email }) => [
  ...newPasswordIssues(password, email).map((message) => ({ field: 'password' as const, message })),
  ...(repeat === password ? [] : [{ field: 'repeat' as const, message: 'Passwords do not match' }]),
];

/**
 * Change password form: "Password must contain: 1 uppercase, 1 number and 1 special character."
 * for any missing kind, ... "Passwords do not match.". Its current-password rule is the form's own.
 */
export const changePasswordRules: PasswordPairRules = ({ password, repeat, email, currentPassword = '' }) =>
  changePasswordIssues({ currentPassword, newPassword: password, repeatPassword: repeat, email }).flatMap(
    ({ field, message }): PasswordPairIssue[] =>
      field === 'newPassword'
        ? [{ field: 'password', message }]
        : field === 'repeatPassword'
          ? [{ field: 'repeat', message }]
          : [],
  );

/** A pair's issues under a form's own names for its two fields, for the form schema's check. */
export function passwordPairIssuesAt<P extends string, R extends string>(
  issues: readonly PasswordPairIssue[],
  names: { password: P; repeat: R },
): { path: [P | R]; message: string }[] {
  return issues.map(({ field, message }) => ({ path: [names[field]], message }));
}
