import { license, type SharedRobotEntry } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Freshness } from '@/config/constants';
import { apiClient, failedAs } from '@/lib/api-client';

export const SHARES_FAILED = 'Failed to load who this robot is shared with';

/** GETSHAREDLICENSES: the owner's live shares, each with its address and period. */
export async function fetchShares(email: string): Promise<SharedRobotEntry[]> {
  try {
    const res = await apiClient.call(license, 'GETSHAREDLICENSES', { email });
    return res.sharees_robots;
  } catch (err) {
    throw failedAs(err, SHARES_FAILED);
  }
}

export const sharesKey = (email: string) => ['license', 'GETSHAREDLICENSES', email] as const;

export function sharesQueryOptions(email: string) {
  return queryOptions({
    queryKey: sharesKey(email),
    queryFn: () => fetchShares(email),
    staleTime: Freshness.robots.staleMs,
    refetchInterval: Freshness.robots.refetchMs,
  });
}

export function useShares(email: string) {
  return useQuery(sharesQueryOptions(email));
}
