import { auth as authService, type PublicUser, type TokenPair, useraction } from '@portal/contract';
import { apiClient } from './api-client';

/**
 * The calls the session makes on its own (start-up and logout). lib/auth.tsx loads this module only
 * when it makes one of them, so a page without a stored session, such as sign-in, loads neither the
 * action client nor the contract's schemas (docs/decisions/025).
 */

export function fetchSelf(refreshToken: string): Promise<{ user: PublicUser; token_pair: TokenPair }> {
  return apiClient.call(useraction, 'get-self', { token_pair: { refresh_token: refreshToken } });
}

export function revokeSession(
  refreshToken: string,
  accessToken: string | null,
  email: string | null,
): Promise<unknown> {
  return email
    ? apiClient.call(useraction, 'logout', {
        token_pair: { refresh_token: refreshToken, access_token: accessToken ?? undefined },
        user: { email },
      })
    : apiClient.call(authService, 'revoke-token-pair', { tokenPair: { refresh_token: refreshToken } });
}
