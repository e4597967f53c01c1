import { admin } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';

/** /api/admin: the back office (issue 34, decision 071). The staff auth kind is checked by the router. */
async function adminRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const { admin: office } = services;
  app.mountService(admin, {
    Me: (_input, { staff }) => office.me(staff),
    async ListStaff() {
      return { staff: await office.listStaff() };
    },
    InviteStaff: (input, { staff }) => office.invite(staff, input),
    async SetStaffRole(input, { staff }) {
      return { staff: await office.setRole(staff, input) };
    },
    async ListApiKeys() {
      return { keys: await office.listKeys(), legacy_key_set: services.staff.legacyKeySet };
    },
    CreateApiKey: (input, { staff }) => office.createKey(staff, input),
    async RevokeApiKey(input, { staff }) {
      return { key: await office.revokeKey(staff, input.key_id) };
    },
    ListAudit: (input) => office.listAudit(input),
    ExportAudit: (input, { staff, ip }) => office.exportAudit(staff, input, ip),
  });
}

export const adminPlugin = fp(adminRoutes, { name: 'admin-routes', dependencies: ['actions'], encapsulate: true });
