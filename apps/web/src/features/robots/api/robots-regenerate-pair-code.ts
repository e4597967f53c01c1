import { license, type RobotLicence } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callAction, withMessage } from '@/lib/api-client';
import { licencesKey } from './robots-licences';

export const REGENERATE_FAILED = 'Failed to regenerate the pairing code';

/** REGENERATEPAIRCODE: a new pairing code for an unpaired licence; the old one stops working. */
export async function regeneratePairCode(email: string, licenceId: string): Promise<RobotLicence | undefined> {
  try {
    const res = await callAction(license, 'REGENERATEPAIRCODE', { email, license_id: licenceId });
    return res.robot_license;
  } catch (err) {
    throw withMessage(err, REGENERATE_FAILED);
  }
}

export function useRegeneratePairCode(email: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (licenceId: string) => regeneratePairCode(email, licenceId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: licencesKey(email) }),
  });
}
