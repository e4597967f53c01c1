import { useraction } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { callAction } from '@/lib/api-client';

export function requestPasswordReset(email: string) {
  return callAction(
    useraction,
    'UserForgotPassword',
    { user: { email } },
    { fallbackMessage: 'Failed to reset password' },
  );
}

export function useForgotPasswordMutation() {
  return useMutation({ mutationFn: requestPasswordReset });
}
