import { robots } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';

/**
 * Registrations one account may make per hour (RATE_REGISTERSIM_PER_ACCOUNT, 60 by default): a hub
 * registers a handful, a loop would fill the table.
 */
async function robotsRoutes(app: FastifyInstance, { config, services }: RouteOptions): Promise<void> {
  const { robots: service, limiter } = services;

  app.mountService(robots, {
    async GetRobots(input, { caller }) {
      return service.visible(caller, input.robot_licenses);
    },

    async REGISTERSIM(input, { caller }) {
      await limiter.hit(
        `robots:register:acct:${caller.userId}`,
        config.RATE_REGISTERSIM_PER_ACCOUNT,
        60 * 60,
        'Too many robot registrations. Please try again later.',
      );
      return {
        robot: await service.register(caller, {
          make: input.make,
          model: input.model,
          name: input.name,
          hardwareHash: input.hardware_hash,
        }),
      };
    },

    async UPDATEROBOT(input, { caller }) {
      return {
        robot: await service.update(caller, input.robot_id, {
          name: input.name,
          available: input.robot_state?.available,
          location: input.robot_state?.location,
          config: input.robot_config,
          report: true,
        }),
      };
    },

    async UNREGISTER(input, { caller }) {
      await service.unregister(caller, input.robot_id);
      return {};
    },

    async UPDATEMODALITIES(input, { caller }) {
      return { robot: await service.update(caller, input.robot_id, { config: { modalities: input.modalities } }) };
    },
  });
}

export const robotsPlugin = fp(robotsRoutes, { name: 'robots-routes', dependencies: ['actions'], encapsulate: true });
