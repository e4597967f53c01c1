import { license, type RobotLicence } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callAction, withMessage } from '@/lib/api-client';
import { licencesKey } from './robots-licences';
import { robotsBaseKey } from './robots-robots';

export const UNPAIR_FAILED = 'Failed to unpair the robot';

/** UNPAIR: releases the robot bound to a licence; the licence answers with a new pairing code. */
export async function unpairLicence(email: string, licenceId: string): Promise<RobotLicence | undefined> {
  try {
    const res = await callAction(license, 'UNPAIR', { email, license_id: licenceId });
    return res.robot_license;
  } catch (err) {
    throw withMessage(err, UNPAIR_FAILED);
  }
}

export function useUnpair(email: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (licenceId: string) => unpairLicence(email, licenceId),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: licencesKey(email) });
      await queryClient.invalidateQueries({ queryKey: robotsBaseKey(email) });
    },
  });
}
