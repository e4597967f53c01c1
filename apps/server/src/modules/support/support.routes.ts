import { support } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';

/** Enough for a real conversation, too few to flood the support inbox from one account. */
export const SUPPORT_REQUESTS_PER_HOUR = 10;
/** Answers in threads one account may write per hour: a conversation, not a flood of the inbox's mail. */
export const SUPPORT_REPLIES_PER_HOUR = 30;

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
    async ListMySupportRequests(_input, { caller }) {
      return { requests: await requests.listMine(caller) };
    },
    async GetMySupportRequest(input, { caller }) {
      return { request: await requests.getMine(caller, input.ticket_id) };
    },
    async ReplyToMySupportRequest(input, { caller, request }) {
      await limiter.hit(
        `support-reply:acct:${caller.userId}`,
        SUPPORT_REPLIES_PER_HOUR,
        60 * 60,
        'Too many answers. Please try again later.',
      );
      return { request: await requests.replyMine(caller, input.ticket_id, input.message, request.log) };
    },
  });
}

export const supportPlugin = fp(supportRoutes, {
  name: 'support-routes',
  dependencies: ['actions'],
  encapsulate: true,
});
