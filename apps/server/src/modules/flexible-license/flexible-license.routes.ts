import { flexibleLicense } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';

/**
 * /api/flexible_license (spec/001 §7): the slot service the dial manager's GET_SLOTS, UPDATE_SLOTS
 * and CLEAR_SLOTS also answer with.
 */
async function flexibleLicenseRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const { slots } = services;

  app.mountService(flexibleLicense, {
    async GetSlots(_input, { caller }) {
      return slots.get(caller.userId);
    },

    async UpdateSlots(input, { caller }) {
      return slots.update(caller.userId, input.user_slots);
    },

    async ClearSlots(_input, { caller }) {
      return slots.clear(caller.userId);
    },
  });
}

export const flexibleLicensePlugin = fp(flexibleLicenseRoutes, {
  name: 'flexible-license-routes',
  dependencies: ['actions'],
  encapsulate: true,
});
