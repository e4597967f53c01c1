import { license, type SharedRobotEntry } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, describedOr } from '@/lib/api-client';
import { sharesKey } from './robots-get-shares';

export const SHARE_FAILED = 'Failed to share the robot. Please try again.';

export interface ShareInput {
  licenseId: string;
  recipientEmail: string;
  durationS: number;
}

/** SHARELICENSE: answers the owner's shares, the new one included. */
export async function shareLicense(email: string, input: ShareInput): Promise<SharedRobotEntry[]> {
  try {
    const res = await apiClient.call(license, 'SHARELICENSE', {
      email,
      license_id: input.licenseId,
      recipient_email: input.recipientEmail,
      duration: input.durationS,
    });
    return res.sharees_robots;
  } catch (err) {
    // The server's refusals name the field and say why (yourself, already shared, too many invitations).
    throw describedOr(err, SHARE_FAILED);
  }
}

export function useShareLicense(email: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ShareInput) => shareLicense(email, input),
    onSuccess: (shares) => queryClient.setQueryData(sharesKey(email), shares),
    onError: () => queryClient.invalidateQueries({ queryKey: sharesKey(email) }),
  });
}
