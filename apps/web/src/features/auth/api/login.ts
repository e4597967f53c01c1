import { ClientError } from '@portal/client';
import { type ResponseOf, useraction } from '@portal/contract';
import { apiClient, describedOr } from '@/lib/api-client';

const FAILED = 'Failed to log in';

type LoginAnswer = ResponseOf<typeof useraction, 'login'>;
export type PortalLogin = Extract<LoginAnswer, { target: 'portal' }>;
export type HubLogin = Extract<LoginAnswer, { target: 'hub' }>;

/**
 * The login answer is a union on `target`: the branch asked for is the only one a caller can use,
 * so an answer for the other target is an answer this call cannot read.
 */
function expect<T extends LoginAnswer['target']>(res: LoginAnswer, target: T): Extract<LoginAnswer, { target: T }> {
  if (res.target !== target)
    throw new ClientError({
      kind: 'invalid_response',
      status: 200,
      description: `login answered target ${res.target}, not ${target}`,
    });
  return res as Extract<LoginAnswer, { target: T }>;
}

export async function requestPortalLogin(input: {
  email: string;
  password: string;
  rememberMe: boolean;
}): Promise<PortalLogin> {
  let res: LoginAnswer;
  try {
    res = await apiClient.call(useraction, 'login', {
      user: { email: input.email, password: input.password },
      use_token_pairs: true,
      remember_me: input.rememberMe,
      target: 'portal',
    });
  } catch (err) {
    throw describedOr(err, FAILED);
  }
  return expect(res, 'portal');
}

/** The hub target answers only `enc_creds`: a JWE that only the hub holding the private key can open. */
export async function requestHubLogin(input: {
  email: string;
  password: string;
  hubPublicKey: string;
}): Promise<HubLogin> {
  let res: LoginAnswer;
  try {
    res = await apiClient.call(useraction, 'login', {
      user: { email: input.email, password: input.password },
      use_token_pairs: true,
      target: 'hub',
      hub_public_key: input.hubPublicKey,
    });
  } catch (err) {
    throw describedOr(err, FAILED);
  }
  return expect(res, 'hub');
}
