import { TokenType, useraction } from '@portal/contract';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export function resetPassword(input: { email: string; token: string; password: string }) {
  return apiClient.call(useraction, 'UserChangePassword', {
    user: { email: input.email },
    token: input.token,
    tokentype: TokenType.PasswordReset,
    password: input.password,
  });
}

export function useResetPasswordMutation() {
  return useMutation({ mutationFn: resetPassword });
}

/** Whether the emailed reset link still works, so an expired one is said before the form is filled. */
export function resetTokenQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['auth', 'reset-token', token],
    queryFn: () => apiClient.call(useraction, 'UserCheckToken', { token, tokentype: TokenType.PasswordReset }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
