import { adminCustomers, type CustomerView, type RequestOf } from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const CUSTOMERS_KEY = ['adminCustomers'] as const;
export const customerSearchKey = (query: string) => [...CUSTOMERS_KEY, 'SearchCustomers', query] as const;
export const customerKey = (userId: string) => [...CUSTOMERS_KEY, 'GetCustomer', userId] as const;

/** SearchCustomers: prefix match; the server wants at least 2 characters, so shorter asks nothing. */
export function customerSearchQueryOptions(query: string) {
  return queryOptions({
    queryKey: customerSearchKey(query),
    queryFn: async () => (await apiClient.call(adminCustomers, 'SearchCustomers', { query, limit: 50 })).customers,
    enabled: query.trim().length >= 2,
    staleTime: 10_000,
  });
}

export function useCustomerSearch(query: string) {
  return useQuery(customerSearchQueryOptions(query));
}

export function customerQueryOptions(userId: string) {
  return queryOptions({
    queryKey: customerKey(userId),
    queryFn: async () => (await apiClient.call(adminCustomers, 'GetCustomer', { user_id: userId })).customer,
    staleTime: 5_000,
  });
}

export function useCustomer(userId: string) {
  return useQuery(customerQueryOptions(userId));
}

/** The actions with a reason whose answer is the customer view as it now stands. */
export type CustomerAction =
  | 'VerifyEmail'
  | 'DisableAccount'
  | 'EnableAccount'
  | 'RevokeSessions'
  | 'ResendVerification'
  | 'GrantDialTime'
  | 'GrantLicense'
  | 'GrantSubscription'
  | 'EndSubscription'
  | 'SetSlotGrant'
  | 'RefundPayment'
  | 'UnpairRobot';

type ActionInput<A extends CustomerAction> = Omit<RequestOf<typeof adminCustomers, A>, 'token' | 'user_id'>;

/** One action and its fields (the user id is the view's). */
export type CustomerActionInput = { [A in CustomerAction]: { action: A; body: ActionInput<A> } }[CustomerAction];

export interface ActionOutcome {
  customer: CustomerView;
  /** GrantLicense's pairing code */
  pair_code?: string;
}

/** Runs one action for the customer; the view takes the answer's fresh state. */
export function useCustomerAction(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CustomerActionInput): Promise<ActionOutcome> => {
      const call = apiClient.call as (
        service: typeof adminCustomers,
        action: CustomerAction,
        body: Record<string, unknown>,
      ) => Promise<ActionOutcome>;
      return call(adminCustomers, input.action, { ...input.body, user_id: userId });
    },
    onSuccess: (answer) => queryClient.setQueryData(customerKey(userId), answer.customer),
    onSettled: () => queryClient.invalidateQueries({ queryKey: CUSTOMERS_KEY }),
  });
}

export function deleteCustomer(userId: string, reason: string) {
  return apiClient.call(adminCustomers, 'DeleteAccount', { user_id: userId, reason });
}

export function exportCustomer(userId: string, reason: string) {
  return apiClient.call(adminCustomers, 'ExportCustomerData', { user_id: userId, reason });
}
