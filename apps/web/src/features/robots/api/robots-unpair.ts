import { license, type RobotLicense } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, failedAs } from '@/lib/api-client';
import { licensesKey } from '@/lib/robot-licenses';
import { robotsBaseKey } from '@/lib/robots';

export const UNPAIR_FAILED = 'Failed to unpair the robot';

/** UNPAIR: releases the robot bound to a license; the license answers with a new pairing code. */
export async function unpairLicense(email: string, licenseId: string): Promise<RobotLicense | undefined> {
  try {
    const res = await apiClient.call(license, 'UNPAIR', { email, license_id: licenseId });
    return res.robot_license;
  } catch (err) {
    throw failedAs(err, UNPAIR_FAILED);
  }
}

export function useUnpair(email: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (licenseId: string) => unpairLicense(email, licenseId),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: licensesKey(email) });
      await queryClient.invalidateQueries({ queryKey: robotsBaseKey(email) });
    },
  });
}
