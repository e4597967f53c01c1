import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { CircleAlertIcon, Loader2Icon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { PasswordPair } from '@/components/form/password-pair';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { ERROR_TOAST_MS } from '@/config/constants';
import { serverFieldError } from '@/lib/server-field-error';
import { toast } from '@/lib/toast';
import { resetTokenQueryOptions, useResetPasswordMutation } from '../api/reset-password';
import { type ResetPasswordForm, resetPasswordFormSchema } from '../utils/auth-forms';

export function ResetPasswordPage({ token }: { token: string }) {
  const navigate = useNavigate();
  const tokenCheck = useQuery(resetTokenQueryOptions(token));
  const mutation = useResetPasswordMutation();
  const form = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordFormSchema),
    mode: 'onChange',
    defaultValues: { email: '', password: '', confirmPassword: '' },
  });
  const {
    register,
    handleSubmit,
    trigger,
    getFieldState,
    setError,
    formState: { errors, isSubmitting },
  } = form;

  // Each rule reads another field (password vs email, repeat vs password): re-check the touched ones.
  const recheck = (...names: (keyof ResetPasswordForm)[]) => {
    const dirty = names.filter((n) => getFieldState(n).isDirty);
    if (dirty.length) void trigger(dirty);
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      await mutation.mutateAsync({ email: values.email, token, password: values.password });
      toast.success('Password Reset', {
        description: 'Your password has been changed. Sign in with your new password.',
      });
      await navigate({ to: '/dashboard' });
    } catch (err) {
      const passwordError = serverFieldError(err, 'password');
      if (passwordError) setError('password', { message: passwordError }, { shouldFocus: true });
      const description =
        err instanceof Error && err.message ? err.message : 'Failed to reset password. Please try again.';
      toast.error('Password Reset Failed', { description, duration: ERROR_TOAST_MS });
    }
  });

  const linkExpired = tokenCheck.data?.valid === false;

  return (
    <div className="grid w-full max-w-md gap-4">
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-semibold tracking-tight">Reset Password</h1>
          <CardDescription>Enter the email of your account and choose a new password.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {linkExpired && (
            <Alert variant="destructive">
              <CircleAlertIcon aria-hidden />
              <AlertTitle>This reset link has expired or was already used</AlertTitle>
              <AlertDescription>
                <p>
                  Request a new link from the{' '}
                  <Link
                    to="/auth/login"
                    search={{ target: 'portal', forgot: true }}
                    className="font-medium text-primary underline-offset-4 hover:underline"
                  >
                    sign-in page
                  </Link>
                  .
                </p>
              </AlertDescription>
            </Alert>
          )}
          <form noValidate onSubmit={onSubmit} className="grid gap-4">
            <FormField id="reset-email" label="Email" error={errors.email?.message}>
              <Input
                {...fieldProps('reset-email', errors.email?.message)}
                type="email"
                autoComplete="username"
                inputMode="email"
                autoFocus
                {...register('email', { onChange: () => recheck('password') })}
              />
            </FormField>
            <PasswordPair
              form={form}
              password={{
                name: 'password',
                id: 'reset-password',
                label: 'New password',
                toggleLabel: 'Show new password',
              }}
              repeat={{
                name: 'confirmPassword',
                id: 'reset-confirm',
                label: 'Confirm new password',
                toggleLabel: 'Show confirm new password',
              }}
              onPasswordChange={() => recheck('confirmPassword')}
            />
            <Button type="submit" className="w-full" disabled={isSubmitting} aria-busy={isSubmitting || undefined}>
              {isSubmitting && <Loader2Icon className="animate-spin" aria-hidden />}
              Reset password
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
