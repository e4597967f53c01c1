import { useraction } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import type { RegistrationForm } from '../utils/auth-forms';

export function registerAccount(form: RegistrationForm) {
  return apiClient.call(useraction, 'UserRegister', {
    user: {
      email: form.email,
      password: form.password,
      name: form.name,
      year_born: form.yearBorn,
      country: form.country,
      company: form.organisation,
      marketing: form.marketing,
      termsagreed: true,
    },
  });
}

export function useRegisterMutation() {
  return useMutation({ mutationFn: registerAccount });
}
