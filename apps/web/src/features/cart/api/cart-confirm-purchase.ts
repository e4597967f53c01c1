import { type Purchase, payment } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient, failedAs } from '@/lib/api-client';

export const CONFIRM_PURCHASE_FAILED = 'Failed to confirm the purchase';

/** ConfirmPurchase: what the returning session bought (and its fulfilment, if the webhook has not run yet). */
export async function confirmPurchase(email: string, sessionId: string): Promise<Purchase | undefined> {
  try {
    return (await apiClient.call(payment, 'ConfirmPurchase', { email, session_id: sessionId })).purchase;
  } catch (err) {
    throw failedAs(err, CONFIRM_PURCHASE_FAILED);
  }
}

export const confirmPurchaseKey = (sessionId: string) => ['payment', 'ConfirmPurchase', sessionId] as const;

export function confirmPurchaseQueryOptions(email: string, sessionId: string) {
  return queryOptions({
    queryKey: confirmPurchaseKey(sessionId),
    queryFn: () => confirmPurchase(email, sessionId),
    // A session's lines never change once paid; there is nothing to refresh.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useConfirmPurchase(email: string, sessionId: string | undefined) {
  return useQuery({ ...confirmPurchaseQueryOptions(email, sessionId ?? ''), enabled: Boolean(sessionId && email) });
}
