/**
 * Flexible license slots (spec/001 §4, docs/decisions/061): how many a user has, and what saving a
 * selection does to the licenses the slots hold. The server applies `planSlotSave` in the save's
 * transaction; the screen's Confirm Sync dialog lists the same plan before the save.
 */

/** The slot count in force: the larger of the plan's and an operator's grant (none: the plan's alone). */
export function effectiveSlotAmount(planAmount: number, grantedAmount: number | null | undefined): number {
  return Math.max(planAmount, grantedAmount ?? 0);
}

/** A saved slot: the robot model it holds ('' when empty) and the license made for it ('' when none). */
export interface SavedSlot {
  slot_id: number;
  robot_id: string;
  license_id: string;
}

/** A slot of the selection to save: the robot model it should hold ('' for empty). */
export interface WantedSlot {
  slot_id: number;
  robot_id: string;
}

/** What the save does to one slot. */
export type SlotOutcome =
  | { slot_id: number; kind: 'empty' }
  /** same model in the same slot: its license, pairing code and paired robot stay */
  | { slot_id: number; kind: 'kept'; robot_id: string; license_id: string }
  /** the model's card moved here from another slot: its license (and paired robot) comes with it */
  | { slot_id: number; kind: 'moved'; robot_id: string; license_id: string; from_slot_id: number }
  /** a model no saved license of this selection covers: a new unpaired license with a pairing code */
  | { slot_id: number; kind: 'added'; robot_id: string };

export interface SlotSavePlan {
  /** one outcome per slot, 0 to amount - 1 */
  slots: SlotOutcome[];
  /** the saved licenses the selection no longer holds, by their slot: deleted, a paired robot with them */
  released: SavedSlot[];
}

/**
 * What saving `wanted` over `saved` does, for a user with `amount` slots. A saved license is kept
 * while its model stays in the selection: first by the slot that holds the same model in the same
 * place, then by a slot that now holds its model elsewhere (its card moved), the lowest-numbered
 * slots first on both sides. Every other filled slot gets a new license; every saved license left
 * over is released. A slot the selection leaves out is empty; slots at or past `amount` hold
 * nothing (the caller refuses such a selection before it gets here).
 */
export function planSlotSave(saved: readonly SavedSlot[], wanted: readonly WantedSlot[], amount: number): SlotSavePlan {
  const holding = saved.filter((s) => s.robot_id !== '' && s.license_id !== '').sort((a, b) => a.slot_id - b.slot_id);
  const used = new Set<string>();
  const slotIds = Array.from({ length: Math.max(0, amount) }, (_, i) => i);
  const want = (slotId: number) => wanted.find((w) => w.slot_id === slotId)?.robot_id ?? '';

  const outcomes = new Map<number, SlotOutcome>();
  for (const slotId of slotIds) {
    const robotId = want(slotId);
    if (robotId === '') {
      outcomes.set(slotId, { slot_id: slotId, kind: 'empty' });
      continue;
    }
    const same = holding.find((s) => s.slot_id === slotId && s.robot_id === robotId);
    if (same) {
      used.add(same.license_id);
      outcomes.set(slotId, { slot_id: slotId, kind: 'kept', robot_id: robotId, license_id: same.license_id });
    }
  }
  for (const slotId of slotIds) {
    if (outcomes.has(slotId)) continue;
    const robotId = want(slotId);
    const moved = holding.find((s) => s.robot_id === robotId && !used.has(s.license_id));
    if (moved) {
      used.add(moved.license_id);
      outcomes.set(slotId, {
        slot_id: slotId,
        kind: 'moved',
        robot_id: robotId,
        license_id: moved.license_id,
        from_slot_id: moved.slot_id,
      });
    } else outcomes.set(slotId, { slot_id: slotId, kind: 'added', robot_id: robotId });
  }
  return {
    slots: slotIds.map((slotId) => outcomes.get(slotId) as SlotOutcome),
    released: holding.filter((s) => !used.has(s.license_id)),
  };
}
