import { deriveTier, TIER_SHORT, type TierShort, tierIndex, type UserTime } from '@portal/contract';

/**
 * The user's tier as the dial panel needs it: the subscription_type CHECK_REMAINING_TIME reports
 * ("Pro Subscription", "Standard"...), or, when it names no tier, the spec's derivation from no
 * subscription data (Lite).
 */
export function dialTimeTier(userTime: Pick<UserTime, 'subscription_type'> | undefined): TierShort {
  const index = tierIndex(userTime?.subscription_type);
  return TIER_SHORT[index] ?? deriveTier(undefined);
}
