import * as z from 'zod/mini';
import { jwt, tokenPair } from './common.ts';
import { action, response, service } from './define.ts';

export const auth = service('auth', '/api/auth', {
  'refresh-access-token': action({
    summary: 'Trade a refresh token for a new pair (the old refresh token is rotated out).',
    auth: 'refresh',
    request: z.object({ tokenPair: z.object({ refresh_token: jwt, access_token: z.optional(z.string()) }) }),
    response: response({ tokenPair, valid: z.boolean() }),
  }),
  'revoke-token-pair': action({
    summary: 'Revoke the session a token pair belongs to.',
    auth: 'refresh',
    request: z.object({ tokenPair: z.object({ refresh_token: jwt, access_token: z.optional(z.string()) }) }),
    response: response({}),
  }),
});
