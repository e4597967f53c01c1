import { TokenType, useraction } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export function updatePassword(input: { email: string; currentPassword: string; newPassword: string }) {
  return apiClient.call(useraction, 'UserUpdatePassword', {
    tokentype: TokenType.Session,
    user: { email: input.email, password: input.currentPassword },
    password: input.newPassword,
  });
}

export function useUpdatePasswordMutation() {
  return useMutation({ mutationFn: updatePassword });
}
