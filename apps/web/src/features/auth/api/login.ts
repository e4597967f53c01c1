import { useraction } from '@portal/contract';
import { callAction } from '@/lib/api-client';

export function requestPortalLogin(input: { email: string; password: string; rememberMe: boolean }) {
  return callAction(
    useraction,
    'login',
    {
      user: { email: input.email, password: input.password },
      use_token_pairs: true,
      remember_me: input.rememberMe,
      target: 'portal',
    },
    { fallbackMessage: 'Failed to log in' },
  );
}

/** The hub target answers only `enc_creds`: a JWE that only the hub holding the private key can open. */
export function requestHubLogin(input: { email: string; password: string; hubPublicKey: string }) {
  return callAction(
    useraction,
    'login',
    {
      user: { email: input.email, password: input.password },
      use_token_pairs: true,
      target: 'hub',
      hub_public_key: input.hubPublicKey,
    },
    { fallbackMessage: 'Failed to log in' },
  );
}
