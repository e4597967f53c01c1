import { auth } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { mountService } from '../../plugins/actions.ts';

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const { sessions } = app.deps;
  mountService(app, auth, {
    async 'refresh-access-token'(input) {
      const { pair } = await sessions.rotate(input.tokenPair.refresh_token);
      return { tokenPair: pair, valid: true };
    },
    async 'revoke-token-pair'(input) {
      await sessions.revoke(input.tokenPair.refresh_token, 'revoked');
      return {};
    },
  });
}
