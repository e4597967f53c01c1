import { adminSupport, type RequestOf, type ResponseOf, type SupportStatus } from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export type SupportTicket = ResponseOf<typeof adminSupport, 'GetSupportRequest'>;

/** The inbox's filters: a status, and whose requests (anyone's, or the signed-in staff member's). */
export interface InboxFilter {
  status?: SupportStatus | undefined;
  assignee?: string | undefined;
}

export const SUPPORT_KEY = ['adminSupport'] as const;
export const inboxKey = (filter: InboxFilter) => [...SUPPORT_KEY, 'ListSupportRequests', filter] as const;
export const ticketKey = (ticketId: string) => [...SUPPORT_KEY, 'GetSupportRequest', ticketId] as const;

export function inboxQueryOptions(filter: InboxFilter) {
  return queryOptions({
    queryKey: inboxKey(filter),
    queryFn: () =>
      apiClient.call(adminSupport, 'ListSupportRequests', {
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.assignee ? { assignee_user_id: filter.assignee } : {}),
        offset: 0,
        limit: 100,
      }),
    staleTime: 5_000,
  });
}

export function useInbox(filter: InboxFilter) {
  return useQuery(inboxQueryOptions(filter));
}

export function ticketQueryOptions(ticketId: string) {
  return queryOptions({
    queryKey: ticketKey(ticketId),
    queryFn: () => apiClient.call(adminSupport, 'GetSupportRequest', { ticket_id: ticketId }),
    staleTime: 5_000,
  });
}

export function useTicket(ticketId: string) {
  return useQuery(ticketQueryOptions(ticketId));
}

type TicketChange =
  | { kind: 'reply'; message: string }
  | { kind: 'status'; status: RequestOf<typeof adminSupport, 'SetSupportStatus'>['status'] }
  | { kind: 'assign'; assignee: string | null };

/** A reply, a status or an assignee: the answer is the request as it now stands; the inbox refreshes. */
export function useTicketMutation(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: TicketChange) => {
      const ticket_id = ticketId;
      if (change.kind === 'reply')
        return (await apiClient.call(adminSupport, 'ReplySupportRequest', { ticket_id, message: change.message }))
          .request;
      if (change.kind === 'status')
        return (await apiClient.call(adminSupport, 'SetSupportStatus', { ticket_id, status: change.status })).request;
      return (
        await apiClient.call(adminSupport, 'AssignSupportRequest', { ticket_id, assignee_user_id: change.assignee })
      ).request;
    },
    onSuccess: (request) =>
      queryClient.setQueryData(ticketKey(ticketId), (old: SupportTicket | undefined) =>
        old ? { ...old, request } : old,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SUPPORT_KEY }),
  });
}
