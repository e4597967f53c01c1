import { TIER_SHORT, type TierShort, tierIndex, type UserTime } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@/lib/auth';
import { userTimeQueryOptions } from '@/lib/user-time';

export interface CurrentPlan {
  name: TierShort;
}

/** The plan shown on the profile page: the tier the server reports with the dial time (Lite when none). */
export function planOf(userTime: UserTime): CurrentPlan {
  return { name: TIER_SHORT[Math.max(0, tierIndex(userTime.subscription_type))] as TierShort };
}

export function useCurrentPlan() {
  const { user } = useAuth();
  return useQuery({
    ...userTimeQueryOptions(user?.email ?? '', user?.user_id ?? ''),
    select: planOf,
    enabled: Boolean(user),
  });
}
