import { TokenType, useraction } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export function verifyEmail(token: string) {
  return apiClient.call(useraction, 'UserVerifyEmail', { token, tokentype: TokenType.EmailVerification });
}

export function useVerifyEmailMutation() {
  return useMutation({ mutationFn: verifyEmail });
}
