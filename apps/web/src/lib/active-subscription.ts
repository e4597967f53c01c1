import { type ActiveSubscriptionResponse, deriveTier, payment, type TierShort } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Freshness } from '@/config/constants';
import { apiClient, failedAs } from './api-client';

/*
 * GetActiveUserSubscription (spec/001 §7) and the tier derived from it (§4). Shared: the plan cards
 * choose their buttons by it and Buy More Time its price, and one cached answer keeps them agreeing.
 */

export const ACTIVE_SUBSCRIPTION_FAILED = 'Failed to fetch active subscription';

export async function fetchActiveSubscription(email: string): Promise<ActiveSubscriptionResponse> {
  try {
    return await apiClient.call(payment, 'GetActiveUserSubscription', { email });
  } catch (err) {
    throw failedAs(err, ACTIVE_SUBSCRIPTION_FAILED);
  }
}

export const activeSubscriptionKey = (email: string) => ['payment', 'GetActiveUserSubscription', email] as const;

export function activeSubscriptionQueryOptions(email: string) {
  return queryOptions({
    queryKey: activeSubscriptionKey(email),
    queryFn: () => fetchActiveSubscription(email),
    staleTime: Freshness.activeSubscription.staleMs,
    refetchInterval: Freshness.activeSubscription.refetchMs,
  });
}

export function useActiveSubscription(email: string) {
  return useQuery({ ...activeSubscriptionQueryOptions(email), enabled: Boolean(email) });
}

export type KnownTier =
  | { status: 'pending' }
  | { status: 'error'; error: Error }
  | { status: 'known'; tier: TierShort };

/**
 * The tier where a screen must know it before acting (a price, a button): undefined while the
 * answer is awaited, and an error when it could not be had. The spec's derivation turns a failure
 * into Lite for display; a price or an upgrade offered on a guess is not shown instead.
 */
export function knownTier(query: { data?: ActiveSubscriptionResponse | undefined; error: Error | null }): KnownTier {
  if (query.data) return { status: 'known', tier: deriveTier(query.data) };
  if (query.error) return { status: 'error', error: query.error };
  return { status: 'pending' };
}
