import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { useForm } from 'react-hook-form';
import { PasswordPair } from '@/components/form/password-pair';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { Separator } from '@/components/ui/separator';
import { ERROR_TOAST_MS } from '@/config/constants';
import { serverFieldError } from '@/lib/server-field-error';
import { toast } from '@/lib/toast';
import { type ChangePasswordForm, changePasswordFormSchema } from '../account-forms';
import { useUpdatePasswordMutation } from '../api/update-password';

const EMPTY: ChangePasswordForm = { currentPassword: '', newPassword: '', repeatPassword: '' };

/** Account Details: the read-only email and the change-password form (spec/000 §5 Change password). */
export function AccountDetailsCard({ email }: { email: string }) {
  const mutation = useUpdatePasswordMutation();
  const schema = React.useMemo(() => changePasswordFormSchema(email), [email]);
  const form = useForm<ChangePasswordForm>({ resolver: zodResolver(schema), mode: 'onChange', defaultValues: EMPTY });
  const {
    register,
    handleSubmit,
    reset,
    trigger,
    getFieldState,
    setError,
    formState: { errors, isSubmitting },
  } = form;

  const recheck = (...names: (keyof ChangePasswordForm)[]) => {
    const dirty = names.filter((n) => getFieldState(n).isDirty);
    if (dirty.length) void trigger(dirty);
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      await mutation.mutateAsync({ email, currentPassword: values.currentPassword, newPassword: values.newPassword });
      toast.success('Password Changed', { description: 'Your password has been updated.' });
      reset(EMPTY);
    } catch (err) {
      const newPasswordError = serverFieldError(err, 'password');
      if (newPasswordError) setError('newPassword', { message: newPasswordError }, { shouldFocus: true });
      const description =
        err instanceof Error && err.message ? err.message : 'An unexpected error occurred. Please try again.';
      toast.error('Failed to update password', { description, duration: ERROR_TOAST_MS });
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Account Details</CardTitle>
        <CardDescription>Your sign-in email and password.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <FormField id="account-email" label="Email" hint="Your email cannot be changed here.">
          <Input id="account-email" type="email" value={email} readOnly aria-describedby="account-email-hint" />
        </FormField>
        <Separator />
        <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-labelledby="change-password-heading">
          <h3 id="change-password-heading" className="font-medium">
            Change password
          </h3>
          <FormField id="account-current-password" label="Current password" error={errors.currentPassword?.message}>
            <PasswordInput
              {...fieldProps('account-current-password', errors.currentPassword?.message)}
              autoComplete="current-password"
              toggleLabel="Show current password"
              {...register('currentPassword', { onChange: () => recheck('newPassword') })}
            />
          </FormField>
          <PasswordPair
            form={form}
            password={{
              name: 'newPassword',
              id: 'account-new-password',
              label: 'New password',
              toggleLabel: 'Show new password',
            }}
            repeat={{
              name: 'repeatPassword',
              id: 'account-repeat-password',
              label: 'Repeat new password',
              toggleLabel: 'Show repeated new password',
            }}
            onPasswordChange={() => recheck('repeatPassword')}
          />
          <div>
            <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting || undefined}>
              {isSubmitting && <Loader2Icon className="animate-spin" aria-hidden />}
              Change password
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
