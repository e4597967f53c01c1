import { type Passkey, type RequestOf, security } from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient, failedAs } from '@/lib/api-client';

export const PASSKEYS_FAILED = 'Failed to load your passkeys';

export async function fetchPasskeys(): Promise<Passkey[]> {
  try {
    return (await apiClient.call(security, 'ListPasskeys', {})).passkeys;
  } catch (err) {
    throw failedAs(err, PASSKEYS_FAILED);
  }
}

export const passkeysKey = (email: string) => ['security', 'ListPasskeys', email] as const;

export function passkeysQueryOptions(email: string) {
  return queryOptions({ queryKey: passkeysKey(email), queryFn: fetchPasskeys, staleTime: 60_000 });
}

export function usePasskeys(email: string) {
  return useQuery(passkeysQueryOptions(email));
}

/** Whether this browser can make and use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/**
 * Adds a passkey: the server's options, the browser's prompt, the server's check. The WebAuthn
 * helper is loaded here, when the user asks, so no page carries it up front (docs/decisions/032).
 */
export async function addPasskey(name: string): Promise<Passkey> {
  const { options } = await apiClient.call(security, 'PasskeyRegistrationOptions', {});
  const { startRegistration } = await import('@simplewebauthn/browser');
  const credential = await startRegistration({
    optionsJSON: options as Parameters<typeof startRegistration>[0]['optionsJSON'],
  });
  type Credential = RequestOf<typeof security, 'AddPasskey'>['credential'];
  return (await apiClient.call(security, 'AddPasskey', { name, credential: credential as Credential })).passkey;
}

export function useAddPasskeyMutation(email: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addPasskey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysKey(email) }),
  });
}

export function useRenamePasskeyMutation(email: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { passkeyId: string; name: string }) =>
      (await apiClient.call(security, 'RenamePasskey', { passkey_id: input.passkeyId, name: input.name })).passkey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysKey(email) }),
  });
}

export function useRemovePasskeyMutation(email: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (passkeyId: string) => apiClient.call(security, 'RemovePasskey', { passkey_id: passkeyId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysKey(email) }),
  });
}
