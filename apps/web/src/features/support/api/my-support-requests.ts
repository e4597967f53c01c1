import { type MySupportRequest, type MySupportRequestSummary, support } from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient, describedOr, failedAs } from '@/lib/api-client';

export const REQUESTS_FAILED = 'Failed to load your support requests';
export const THREAD_FAILED = 'Failed to load this request';

/** ListMySupportRequests: the signed-in user's requests, newest first. */
export async function fetchMySupportRequests(): Promise<MySupportRequestSummary[]> {
  try {
    return (await apiClient.call(support, 'ListMySupportRequests', {})).requests;
  } catch (err) {
    throw failedAs(err, REQUESTS_FAILED);
  }
}

export const mySupportRequestsKey = (email: string) => ['support', 'ListMySupportRequests', email] as const;

export function mySupportRequestsQueryOptions(email: string) {
  // A staff reply can arrive at any time: a returning tab looks again, a minute old is fresh enough.
  return queryOptions({
    queryKey: mySupportRequestsKey(email),
    queryFn: fetchMySupportRequests,
    staleTime: 60_000,
    refetchOnWindowFocus: true,
  });
}

export function useMySupportRequests(email: string) {
  return useQuery(mySupportRequestsQueryOptions(email));
}

/** GetMySupportRequest: one request with its thread. */
export async function fetchMySupportRequest(ticketId: string): Promise<MySupportRequest> {
  try {
    return (await apiClient.call(support, 'GetMySupportRequest', { ticket_id: ticketId })).request;
  } catch (err) {
    throw failedAs(err, THREAD_FAILED);
  }
}

export const mySupportRequestKey = (email: string, ticketId: string) =>
  ['support', 'GetMySupportRequest', email, ticketId] as const;

export function mySupportRequestQueryOptions(email: string, ticketId: string) {
  return queryOptions({
    queryKey: mySupportRequestKey(email, ticketId),
    queryFn: () => fetchMySupportRequest(ticketId),
    staleTime: 60_000,
    refetchOnWindowFocus: true,
  });
}

export function useMySupportRequest(email: string, ticketId: string) {
  return useQuery(mySupportRequestQueryOptions(email, ticketId));
}

/** ReplyToMySupportRequest: the user answers in the thread, which reopens the request. */
export async function replyToMySupportRequest(input: { ticketId: string; message: string }) {
  try {
    return (
      await apiClient.call(support, 'ReplyToMySupportRequest', { ticket_id: input.ticketId, message: input.message })
    ).request;
  } catch (err) {
    throw describedOr(err, 'Failed to send your answer. Please try again.');
  }
}

export function useReplyToMySupportRequestMutation(email: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replyToMySupportRequest,
    onSuccess: (request) => queryClient.setQueryData(mySupportRequestKey(email, request.ticket_id), request),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mySupportRequestsKey(email) }),
  });
}
