import { useraction } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { apiClient, describedOr } from '@/lib/api-client';

export async function deleteAccount(input: { email: string; password: string }) {
  try {
    return await apiClient.call(useraction, 'UserDelete', { user: { email: input.email, password: input.password } });
  } catch (err) {
    throw describedOr(err, 'Failed to delete account');
  }
}

export function useDeleteAccountMutation() {
  return useMutation({ mutationFn: deleteAccount });
}
