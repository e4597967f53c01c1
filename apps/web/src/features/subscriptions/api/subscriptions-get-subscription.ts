import { isClientError } from '@portal/client';
import { type PaymentProviderSubscription, payment } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient, failedAs } from '@/lib/api-client';

export const GET_SUBSCRIPTION_FAILED = 'Failed to fetch subscription';

/**
 * GetSubscription (spec/001 §7): one payment-provider subscription with its items. An answer
 * without one, or the server's "not found" (an id that is not the user's), is not an error: the
 * page says "No subscription found".
 */
export async function fetchSubscription(
  email: string,
  subscriptionId: string,
): Promise<PaymentProviderSubscription | null> {
  try {
    const res = await apiClient.call(payment, 'GetSubscription', { email, subscription_id: subscriptionId });
    return res.subscription ?? null;
  } catch (err) {
    if (isClientError(err, 'not_found')) return null;
    throw failedAs(err, GET_SUBSCRIPTION_FAILED);
  }
}

export const subscriptionKey = (email: string, subscriptionId: string) =>
  ['payment', 'GetSubscription', email, subscriptionId] as const;

export function subscriptionQueryOptions(email: string, subscriptionId: string) {
  return queryOptions({
    queryKey: subscriptionKey(email, subscriptionId),
    queryFn: () => fetchSubscription(email, subscriptionId),
  });
}

export function useSubscription(email: string, subscriptionId: string) {
  return useQuery({ ...subscriptionQueryOptions(email, subscriptionId), enabled: Boolean(email && subscriptionId) });
}
