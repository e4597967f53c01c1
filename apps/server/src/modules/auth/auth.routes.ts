import { auth } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';

/** /api/auth: refresh-token rotation and revocation. */
async function authRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const { sessions } = services;
  app.mountService(auth, {
    async 'refresh-access-token'(input, { ip }) {
      const { pair } = await sessions.rotate(input.tokenPair.refresh_token, ip);
      return { tokenPair: pair, valid: true };
    },
    async 'revoke-token-pair'(input) {
      await sessions.revoke(input.tokenPair.refresh_token, 'revoked');
      return {};
    },
  });
}

export const authPlugin = fp(authRoutes, { name: 'auth-routes', dependencies: ['actions'], encapsulate: true });
