import { type ApiKeyView, admin, type StaffRole } from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const API_KEYS_KEY = ['admin', 'ListApiKeys'] as const;

export async function fetchApiKeys(): Promise<{ keys: ApiKeyView[]; legacy_key_set: boolean }> {
  const { keys, legacy_key_set } = await apiClient.call(admin, 'ListApiKeys', {});
  return { keys, legacy_key_set };
}

export function apiKeysQueryOptions() {
  return queryOptions({ queryKey: API_KEYS_KEY, queryFn: fetchApiKeys, staleTime: 10_000 });
}

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions());
}

/** CreateApiKey: the answer holds the secret, the one time it is ever shown. */
export function useCreateApiKeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; role: StaffRole }) => apiClient.call(admin, 'CreateApiKey', input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}

export function useRevokeApiKeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (keyId: string) => (await apiClient.call(admin, 'RevokeApiKey', { key_id: keyId })).key,
    onSettled: () => queryClient.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}
