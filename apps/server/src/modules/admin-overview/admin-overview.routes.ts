import { adminOverview, roleCan } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';

/**
 * /api/admin/overview (issue 35 item 7, docs/decisions/076). Any staff role reads it; the recurring
 * revenue only a role with payments.read (finance, admin): support gets the rest, and the flag.
 */
async function adminOverviewRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  app.mountService(adminOverview, {
    GetOverview: (_input, { staff }) => services.overview.overview(roleCan(staff.role, 'payments.read')),
  });
}

export const adminOverviewPlugin = fp(adminOverviewRoutes, {
  name: 'admin-overview-routes',
  dependencies: ['actions'],
  encapsulate: true,
});
