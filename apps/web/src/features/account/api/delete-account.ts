import { useraction } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { callAction } from '@/lib/api-client';

export function deleteAccount(input: { email: string; password: string }) {
  return callAction(
    useraction,
    'UserDelete',
    { user: { email: input.email, password: input.password } },
    { fallbackMessage: 'Failed to delete account' },
  );
}

export function useDeleteAccountMutation() {
  return useMutation({ mutationFn: deleteAccount });
}
