import { ClientError } from '@portal/client';
import { type RequestOf, type ResponseOf, security, type Target } from '@portal/contract';
import { apiClient } from '@/lib/api-client';
import { LoginRejectedError } from '../utils/login-failure';
import { passkeyFailureNotice } from '../utils/passkey-failure';

type PasskeyAnswer = ResponseOf<typeof security, 'PasskeySignIn'>;

/**
 * Signs in with a passkey: the server's challenge, the browser's passkey prompt, the server's check.
 * Loaded when the person presses "Sign in with a passkey", with the WebAuthn helper it loads in
 * turn, so the sign-in page itself carries neither (docs/decisions/025, 032). A failure is thrown as
 * the notice to show.
 */
export async function requestPasskeySignIn<T extends Target>(input: {
  target: T;
  hubPublicKey?: string | undefined;
  rememberMe: boolean;
}): Promise<Extract<PasskeyAnswer, { target: T }>> {
  try {
    return await passkeySignIn(input);
  } catch (err) {
    // Told apart here, in the module loaded on use, so the sign-in page carries none of it.
    throw new LoginRejectedError(passkeyFailureNotice(err));
  }
}

async function passkeySignIn<T extends Target>(input: {
  target: T;
  hubPublicKey?: string | undefined;
  rememberMe: boolean;
}): Promise<Extract<PasskeyAnswer, { target: T }>> {
  const { options } = await apiClient.call(security, 'PasskeySignInOptions', {});
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const credential = await startAuthentication({
    optionsJSON: options as Parameters<typeof startAuthentication>[0]['optionsJSON'],
  });
  type Credential = RequestOf<typeof security, 'PasskeySignIn'>['credential'];
  const res = await apiClient.call(security, 'PasskeySignIn', {
    credential: credential as Credential,
    target: input.target,
    ...(input.target === 'hub' ? { hub_public_key: input.hubPublicKey } : { remember_me: input.rememberMe }),
  });
  if (res.target !== input.target)
    throw new ClientError({
      kind: 'invalid_response',
      status: 200,
      description: `passkey sign-in answered target ${res.target}, not ${input.target}`,
    });
  return res as Extract<PasskeyAnswer, { target: T }>;
}
