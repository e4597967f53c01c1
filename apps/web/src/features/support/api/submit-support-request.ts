import { type SupportRequestFields, support } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, describedOr } from '@/lib/api-client';
import { mySupportRequestsKey } from './my-support-requests';

export async function submitSupportRequest(input: { email: string; request: SupportRequestFields }) {
  const { robot_model, ...rest } = input.request;
  try {
    return await apiClient.call(support, 'SubmitSupportRequest', {
      email: input.email,
      ...rest,
      ...(robot_model ? { robot_model } : {}),
    });
  } catch (err) {
    throw describedOr(err, 'Failed to send your request. Please try again.');
  }
}

export function useSubmitSupportRequestMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitSupportRequest,
    // The new request heads the list of "Your requests".
    onSuccess: (_answer, input) => queryClient.invalidateQueries({ queryKey: mySupportRequestsKey(input.email) }),
  });
}
