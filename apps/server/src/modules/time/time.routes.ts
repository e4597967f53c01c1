import { ApiError, time } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';

async function timeRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const { time: times, slots, licenses, accounts, robots } = services;

  app.mountService(time, {
    async CHECK_REMAINING_TIME(_input, { caller }) {
      return { user_time: await times.check(caller.userId) };
    },

    async UPDATE_TIME(input, { caller }) {
      // Only a registered robot can be dialled: an invented id would let a hub write ledger rows at will.
      const robot = await robots.dialTarget(caller, input.robot_id);
      if (!robot) throw new ApiError('NOT_FOUND', 'robot_id: no robot is registered with this id');
      // Dial time is metered only for robots the user holds no license for: a robot their own
      // license covers is already paid for.
      if (await licenses.coversRobot(input.robot_id, caller.userId))
        throw new ApiError(
          'CONFLICT',
          'robot_id: this robot is covered by your license; dial time is metered only for robots you hold no license for',
        );
      // The model is recorded with the use, so the history can name the robot after the user
      // loses it (docs/decisions/029); a robot the caller cannot see records none.
      const user_time = await times.use(caller.userId, {
        minutes: input.minutes,
        robotId: input.robot_id,
        robotModel: robot.model,
        idempotencyKey: input.idempotency_key,
      });
      // A dial of a robot shared with the caller is the robot's report too: its card shows when it
      // was last seen (issue 15). A robot the caller cannot see is not touched: a stranger must not
      // make someone's license look used.
      if (robot.model !== null) await robots.reported(input.robot_id);
      return { user_time };
    },

    async GET_USAGE_HISTORY(input, { caller }) {
      return times.usageHistory(caller.userId, input.days);
    },

    async ADD_TIME(input, { request, key }) {
      // Support grants goodwill minutes up to a cap; more is finance's (decision 070).
      const cap = app.deps.config.STAFF_GOODWILL_MAX_MINUTES;
      if (key?.role === 'support' && input.minutes > cap)
        throw new ApiError(
          'FORBIDDEN',
          `minutes: support grants at most ${cap} goodwill minutes at once; a larger grant needs the finance role`,
        );
      const user = await accounts.requireByEmail(input.email);
      const user_time = await times.credit(user.id, {
        kind: 'grant',
        minutes: input.minutes,
        reason: input.reason,
        idempotencyKey: input.idempotency_key,
      });
      request.log.info({ user: user.id, minutes: input.minutes }, 'operator added dial time');
      return { user_time };
    },

    async GET_SLOTS(_input, { caller }) {
      return slots.get(caller.userId);
    },

    async UPDATE_SLOTS(input, { caller }) {
      return slots.update(caller.userId, input.user_slots);
    },

    async CLEAR_SLOTS(_input, { caller }) {
      return slots.clear(caller.userId);
    },
  });
}

export const timePlugin = fp(timeRoutes, { name: 'time-routes', dependencies: ['actions'], encapsulate: true });
