import { ApiError, flexibleLicense } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';

/** The spec's requests also carry user_id; the server acts on the signed-in user and refuses another. */
function sameUser(userId: string | undefined, caller: { userId: string }) {
  if (userId !== undefined && userId !== '' && userId !== caller.userId)
    throw new ApiError('FORBIDDEN', 'user_id: does not match the signed-in account');
}

/**
 * /api/flexible_license (spec/001 §7): the slot service the dial manager's GET_SLOTS, UPDATE_SLOTS
 * and CLEAR_SLOTS also answer with.
 */
async function flexibleLicenseRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const { slots } = services;

  app.mountService(flexibleLicense, {
    async GetSlots(input, { caller }) {
      sameUser(input.user_id, caller);
      return slots.get(caller.userId);
    },

    async UpdateSlots(input, { caller }) {
      sameUser(input.user_id, caller);
      return slots.update(caller.userId, input.user_slots);
    },

    async ClearSlots(input, { caller }) {
      sameUser(input.user_id, caller);
      return slots.clear(caller.userId);
    },
  });
}

export const flexibleLicensePlugin = fp(flexibleLicenseRoutes, {
  name: 'flexible-license-routes',
  dependencies: ['actions'],
  encapsulate: true,
});
