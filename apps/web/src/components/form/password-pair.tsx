import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';

/** One of the pair's two fields: the form's name for it, its input id, label and show/hide toggle's name. */
export interface PasswordPairField<T extends FieldValues> {
  name: Path<T>;
  id: string;
  label: string;
  toggleLabel: string;
}

/**
 * A new password and its repeat (sign-up, reset and change password). Both are new-password fields
 * for password managers, each with its label, show/hide toggle and error wired for screen readers.
 * The messages are the form's: its schema checks the pair with its rules (password-pair-rules.ts).
 * The two fields are siblings, so they sit in the form's own grid.
 */
export function PasswordPair<T extends FieldValues>({
  form,
  password,
  repeat,
  hint,
  onPasswordChange,
}: {
  form: Pick<UseFormReturn<T>, 'register' | 'getFieldState' | 'formState'>;
  password: PasswordPairField<T>;
  repeat: PasswordPairField<T>;
  /** what a new password needs, under it until it has an error */
  hint?: string;
  /** runs as the new password changes, for the form to re-check the fields compared with it */
  onPasswordChange?: () => void;
}) {
  const passwordError = form.getFieldState(password.name, form.formState).error?.message;
  const repeatError = form.getFieldState(repeat.name, form.formState).error?.message;
  return (
    <>
      <FormField id={password.id} label={password.label} error={passwordError} hint={hint}>
        <PasswordInput
          {...fieldProps(password.id, passwordError)}
          aria-describedby={passwordError ? `${password.id}-error` : hint ? `${password.id}-hint` : undefined}
          autoComplete="new-password"
          toggleLabel={password.toggleLabel}
          {...form.register(password.name, { onChange: onPasswordChange })}
        />
      </FormField>
      <FormField id={repeat.id} label={repeat.label} error={repeatError}>
        <PasswordInput
          {...fieldProps(repeat.id, repeatError)}
          autoComplete="new-password"
          toggleLabel={repeat.toggleLabel}
          {...form.register(repeat.name)}
        />
      </FormField>
    </>
  );
}
