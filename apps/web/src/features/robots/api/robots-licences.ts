import { ErrorCodes, Freshness, license, type UserLicences } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiCallError, callAction, withMessage } from '@/lib/api-client';

export const LICENCES_FAILED = 'Failed to fetch licenses';

function noLicences(email: string): UserLicences {
  return { email, asset_licenses: [], robot_licenses: [], shared_robot_licenses: [] };
}

/** GetLicences: the user's own and shared robot licences; code 23 (no licences) gives empty lists. */
export async function fetchLicences(email: string): Promise<UserLicences> {
  try {
    const res = await callAction(license, 'GetLicences', { email });
    return res.user_licenses ?? noLicences(email);
  } catch (err) {
    if (err instanceof ApiCallError && err.code === ErrorCodes.NO_LICENCES.code) return noLicences(email);
    throw withMessage(err, LICENCES_FAILED);
  }
}

export const licencesKey = (email: string) => ['license', 'GetLicences', email] as const;

export function licencesQueryOptions(email: string) {
  return queryOptions({
    queryKey: licencesKey(email),
    queryFn: () => fetchLicences(email),
    staleTime: Freshness.robots.staleMs,
    refetchInterval: Freshness.robots.refetchMs,
  });
}

export function useLicences(email: string) {
  return useQuery(licencesQueryOptions(email));
}
