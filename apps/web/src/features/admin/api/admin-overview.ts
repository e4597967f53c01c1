import { type AdminOverviewAnswer, adminOverview } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const OVERVIEW_KEY = ['adminOverview', 'GetOverview'] as const;

export async function fetchOverview(): Promise<AdminOverviewAnswer> {
  const { error: _error, ...answer } = await apiClient.call(adminOverview, 'GetOverview', {});
  return answer;
}

/** The figures as of the last fetch; the screen's Refresh asks again (robots online change by the minute). */
export function overviewQueryOptions() {
  return queryOptions({ queryKey: OVERVIEW_KEY, queryFn: fetchOverview, staleTime: 30_000 });
}

export function useOverview() {
  return useQuery(overviewQueryOptions());
}
