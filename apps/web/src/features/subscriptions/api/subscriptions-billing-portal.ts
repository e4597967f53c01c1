import { ClientError } from '@portal/client';
import { payment } from '@portal/contract';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ERROR_TOAST_MS, Freshness } from '@/config/constants';
import { apiClient, failedAs } from '@/lib/api-client';
import { redirectBrowser } from '@/lib/redirect';
import { toast } from '@/lib/toast';

export const CUSTOMER_ID_FAILED = 'Failed to fetch customer ID';
export const BILLING_PORTAL_FAILED = 'Failed to update payment information';
export const BILLING_PORTAL_NO_SESSION = 'Failed to create billing portal session';

/** GetCustomerID (spec/001 §7): the user's payment-provider customer, made on first use. */
export async function fetchCustomerId(email: string): Promise<string> {
  let id: string | undefined;
  try {
    id = (await apiClient.call(payment, 'GetCustomerID', { email })).customer_id;
  } catch (err) {
    throw failedAs(err, CUSTOMER_ID_FAILED);
  }
  if (!id) throw new ClientError({ kind: 'invalid_response', status: 200, description: CUSTOMER_ID_FAILED });
  return id;
}

export const customerIdKey = (email: string) => ['payment', 'GetCustomerID', email] as const;

export function customerIdQueryOptions(email: string) {
  return queryOptions({
    queryKey: customerIdKey(email),
    queryFn: () => fetchCustomerId(email),
    staleTime: Freshness.customerId.staleMs,
  });
}

class NoPortalSession extends Error {}

/**
 * CreateBillingPortalSession: the provider's billing portal (the server's own billing page in
 * sandbox mode), coming back to `returnUrl`. Answers the address to send the browser to.
 */
export async function createBillingPortalSession(
  queryClient: QueryClient,
  email: string,
  returnUrl: string,
): Promise<string> {
  const customerId = await queryClient.fetchQuery(customerIdQueryOptions(email));
  const res = await apiClient.call(payment, 'CreateBillingPortalSession', {
    email,
    return_url: returnUrl,
    customer_id: customerId,
  });
  if (!res.session?.session_url) throw new NoPortalSession();
  return res.session.session_url;
}

/**
 * The toast of spec/001 §8: "Failed to update payment information", with the server's description,
 * or "Failed to create billing portal session" when it gave none or no address came back.
 */
export function billingPortalFailure(err: unknown): { title: string; description: string } {
  const description = err instanceof ClientError && err.code !== undefined ? err.message : undefined;
  return { title: BILLING_PORTAL_FAILED, description: description || BILLING_PORTAL_NO_SESSION };
}

/** "Update Payment Info": open the billing portal, coming back to the page the user is on. */
export function useBillingPortal(email: string) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => createBillingPortalSession(queryClient, email, window.location.href),
    onSuccess: (url) => redirectBrowser(url),
    onError: (err) => {
      const { title, description } = billingPortalFailure(err);
      toast.error(title, { id: BILLING_PORTAL_FAILED, description, duration: ERROR_TOAST_MS });
    },
  });
  // Stays busy once the address has come back: the browser is leaving.
  return { open: () => mutation.mutate(), busy: mutation.isPending || mutation.isSuccess };
}
