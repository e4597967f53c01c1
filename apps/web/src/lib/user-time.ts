import { ClientError } from '@portal/client';
import { time, type UserTime } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Freshness } from '@/config/constants';
import { apiClient, failedAs } from './api-client';

export const CHECK_TIME_FAILED = 'Failed to check remaining time';
export const NO_USER_TIME = 'No user time data received';

/**
 * CHECK_REMAINING_TIME: the signed-in user's dial time in both pools, and the tier the server
 * derives. Shared by the dial-time panel and the profile's plan, so both read one cached answer.
 */
export async function fetchUserTime(email: string, userId: string): Promise<UserTime> {
  let userTime: UserTime | undefined;
  try {
    userTime = (await apiClient.call(time, 'CHECK_REMAINING_TIME', { email, user_id: userId })).user_time;
  } catch (err) {
    throw failedAs(err, CHECK_TIME_FAILED);
  }
  if (!userTime) throw new ClientError({ kind: 'invalid_response', status: 200, description: NO_USER_TIME });
  return userTime;
}

export const userTimeKey = (email: string) => ['time', 'CHECK_REMAINING_TIME', email] as const;

export function userTimeQueryOptions(email: string, userId: string) {
  return queryOptions({
    queryKey: userTimeKey(email),
    queryFn: () => fetchUserTime(email, userId),
    staleTime: Freshness.userTime.staleMs,
    refetchInterval: Freshness.userTime.refetchMs,
  });
}

export function useUserTime(email: string, userId: string) {
  return useQuery(userTimeQueryOptions(email, userId));
}
