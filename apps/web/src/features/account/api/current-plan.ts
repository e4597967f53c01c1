import { Freshness, TIER_SHORT, type TierShort, tierIndex, time } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callAction } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';

export interface CurrentPlan {
  name: TierShort;
}

/**
 * The plan shown on the profile page: the tier the server derives from the user's active
 * subscriptions, as CHECK_REMAINING_TIME reports it (no data means Lite, spec/001 §4).
 */
export async function fetchCurrentPlan(email: string, userId: string): Promise<CurrentPlan> {
  const { user_time } = await callAction(time, 'CHECK_REMAINING_TIME', { email, user_id: userId });
  const index = tierIndex(user_time?.subscription_type);
  return { name: TIER_SHORT[Math.max(0, index)] as TierShort };
}

export function currentPlanQueryOptions(email: string, userId: string) {
  return queryOptions({
    queryKey: ['account', 'current-plan', email],
    queryFn: () => fetchCurrentPlan(email, userId),
    staleTime: Freshness.userTime.staleMs,
  });
}

export function useCurrentPlan() {
  const { user } = useAuth();
  return useQuery({ ...currentPlanQueryOptions(user?.email ?? '', user?.user_id ?? ''), enabled: Boolean(user) });
}
