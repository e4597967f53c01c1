import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { Controller, useForm } from 'react-hook-form';
import { CountrySelect } from '@/components/form/country-select';
import { PasswordPair } from '@/components/form/password-pair';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { ERROR_TOAST_MS } from '@/config/constants';
import { serverFieldError } from '@/lib/server-field-error';
import { toast } from '@/lib/toast';
import { useRegisterMutation } from '../api/register';
import { type RegistrationForm, registrationFormSchema } from '../utils/auth-forms';
import { birthYearOptions } from '../utils/signup-options';

const PASSWORD_HINT =
  'At least 8 characters, with an uppercase letter, a lowercase letter, a number and a special character.';

export function SignupForm({ onRegistered }: { onRegistered: (email: string) => void }) {
  const mutation = useRegisterMutation();
  const years = React.useMemo(() => birthYearOptions(), []);
  const form = useForm<RegistrationForm>({
    resolver: zodResolver(registrationFormSchema),
    // Errors first show on submit, then live: blur validation would move the button under the pointer.
    defaultValues: {
      name: '',
      organisation: '',
      country: '',
      email: '',
      confirmEmail: '',
      password: '',
      confirmPassword: '',
      termsAgreed: false,
      marketing: false,
    },
  });
  const {
    register,
    handleSubmit,
    control,
    trigger,
    setError,
    formState: { errors, isSubmitting, isSubmitted },
  } = form;

  // Rules that compare two fields are re-checked when the field they depend on changes.
  const recheck = (...names: (keyof RegistrationForm)[]) => {
    if (isSubmitted) void trigger(names);
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      await mutation.mutateAsync(values);
      onRegistered(values.email.trim());
    } catch (err) {
      // A rule only the server checks (a common password) is shown under its field as well.
      const passwordError = serverFieldError(err, 'user.password');
      if (passwordError) setError('password', { message: passwordError }, { shouldFocus: true });
      const description =
        err instanceof Error && err.message ? err.message : 'An unexpected error occurred. Please try again.';
      toast.error('Sign-up Failed', { description, duration: ERROR_TOAST_MS });
    }
  });

  const e = errors;
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField id="signup-name" label="Name" error={e.name?.message}>
          <Input {...fieldProps('signup-name', e.name?.message)} autoComplete="name" autoFocus {...register('name')} />
        </FormField>
        <FormField id="signup-organisation" label="Organisation (optional)" error={e.organisation?.message}>
          <Input
            {...fieldProps('signup-organisation', e.organisation?.message)}
            autoComplete="organization"
            {...register('organisation')}
          />
        </FormField>
        <FormField id="signup-year" label="Year of birth" error={e.yearBorn?.message}>
          <NativeSelect
            {...fieldProps('signup-year', e.yearBorn?.message)}
            autoComplete="bday-year"
            defaultValue=""
            {...register('yearBorn', { valueAsNumber: true })}
          >
            <option value="" disabled>
              Select year
            </option>
            {years.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <CountrySelect
          id="signup-country"
          error={e.country?.message}
          registration={register('country')}
          placeholderDisabled
        />
        <FormField id="signup-email" label="Email" error={e.email?.message}>
          <Input
            {...fieldProps('signup-email', e.email?.message)}
            type="email"
            autoComplete="email"
            inputMode="email"
            {...register('email', { onChange: () => recheck('confirmEmail', 'password') })}
          />
        </FormField>
        <FormField id="signup-confirm-email" label="Confirm email" error={e.confirmEmail?.message}>
          <Input
            {...fieldProps('signup-confirm-email', e.confirmEmail?.message)}
            type="email"
            autoComplete="email"
            inputMode="email"
            {...register('confirmEmail')}
          />
        </FormField>
        <PasswordPair
          form={form}
          password={{ name: 'password', id: 'signup-password', label: 'Password', toggleLabel: 'Show password' }}
          repeat={{
            name: 'confirmPassword',
            id: 'signup-confirm-password',
            label: 'Confirm password',
            toggleLabel: 'Show confirm password',
          }}
          hint={PASSWORD_HINT}
          onPasswordChange={() => recheck('confirmPassword')}
        />
      </div>

      <div className="grid gap-1.5">
        <div className="flex items-start gap-2">
          <Controller
            control={control}
            name="termsAgreed"
            render={({ field }) => (
              <Checkbox
                id="signup-terms"
                className="mt-0.5"
                checked={field.value}
                onCheckedChange={(checked) => field.onChange(checked === true)}
                onBlur={field.onBlur}
                ref={field.ref}
                aria-invalid={e.termsAgreed ? true : undefined}
                aria-describedby={e.termsAgreed ? 'signup-terms-error' : undefined}
              />
            )}
          />
          <Label htmlFor="signup-terms" className="leading-snug font-normal">
            <span>
              I agree to the terms of service and the{' '}
              <a
                href="/privacy-policy"
                target="_blank"
                rel="noreferrer"
                className="font-medium text-primary underline-offset-4 hover:underline"
              >
                Privacy Policy
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </span>
          </Label>
        </div>
        {e.termsAgreed?.message && (
          <p id="signup-terms-error" role="alert" className="text-sm text-destructive">
            {e.termsAgreed.message}
          </p>
        )}
      </div>

      <div className="flex items-start gap-2">
        <Controller
          control={control}
          name="marketing"
          render={({ field }) => (
            <Checkbox
              id="signup-marketing"
              className="mt-0.5"
              checked={field.value}
              onCheckedChange={(checked) => field.onChange(checked === true)}
              onBlur={field.onBlur}
              ref={field.ref}
            />
          )}
        />
        <Label htmlFor="signup-marketing" className="leading-snug font-normal">
          Send me occasional emails about new features and offers
        </Label>
      </div>

      <Button type="submit" className="w-full" disabled={isSubmitting} aria-busy={isSubmitting || undefined}>
        {isSubmitting && <Loader2Icon className="animate-spin" aria-hidden />}
        Create account
      </Button>
    </form>
  );
}
