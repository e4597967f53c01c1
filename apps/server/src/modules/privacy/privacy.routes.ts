import { privacy } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';

/** A whole export reads every table of the account: a few a minute is plenty for a person. */
export const EXPORTS_PER_HOUR = 10;

async function privacyRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const { limiter, privacy: exports } = services;
  app.mountService(privacy, {
    async ExportMyData(_input, { caller, ip }) {
      await limiter.hit(
        `export:acct:${caller.userId}`,
        EXPORTS_PER_HOUR,
        60 * 60,
        'Too many data exports. Please try again later.',
      );
      return exports.exportAccount(caller.userId, { ip });
    },
  });
}

export const privacyPlugin = fp(privacyRoutes, {
  name: 'privacy-routes',
  dependencies: ['actions'],
  encapsulate: true,
});
