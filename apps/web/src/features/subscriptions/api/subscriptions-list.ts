import { payment, type RobotDriverSubscription, type UserSubscription } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient, failedAs } from '@/lib/api-client';

export const LIST_SUBSCRIPTIONS_FAILED = 'Failed to list subscriptions';

export interface SubscriptionList {
  user_subscriptions: UserSubscription[];
  robot_driver_subscriptions: RobotDriverSubscription[];
}

/** ListSubscriptions (spec/001 §7): the user's plan and robot-driver subscriptions, every status. */
export async function fetchSubscriptions(email: string): Promise<SubscriptionList> {
  try {
    const res = await apiClient.call(payment, 'ListSubscriptions', { email });
    return { user_subscriptions: res.user_subscriptions, robot_driver_subscriptions: res.robot_driver_subscriptions };
  } catch (err) {
    throw failedAs(err, LIST_SUBSCRIPTIONS_FAILED);
  }
}

export const subscriptionsKey = (email: string) => ['payment', 'ListSubscriptions', email] as const;

export function subscriptionsQueryOptions(email: string) {
  return queryOptions({ queryKey: subscriptionsKey(email), queryFn: () => fetchSubscriptions(email) });
}

export function useSubscriptions(email: string) {
  return useQuery({ ...subscriptionsQueryOptions(email), enabled: Boolean(email) });
}
