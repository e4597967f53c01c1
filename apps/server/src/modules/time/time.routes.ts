import { ApiError, time } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { mountService } from '../../plugins/actions.ts';
import { FlexSlotService } from '../flexible-license/flexible-license.service.ts';
import { licenseRepository } from '../license/license.repository.ts';
import { LicenseService } from '../license/license.service.ts';
import { userRepository } from '../useraction/useraction.repository.ts';
import { TimeService } from './time.service.ts';

/** The spec's requests also carry user_id; the server acts on the signed-in user and refuses another. */
function sameUser(userId: string | undefined, caller: { userId: string }) {
  if (userId !== undefined && userId !== '' && userId !== caller.userId)
    throw new ApiError('FORBIDDEN', 'user_id: does not match the signed-in account');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function timeRoutes(app: FastifyInstance): Promise<void> {
  const { db, clock, config } = app.deps;

  /** Dial time is metered only for robots the user holds no license for (DESIGN §4). */
  async function coveredByOwnLicense(robotId: string, userId: string): Promise<boolean> {
    if (!UUID.test(robotId)) return false;
    const license = await licenseRepository.byRobot(db, robotId);
    return Boolean(license && license.userId === userId && license.endsAt > clock.now());
  }

  const times = new TimeService(db, clock);
  const slots = new FlexSlotService(db, clock, new LicenseService(db, clock, config.JWT_SECRET));

  mountService(app, time, {
    async CHECK_REMAINING_TIME(input, { caller }) {
      sameUser(input.user_id, caller);
      return { user_time: await times.check(caller.userId) };
    },

    async UPDATE_TIME(input, { caller }) {
      if (await coveredByOwnLicense(input.robot_id, caller.userId))
        throw new ApiError(
          'CONFLICT',
          'robot_id: this robot is covered by your license; dial time is metered only for robots you hold no license for',
        );
      return {
        user_time: await times.use(caller.userId, {
          minutes: input.minutes,
          robotId: input.robot_id,
          idempotencyKey: input.idempotency_key,
        }),
      };
    },

    async ADD_TIME(input, { request }) {
      const user = await userRepository.byEmail(db, input.email);
      if (!user) throw new ApiError('NOT_FOUND', 'email: no account with this email');
      const user_time = await times.credit(user.id, {
        kind: 'grant',
        minutes: input.minutes,
        reason: input.reason,
        idempotencyKey: input.idempotency_key,
      });
      request.log.info({ user: user.id, minutes: input.minutes }, 'operator added dial time');
      return { user_time };
    },

    async GET_SLOTS(input, { caller }) {
      sameUser(input.user_id, caller);
      return slots.get(caller.userId);
    },

    async UPDATE_SLOTS(input, { caller }) {
      sameUser(input.user_id, caller);
      return slots.update(caller.userId, input.user_slots);
    },

    async CLEAR_SLOTS(input, { caller }) {
      sameUser(input.user_id, caller);
      return slots.clear(caller.userId);
    },
  });
}
