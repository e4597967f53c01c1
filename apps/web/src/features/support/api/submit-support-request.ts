import { type SupportRequestFields, support } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { apiClient, describedOr } from '@/lib/api-client';

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
  return useMutation({ mutationFn: submitSupportRequest });
}
