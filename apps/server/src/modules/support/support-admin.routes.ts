import { adminSupport } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';
import { actorOfCaller } from '../admin/admin.service.ts';

/**
 * /api/admin/support: the support inbox of the back office (issue 35, docs/decisions/074). The staff
 * auth kind is checked by the router (anyone without a staff credential gets the unknown-route 404,
 * a role without the permission 403); the handlers only call the inbox's service.
 */
async function supportAdminRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const { supportInbox: inbox } = services;
  app.mountService(adminSupport, {
    ListSupportRequests: (input) =>
      inbox.list({
        status: input.status,
        assigneeId: input.assignee_user_id,
        offset: input.offset,
        limit: input.limit,
      }),
    GetSupportRequest: (input, { staff, ip }) => inbox.open(input.ticket_id, actorOfCaller(staff), { ip }),
    async ReplySupportRequest(input, { staff, ip, request }) {
      return { request: await inbox.reply(input.ticket_id, input.message, actorOfCaller(staff), request.log, { ip }) };
    },
    async SetSupportStatus(input, { staff, ip }) {
      return { request: await inbox.setStatus(input.ticket_id, input.status, actorOfCaller(staff), { ip }) };
    },
    async AssignSupportRequest(input, { staff, ip }) {
      return { request: await inbox.assign(input.ticket_id, input.assignee_user_id, actorOfCaller(staff), { ip }) };
    },
  });
}

export const supportAdminPlugin = fp(supportAdminRoutes, {
  name: 'support-admin-routes',
  dependencies: ['actions'],
  encapsulate: true,
});
