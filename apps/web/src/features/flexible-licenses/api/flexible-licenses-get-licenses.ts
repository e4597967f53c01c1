import { isClientError } from '@portal/client';
import { license, type RobotLicense } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Freshness } from '@/config/constants';
import { apiClient, failedAs } from '@/lib/api-client';

export const LICENSES_FAILED = 'Failed to fetch licenses';

/**
 * Every GetLicences query starts with this key (the Robot Manager's too), so a save refreshes the
 * licenses wherever they are shown.
 */
export const FLEX_LICENSES_KEY = ['license', 'GetLicences'] as const;

/** GetLicences, for the pairing codes of the saved slots' licenses; code 23 (no licenses) is an empty list. */
export async function fetchOwnLicenses(email: string): Promise<RobotLicense[]> {
  try {
    const res = await apiClient.call(license, 'GetLicences', { email });
    return res.user_licenses?.robot_licenses ?? [];
  } catch (err) {
    if (isClientError(err, 'empty')) return [];
    throw failedAs(err, LICENSES_FAILED);
  }
}

export function ownLicensesQueryOptions(email: string) {
  return queryOptions({
    // Its own entry under the shared prefix: the Robot Manager's entry holds the whole answer.
    queryKey: [...FLEX_LICENSES_KEY, email, 'robot_licenses'] as const,
    queryFn: () => fetchOwnLicenses(email),
    staleTime: Freshness.robots.staleMs,
  });
}

export function useOwnLicenses(email: string) {
  return useQuery(ownLicensesQueryOptions(email));
}
