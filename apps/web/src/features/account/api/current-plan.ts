import { TIER_SHORT, type TierShort } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';

export interface CurrentPlan {
  name: TierShort;
}

/**
 * The plan shown on the profile page. Every account is on Lite until subscriptions exist (spec/001);
 * then this reads the active subscription's tier and nothing else here changes.
 */
export async function fetchCurrentPlan(): Promise<CurrentPlan> {
  return { name: TIER_SHORT[0] };
}

export function currentPlanQueryOptions() {
  return queryOptions({ queryKey: ['account', 'current-plan'], queryFn: fetchCurrentPlan });
}

export function useCurrentPlan() {
  return useQuery(currentPlanQueryOptions());
}
