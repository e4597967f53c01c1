import { useraction } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import type { ProfileForm } from '../account-forms';

export function updateProfile(input: { email: string; form: ProfileForm }) {
  return apiClient.call(useraction, 'UserUpdate', {
    user: {
      email: input.email,
      name: input.form.name,
      company: input.form.organisation,
      country: input.form.country,
      // The year is not on the profile form; -1 keeps the stored one (spec/000 §3).
      year_born: -1,
    },
  });
}

export function useUpdateProfileMutation() {
  return useMutation({ mutationFn: updateProfile });
}
