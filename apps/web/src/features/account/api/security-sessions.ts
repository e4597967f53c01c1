import { type SignInSession, security } from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient, failedAs } from '@/lib/api-client';

export const SESSIONS_FAILED = 'Failed to load where you are signed in';

/** ListSessions: the user's live sessions, the caller's own first (docs/decisions/033). */
export async function fetchSessions(): Promise<SignInSession[]> {
  try {
    return (await apiClient.call(security, 'ListSessions', {})).sessions;
  } catch (err) {
    throw failedAs(err, SESSIONS_FAILED);
  }
}

export const sessionsKey = (email: string) => ['security', 'ListSessions', email] as const;

export function sessionsQueryOptions(email: string) {
  return queryOptions({ queryKey: sessionsKey(email), queryFn: fetchSessions, staleTime: 30_000 });
}

export function useSessions(email: string) {
  return useQuery(sessionsQueryOptions(email));
}

export function useRevokeSessionMutation(email: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (signInId: string) => apiClient.call(security, 'RevokeSession', { sign_in_id: signInId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey(email) }),
  });
}

export function useRevokeOtherSessionsMutation(email: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await apiClient.call(security, 'RevokeOtherSessions', {})).revoked,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey(email) }),
  });
}
