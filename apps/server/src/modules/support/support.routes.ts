import { support } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';

/** Enough for a real conversation, too few to flood the support inbox from one account. */
export const SUPPORT_REQUESTS_PER_HOUR = 10;

async function supportRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const { limiter, support: requests } = services;
  app.mountService(support, {
    async SubmitSupportRequest(input, { caller, request }) {
      await limiter.hit(
        `support:acct:${caller.userId}`,
        SUPPORT_REQUESTS_PER_HOUR,
        60 * 60,
        'Too many support requests. Please try again later.',
      );
      const ticket_id = await requests.submit(
        caller,
        { category: input.category, subject: input.subject, message: input.message, robotModel: input.robot_model },
        request.log,
      );
      return { ticket_id };
    },
  });
}

export const supportPlugin = fp(supportRoutes, {
  name: 'support-routes',
  dependencies: ['actions'],
  encapsulate: true,
});
