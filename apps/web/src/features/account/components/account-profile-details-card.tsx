import { zodResolver } from '@hookform/resolvers/zod';
import type { PublicUser } from '@portal/contract';
import { Loader2Icon } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { CountrySelect } from '@/components/form/country-select';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { ERROR_TOAST_MS } from '@/config/constants';
import { useAuth } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { type ProfileForm, profileFormSchema } from '../account-forms';
import { useUpdateProfileMutation } from '../api/update-profile';

const formValues = (user: PublicUser): ProfileForm => ({
  name: user.name,
  organisation: user.company,
  country: user.country,
  yearBorn: -1,
});

/** Profile Details: name, organisation and country, validated as they are typed (spec/000 §5). */
export function AccountProfileDetailsCard({ user }: { user: PublicUser }) {
  const auth = useAuth();
  const mutation = useUpdateProfileMutation();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ProfileForm>({
    resolver: zodResolver(profileFormSchema),
    mode: 'onChange',
    defaultValues: formValues(user),
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const res = await mutation.mutateAsync({ email: user.email, form: values });
      if (res.user) {
        auth.setUser(res.user);
        reset(formValues(res.user));
      } else reset(values);
      toast.success('Profile Details Updated', { description: 'Your profile details have been saved.' });
    } catch (err) {
      toast.error('Failed to update profile. Please try again.', {
        description: err instanceof Error && err.message ? err.message : undefined,
        duration: ERROR_TOAST_MS,
      });
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile Details</CardTitle>
        <CardDescription>How we address you, and where you are.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="grid gap-4">
          <FormField id="profile-name" label="Name" error={errors.name?.message}>
            <Input {...fieldProps('profile-name', errors.name?.message)} autoComplete="name" {...register('name')} />
          </FormField>
          <FormField id="profile-organisation" label="Organisation" error={errors.organisation?.message}>
            <Input
              {...fieldProps('profile-organisation', errors.organisation?.message)}
              autoComplete="organization"
              {...register('organisation')}
            />
          </FormField>
          <CountrySelect
            id="profile-country"
            error={errors.country?.message}
            registration={register('country')}
            saved={user.country}
          />
          <div>
            <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting || undefined}>
              {isSubmitting && <Loader2Icon className="animate-spin" aria-hidden />}
              Save changes
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
