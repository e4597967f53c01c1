import { time, type UsageHistory, type UsageRangeDays } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient, failedAs } from '@/lib/api-client';
import { USAGE_TEXT } from '../usage-text';

/** GET_USAGE_HISTORY: the signed-in user's dial time used per day and robot (docs/decisions/029). */
export async function fetchUsageHistory(email: string, days: UsageRangeDays): Promise<UsageHistory> {
  try {
    const { error: _error, ...history } = await apiClient.call(time, 'GET_USAGE_HISTORY', { email, days });
    return history;
  } catch (err) {
    throw failedAs(err, USAGE_TEXT.loadError);
  }
}

export const usageHistoryKey = (email: string, days: UsageRangeDays) =>
  ['time', 'GET_USAGE_HISTORY', email, days] as const;

export function usageHistoryQueryOptions(email: string, days: UsageRangeDays) {
  return queryOptions({
    queryKey: usageHistoryKey(email, days),
    queryFn: () => fetchUsageHistory(email, days),
    // New use arrives a few minutes at a time; a minute is fresh enough for a history.
    staleTime: 60_000,
  });
}

/** Keeps the previous range on screen while another loads, so switching does not blank the chart. */
export function useUsageHistory(email: string, days: UsageRangeDays) {
  return useQuery({
    ...usageHistoryQueryOptions(email, days),
    enabled: Boolean(email),
    placeholderData: keepPreviousData,
  });
}
