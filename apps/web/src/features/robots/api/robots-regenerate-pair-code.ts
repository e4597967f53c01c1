import { license, type RobotLicense } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, failedAs } from '@/lib/api-client';
import { licensesKey } from '@/lib/robot-licenses';

export const REGENERATE_FAILED = 'Failed to regenerate the pairing code';

/** REGENERATEPAIRCODE: a new pairing code for an unpaired license; the old one stops working. */
export async function regeneratePairCode(email: string, licenseId: string): Promise<RobotLicense | undefined> {
  try {
    const res = await apiClient.call(license, 'REGENERATEPAIRCODE', { email, license_id: licenseId });
    return res.robot_license;
  } catch (err) {
    throw failedAs(err, REGENERATE_FAILED);
  }
}

export function useRegeneratePairCode(email: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (licenseId: string) => regeneratePairCode(email, licenseId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: licensesKey(email) }),
  });
}
