import * as z from 'zod/mini';
import { jwt, normalisedEmail } from './common.ts';
import { action, response, service } from './define.ts';
import { USAGE_RANGES_DAYS } from './domain/usage-history.ts';
import { flexSlot, flexSlotsRequest, flexSlotsResponse, flexSlotsUpdateRequest } from './flexible-license.ts';

/**
 * The dial manager of spec/001 §7 (/api/dial_manager) and docs/architecture.md#robots-licenses-and-dial-time. Dial time is whole minutes in
 * two pools: perishable (a yearly allocation by tier, reset at each period start) and durable
 * (bought, never expires). Timestamps are epoch ms; 0 means unset.
 */

const bodyToken = z.optional(jwt);

/** Upper bound of minutes in one UPDATE_TIME or ADD_TIME; a sanity limit (one week), not a rule of the spec. */
export const MAX_MINUTES_PER_CALL = 7 * 24 * 60;

const minutes = z._default(z.int(), 0);
const timestamp = z._default(z.int(), 0);

/** The spec's "User time": every field defaults to 0, '' or false. */
export const userTime = z.object({
  total_time: minutes,
  total_perishable_time: minutes,
  used_perishable_time: minutes,
  total_durable_time: minutes,
  used_durable_time: minutes,
  remaining_yearly_time: minutes,
  has_infinite_time: z._default(z.boolean(), false),
  time_status: z._default(z.string(), ''),
  warning_message: z._default(z.string(), ''),
  current_period_start: timestamp,
  current_period_end: timestamp,
  days_until_next_allocation: z._default(z.int(), 0),
  yearly_subscription_end: timestamp,
  total_yearly_allocation: minutes,
  total_yearly_used: minutes,
  subscription_type: z._default(z.string(), ''),
  /**
   * When a renewal of the caller's paid plan failed and the provider still retries (epoch ms; 0:
   * none): the plan keeps working, and the dashboard asks for a new card (issue 31).
   */
  payment_failed_at: z._default(z.int(), 0),
});
export type UserTime = z.infer<typeof userTime>;

/** The spec's "Dial slots". */
export const dialSlots = z.object({
  user_email: z.string(),
  user_id: z.string(),
  user_slots: z._default(z.array(flexSlot), []),
  user_slot_amount: z._default(z.int().check(z.minimum(0)), 0),
});
export type DialSlots = z.infer<typeof dialSlots>;

const minutesInput = z
  .number()
  .check(
    z.int({ error: 'Minutes must be a whole number' }),
    z.minimum(1, { error: 'Minutes must be at least 1' }),
    z.maximum(MAX_MINUTES_PER_CALL, { error: `Minutes must be at most ${MAX_MINUTES_PER_CALL}` }),
  );

const idempotencyKey = z.string().check(z.trim(), z.minLength(1), z.maxLength(128));

const utcDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

/** A robot in the dial-time history (docs/decisions/029). */
export const usageRobot = z.object({
  robot_id: z.string(),
  /** the first characters of `robot_id`, to name a robot that is no longer the user's */
  short_id: z.string(),
  /** the model: as registered when the robot is the user's now, else as the ledger recorded it when dialled; '' when neither knows */
  model: z.string(),
  /** the robot's name when it is the user's now; '' otherwise */
  name: z.string(),
  /** whether the robot is registered to the user now */
  owned: z.boolean(),
  /** minutes used on the robot in the range */
  total_minutes: z.int(),
});
export type UsageRobot = z.infer<typeof usageRobot>;

/** Minutes used on one robot on one day (days without use are left out). */
export const usageDay = z.object({ day: utcDate, robot_id: z.string(), minutes: z.int() });
export type UsageDay = z.infer<typeof usageDay>;

export const USAGE_EVENT_KINDS = ['allocation', 'purchase', 'grant'] as const;
export type UsageEventKind = (typeof USAGE_EVENT_KINDS)[number];

/**
 * Minutes added on a day, by kind: a yearly allocation (on the day its period starts), a time
 * package bought, or minutes an operator granted.
 */
export const usageEvent = z.object({ day: utcDate, kind: z.enum(USAGE_EVENT_KINDS), minutes: z.int() });
export type UsageEvent = z.infer<typeof usageEvent>;

export const usageHistory = z.object({
  /** first and last day of the range (`YYYY-MM-DD`, both included) */
  from: utcDate,
  to: utcDate,
  /** days are calendar days in this time zone */
  time_zone: z.literal('UTC'),
  total_minutes: z.int(),
  /** every robot used in the range, most minutes first */
  robots: z.array(usageRobot),
  usage: z.array(usageDay),
  events: z.array(usageEvent),
});
export type UsageHistory = z.infer<typeof usageHistory>;

const usageDays = z.literal(USAGE_RANGES_DAYS, { error: `Days must be one of ${USAGE_RANGES_DAYS.join(', ')}` });

export const time = service('time', '/api/dial_manager', {
  CHECK_REMAINING_TIME: action({
    summary: "The signed-in user's dial time in both pools.",
    auth: 'bearer',
    request: z.object({
      token: bodyToken,
      email: normalisedEmail,
      /** The server acts on the signed-in user; a different id is refused. */
      user_id: z.optional(z.string().check(z.maxLength(255))),
    }),
    response: response({ user_time: userTime }),
  }),
  UPDATE_TIME: action({
    summary:
      'The hub reports minutes used dialling a robot the user holds no license for. Perishable time is used first. A repeated idempotency key is not charged again and answers the balance.',
    auth: 'bearer',
    caller: 'hub',
    request: z.object({
      token: bodyToken,
      email: normalisedEmail,
      robot_id: z.string().check(z.minLength(1), z.maxLength(255)),
      minutes: minutesInput,
      idempotency_key: idempotencyKey,
    }),
    response: response({ user_time: userTime }),
  }),
  ADD_TIME: action({
    summary:
      "Add durable minutes to the account of `email`. Operators only (x-operator-token): a portal user's token is refused. A repeated idempotency key is not added again.",
    auth: 'operator',
    permission: 'dial_time.goodwill',
    caller: 'operator',
    request: z.object({
      token: bodyToken,
      /** the account that receives the minutes */
      email: normalisedEmail,
      minutes: minutesInput,
      reason: z.string().check(z.trim(), z.minLength(1, { error: 'A reason is required' }), z.maxLength(500)),
      idempotency_key: z.optional(idempotencyKey),
    }),
    response: response({ user_time: userTime }),
  }),
  GET_USAGE_HISTORY: action({
    summary:
      "The signed-in user's dial time used per day (UTC) and robot over the last `days` days, totals per robot, and the minutes allocated, bought or granted in that range.",
    auth: 'bearer',
    request: z.object({
      token: bodyToken,
      email: normalisedEmail,
      days: usageDays,
    }),
    response: response(usageHistory.shape),
  }),
  GET_SLOTS: action({
    summary: "The signed-in user's dial slots (the same slots as flexibleLicense GetSlots).",
    auth: 'bearer',
    request: flexSlotsRequest,
    response: flexSlotsResponse,
  }),
  UPDATE_SLOTS: action({
    summary: "Save the signed-in user's dial slots (as flexibleLicense UpdateSlots).",
    auth: 'bearer',
    request: flexSlotsUpdateRequest,
    response: flexSlotsResponse,
  }),
  CLEAR_SLOTS: action({
    summary: "Empty the signed-in user's dial slots (as flexibleLicense ClearSlots).",
    auth: 'bearer',
    request: flexSlotsRequest,
    response: flexSlotsResponse,
  }),
});
