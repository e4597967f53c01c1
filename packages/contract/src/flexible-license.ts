import * as z from 'zod/mini';
import { epochMs, jwt, normalisedEmail } from './common.ts';
import { action, response, service } from './define.ts';

/**
 * The flexible license slots of spec/001 §7 (/api/flexible_license) and docs/architecture.md#flexible-licenses.
 * A user has `user_slot_amount` slots, numbered 0 to amount - 1; each holds at most one approved
 * robot model (`robot_id` is the catalogue robot id, a driver product's BOW_UUID, '' for an empty
 * slot). The server owns the approved list and sends it with every answer (docs/decisions/022); a
 * save changes only the slots that changed (docs/decisions/061).
 */

const bodyToken = z.optional(jwt);

/** Upper bound of slots an account can hold; a sanity limit, not a rule of the spec. */
export const MAX_FLEX_SLOTS = 100;

export const slotId = z.int().check(z.minimum(0), z.maximum(MAX_FLEX_SLOTS - 1));

export const flexSlot = z.object({
  slot_id: slotId,
  /** the license created for the slot; always '' in an update (the server creates the licenses) */
  license_id: z._default(z.string(), ''),
  /** catalogue robot id of the model in the slot; '' when empty */
  robot_id: z._default(z.string().check(z.maxLength(255)), ''),
  /** epoch ms */
  updated_on: epochMs,
});
export type FlexSlot = z.infer<typeof flexSlot>;

/** A slot as the answers show it. */
export const flexSlotView = z.extend(flexSlot, {
  /**
   * Beyond the spec (docs/decisions/061): the name of the robot the slot's license is paired with, ''
   * when it is not paired, so the screen can say which robot a save would unpair.
   */
  paired_robot_name: z._default(z.string(), ''),
});
export type FlexSlotView = z.infer<typeof flexSlotView>;

/** A slot as UpdateSlots sends it: the license id is empty, the server assigns licenses. */
export const flexSlotUpdate = z.extend(flexSlot, {
  license_id: z.literal('', { error: 'license_id must be empty' }),
  robot_id: z.string().check(z.trim(), z.maxLength(255)),
});
export type FlexSlotUpdate = z.infer<typeof flexSlotUpdate>;

/** Slot info of the screen: the slot count and robot_id by slot_id. */
export interface FlexSlotInfo {
  maxSlots: number;
  selectedSlots: Record<number, { slot_id: number; robot_id: string }>;
}

/** A flexible license card of the Flexible License Management screen. */
export const flexibleLicenseCard = z.object({
  id: z.string(),
  robot_id: z.string(),
  manufacturer: z.string(),
  modelName: z.string(),
  description: z.string(),
  robotType: z.array(z.string()),
  /** always "Support" and "1 Physical Robot License", then the product's own */
  features: z.array(z.string()),
  img: z.string(),
  /** set once the card is placed in a slot */
  cardId: z.optional(z.string()),
  slot_id: z.optional(slotId),
});
export type FlexibleLicenseCard = z.infer<typeof flexibleLicenseCard>;

export const flexSlotsRequest = z.object({
  token: bodyToken,
  /** The server acts on the signed-in user; a different id is refused. */
  user_id: z.optional(z.string().check(z.maxLength(255))),
  user_email: normalisedEmail,
});

export const flexSlotsUpdateRequest = z.extend(flexSlotsRequest, {
  user_slots: z.array(flexSlotUpdate).check(
    z.maxLength(MAX_FLEX_SLOTS),
    z.refine((slots) => new Set(slots.map((s) => s.slot_id)).size === slots.length, {
      error: 'Each slot may appear only once',
    }),
  ),
});

export const flexSlotsResponse = response({
  user_slots: z._default(z.array(flexSlotView), []),
  user_slot_amount: z._default(z.int().check(z.minimum(0)), 0),
  /**
   * The catalogue robot ids a slot may hold (docs/decisions/022): the server's approved list, so
   * the screen offers exactly what UpdateSlots accepts. Not in the spec's answer; an addition.
   */
  approved_robot_ids: z._default(z.array(z.string()), []),
});
export type FlexSlotsResponse = z.infer<typeof flexSlotsResponse>;

// The same operations answer under /api/dial_manager (GET_SLOTS, UPDATE_SLOTS, CLEAR_SLOTS).
export const flexibleLicense = service('flexibleLicense', '/api/flexible_license', {
  GetSlots: action({
    summary: "The signed-in user's flexible slots and how many they may hold.",
    auth: 'bearer',
    request: flexSlotsRequest,
    response: flexSlotsResponse,
  }),
  UpdateSlots: action({
    summary:
      "Save the selection, in one transaction (docs/decisions/061): the user's flexible licenses become the selection's. A slot whose robot_id is unchanged keeps its license, pairing code and paired robot; a license also follows its model's card to another slot; every other filled slot gets a new unpaired flexible license with a pairing code, and a flexible license the selection no longer holds is removed (a robot paired with it is released). Kept licenses run a year from the save. `user_slots` is the whole selection: a slot it leaves out, or whose robot_id is blank, is empty afterwards. Each slot_id must be below user_slot_amount and appear once; each robot_id must be on approved_robot_ids.",
    auth: 'bearer',
    request: flexSlotsUpdateRequest,
    response: flexSlotsResponse,
  }),
  ClearSlots: action({
    summary: "Empty every slot and remove the user's flexible licenses.",
    auth: 'bearer',
    request: flexSlotsRequest,
    response: flexSlotsResponse,
  }),
});
