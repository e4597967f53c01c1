import { type SupportRequestFields, support } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { callAction } from '@/lib/api-client';

export function submitSupportRequest(input: { email: string; request: SupportRequestFields }) {
  const { robot_model, ...rest } = input.request;
  return callAction(
    support,
    'SubmitSupportRequest',
    { email: input.email, ...rest, ...(robot_model ? { robot_model } : {}) },
    { fallbackMessage: 'Failed to send your request. Please try again.' },
  );
}

export function useSubmitSupportRequestMutation() {
  return useMutation({ mutationFn: submitSupportRequest });
}
