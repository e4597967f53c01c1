import { license, type SharedRobotEntry } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, describedOr } from '@/lib/api-client';
import { sharesKey } from './robots-get-shares';

export const STOP_SHARE_FAILED = 'Failed to stop sharing. Please try again.';

/** STOPSHAREDLICENSE with one address: answers the owner's remaining shares. */
export async function stopSharing(
  email: string,
  input: { licenseId: string; recipientEmail: string },
): Promise<SharedRobotEntry[]> {
  try {
    const res = await apiClient.call(license, 'STOPSHAREDLICENSE', {
      email,
      license_id: input.licenseId,
      recipient_email: input.recipientEmail,
    });
    return res.sharees_robots;
  } catch (err) {
    throw describedOr(err, STOP_SHARE_FAILED);
  }
}

export function useStopSharing(email: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { licenseId: string; recipientEmail: string }) => stopSharing(email, input),
    onSuccess: (shares) => queryClient.setQueryData(sharesKey(email), shares),
    // A share that ended or was stopped elsewhere meanwhile: show what is true now.
    onError: () => queryClient.invalidateQueries({ queryKey: sharesKey(email) }),
  });
}
