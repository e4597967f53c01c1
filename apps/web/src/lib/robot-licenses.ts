import { isClientError } from '@portal/client';
import { license, type UserLicenses } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Freshness } from '@/config/constants';
import { apiClient, failedAs } from './api-client';

export const LICENSES_FAILED = 'Failed to fetch licenses';

function noLicenses(email: string): UserLicenses {
  return { email, asset_licenses: [], robot_licenses: [], shared_robot_licenses: [] };
}

/** GetLicences: the user's own and shared robot licenses; code 23 (no licenses) gives empty lists. */
export async function fetchLicenses(email: string): Promise<UserLicenses> {
  try {
    const res = await apiClient.call(license, 'GetLicences', { email });
    return res.user_licenses ?? noLicenses(email);
  } catch (err) {
    if (isClientError(err, 'empty')) return noLicenses(email);
    throw failedAs(err, LICENSES_FAILED);
  }
}

export const licensesKey = (email: string) => ['license', 'GetLicences', email] as const;

export function licensesQueryOptions(email: string) {
  return queryOptions({
    queryKey: licensesKey(email),
    queryFn: () => fetchLicenses(email),
    staleTime: Freshness.robots.staleMs,
    refetchInterval: Freshness.robots.refetchMs,
  });
}

/** `poll: false` stops the spec's 60 s refetch (the live stream keeps the answer fresh instead). */
export function useLicenses(email: string, { poll = true }: { poll?: boolean } = {}) {
  return useQuery({ ...licensesQueryOptions(email), ...(poll ? {} : { refetchInterval: false as const }) });
}
