import { type FlexSlot, type FlexSlotUpdate, planSlotSave } from '@portal/contract';

/**
 * Flexible license slots (spec/001 §2, §4, §5). The screen keeps a working selection and the saved
 * one; a slot holds a catalogue robot id or '' when empty. Every function returns a new selection.
 */

export interface SlotEntry {
  slot_id: number;
  robot_id: string;
}
export type SlotSelection = readonly SlotEntry[];

/** The selection the server holds: one entry per slot 0 to amount - 1, empty where it has none. */
export function selectionFromServer(
  userSlots: readonly Pick<FlexSlot, 'slot_id' | 'robot_id'>[],
  amount: number,
): SlotEntry[] {
  return Array.from({ length: Math.max(0, amount) }, (_, slot_id) => ({
    slot_id,
    robot_id: userSlots.find((s) => s.slot_id === slot_id)?.robot_id ?? '',
  }));
}

const robotIn = (selection: SlotSelection, slotId: number) =>
  selection.find((s) => s.slot_id === slotId)?.robot_id ?? '';

/** A slot is unsynced when its robot_id differs from the saved one. */
export function isSlotUnsynced(working: SlotSelection, saved: SlotSelection, slotId: number): boolean {
  return robotIn(working, slotId) !== robotIn(saved, slotId);
}

export function unsyncedSlotIds(working: SlotSelection, saved: SlotSelection): number[] {
  const ids = new Set([...working, ...saved].map((s) => s.slot_id));
  return [...ids].filter((id) => isSlotUnsynced(working, saved, id)).sort((a, b) => a - b);
}

/** Whether Update has anything to send. */
export function hasChangesToSync(working: SlotSelection, saved: SlotSelection): boolean {
  return unsyncedSlotIds(working, saved).length > 0;
}

/** An empty slot whose saved license is about to be removed. */
export function isRemovalPending(working: SlotSelection, saved: SlotSelection, slotId: number): boolean {
  return robotIn(working, slotId) === '' && robotIn(saved, slotId) !== '';
}

const withRobot = (selection: SlotSelection, slotId: number, robotId: string) =>
  selection.map((s) => (s.slot_id === slotId ? { ...s, robot_id: robotId } : s));

/** Placing a license into a slot replaces what was there. */
export function placeInSlot(selection: SlotSelection, slotId: number, robotId: string): SlotEntry[] {
  return withRobot(selection, slotId, robotId);
}

/** Move a card to another slot (replacing what was there); the origin becomes empty. */
export function moveBetweenSlots(selection: SlotSelection, fromSlotId: number, toSlotId: number): SlotEntry[] {
  if (fromSlotId === toSlotId) return [...selection];
  const robotId = robotIn(selection, fromSlotId);
  return selection.map((s) =>
    s.slot_id === toSlotId ? { ...s, robot_id: robotId } : s.slot_id === fromSlotId ? { ...s, robot_id: '' } : s,
  );
}

/** Removing blanks the slot's robot_id and keeps the slot. */
export function removeFromSlot(selection: SlotSelection, slotId: number): SlotEntry[] {
  return withRobot(selection, slotId, '');
}

/** Clear All empties every slot. */
export function clearAllSlots(selection: SlotSelection): SlotEntry[] {
  return selection.map((s) => ({ ...s, robot_id: '' }));
}

export function allSlotsEmpty(selection: SlotSelection): boolean {
  return selection.every((s) => s.robot_id === '');
}

/** How many licenses a sync creates: the filled slots. */
export function filledSlotCount(selection: SlotSelection): number {
  return selection.filter((s) => s.robot_id !== '').length;
}

/** Update is disabled when there is nothing to sync or while syncing. */
export function updateDisabled(working: SlotSelection, saved: SlotSelection, syncing: boolean): boolean {
  return syncing || !hasChangesToSync(working, saved);
}

/** Clear All is disabled when every slot is empty or while clearing. */
export function clearAllDisabled(working: SlotSelection, clearing: boolean): boolean {
  return clearing || allSlotsEmpty(working);
}

/** The UpdateSlots payload: every slot, license id empty, updated_on in epoch ms. */
export function updateSlotsPayload(working: SlotSelection, nowMs: number): FlexSlotUpdate[] {
  return working.map((s) => ({ slot_id: s.slot_id, license_id: '', robot_id: s.robot_id, updated_on: nowMs }));
}

/** "1 license", "3 licenses": the count the Confirm Sync dialog states. */
export function licenseCountText(count: number): string {
  return `${count} ${count === 1 ? 'license' : 'licenses'}`;
}

/** "1 of 3 slots used": the filled slots of the selection shown, of the slots the user has. */
export function slotsUsedText(selection: SlotSelection): string {
  return `${filledSlotCount(selection)} of ${selection.length} ${selection.length === 1 ? 'slot' : 'slots'} used`;
}

// ---- what a sync does (docs/decisions/061) ---------------------------------------------------

/** A saved slot as GetSlots answers it: its license, and the robot that license is paired with. */
export type SavedSlotView = Pick<FlexSlot, 'slot_id' | 'robot_id' | 'license_id'> & { paired_robot_name?: string };

export interface SyncSummary {
  /** what the save changes, slot by slot: licenses added, removed, robots unpaired */
  changes: string[];
  /** the licenses it keeps, in their slot or following their card */
  kept: string[];
}

/**
 * What syncing `working` over the saved slots will do, in the words Confirm Sync lists below the
 * spec's text: the server applies the same rule (`planSlotSave`). `model` names a robot id's model;
 * `paired` tells whether a saved license is paired with a robot.
 */
export function syncSummary(input: {
  saved: readonly SavedSlotView[];
  working: SlotSelection;
  model: (robotId: string) => string;
  paired: (licenseId: string) => boolean;
}): SyncSummary {
  const { saved, working, model } = input;
  const plan = planSlotSave(
    saved.map((s) => ({ slot_id: s.slot_id, robot_id: s.robot_id, license_id: s.license_id })),
    working,
    working.length,
  );
  const robotOf = (licenseId: string) => {
    if (!input.paired(licenseId)) return undefined;
    return saved.find((s) => s.license_id === licenseId)?.paired_robot_name || SYNC_TEXT.unnamedRobot;
  };
  const changes: { slot: number; text: string }[] = [];
  const kept: { slot: number; text: string }[] = [];
  for (const r of plan.released) {
    const robot = robotOf(r.license_id);
    changes.push({
      slot: r.slot_id,
      text: robot
        ? SYNC_TEXT.unpaired(r.slot_id, robot, model(r.robot_id))
        : SYNC_TEXT.removed(r.slot_id, model(r.robot_id)),
    });
  }
  for (const s of plan.slots) {
    if (s.kind === 'added') changes.push({ slot: s.slot_id, text: SYNC_TEXT.added(s.slot_id, model(s.robot_id)) });
    if (s.kind === 'kept' || s.kind === 'moved') {
      const robot = robotOf(s.license_id);
      const from = s.kind === 'moved' ? s.from_slot_id : undefined;
      kept.push({ slot: s.slot_id, text: SYNC_TEXT.kept(s.slot_id, model(s.robot_id), robot, from) });
    }
  }
  // Slot by slot; within a slot, what goes before what comes (the released license first).
  const bySlot = (list: { slot: number; text: string }[]) =>
    list
      .map((x, i) => ({ ...x, i }))
      .sort((a, b) => a.slot - b.slot || a.i - b.i)
      .map((x) => x.text);
  return { changes: bySlot(changes), kept: bySlot(kept) };
}

export const SYNC_TEXT = {
  changesHeading: 'Changes',
  keptHeading: 'Kept',
  unnamedRobot: 'A robot',
  added: (slotId: number, model: string) => `Slot ${slotId + 1}: ${model} added`,
  removed: (slotId: number, model: string) => `Slot ${slotId + 1}: ${model} removed`,
  unpaired: (slotId: number, robot: string, model: string) =>
    `Slot ${slotId + 1}: ${robot} (${model}) will be unpaired`,
  kept: (slotId: number, model: string, robot: string | undefined, fromSlotId: number | undefined) =>
    `Slot ${slotId + 1}: ${robot ? `${robot} (${model})` : model} ${
      fromSlotId === undefined ? 'kept' : `moved from Slot ${fromSlotId + 1}`
    }, ${robot ? 'stays paired' : 'same pairing code'}`,
} as const;

// ---- slot prompts ----------------------------------------------------------------------------

export const SLOT_TEXT = {
  selectEmpty: 'Click to select a robot license',
  removeOrReplace: 'Click to remove or replace',
  releaseToPlace: 'Release to place',
  releaseToReplace: 'Release to replace',
  invalidDrop: 'Invalid drop target',
  removalPending: 'Removal pending sync',
  selectNew: 'Click to select a new license for this slot.',
  unsynced: 'Unsynced Changes',
  releaseHereToRemove: 'Release here to remove',
  releaseToRemove: 'Release to Remove',
} as const;

export type SlotDrag = 'none' | 'over-valid' | 'over-invalid';

/** The prompt a slot shows, and its second line when it has one. */
export function slotPrompt(input: { filled: boolean; removalPending: boolean; drag?: SlotDrag }): {
  text: string;
  detail?: string;
} {
  const drag = input.drag ?? 'none';
  if (drag === 'over-invalid') return { text: SLOT_TEXT.invalidDrop };
  if (drag === 'over-valid') return { text: input.filled ? SLOT_TEXT.releaseToReplace : SLOT_TEXT.releaseToPlace };
  if (input.filled) return { text: SLOT_TEXT.removeOrReplace };
  if (input.removalPending) return { text: SLOT_TEXT.removalPending, detail: SLOT_TEXT.selectNew };
  return { text: SLOT_TEXT.selectEmpty };
}

// ---- drag and drop (spec/001 §5 drop rules) --------------------------------------------------

/** What is being dragged: a card of the available list, or the card in a slot. */
export type DragSource = { from: 'available'; robot_id: string } | { from: 'slot'; slot_id: number; robot_id: string };

/** Where it is over or was released: a slot, the available list (removes a slot's card), or nowhere. */
export type DropTarget = { to: 'slot'; slot_id: number } | { to: 'available' } | null;

export type DropKind = 'place' | 'move' | 'remove' | 'invalid' | 'none';

/**
 * What releasing a drag does. A slot's card can go onto any other slot, filled or not (it moves
 * and replaces), or back onto the available list (it is removed). A card of the available list is
 * checked on release: a slot that already holds that very license is an invalid target. Anything
 * else (back where it came from, nowhere) changes nothing.
 */
export function dropResult(
  selection: SlotSelection,
  source: DragSource,
  target: DropTarget,
): { kind: DropKind; selection: SlotEntry[] } {
  const unchanged = (kind: DropKind) => ({ kind, selection: [...selection] });
  if (!target) return unchanged('none');
  if (source.from === 'available') {
    if (target.to === 'available') return unchanged('none');
    if (!selection.some((s) => s.slot_id === target.slot_id)) return unchanged('invalid');
    if (robotIn(selection, target.slot_id) === source.robot_id) return unchanged('invalid');
    return { kind: 'place', selection: placeInSlot(selection, target.slot_id, source.robot_id) };
  }
  if (target.to === 'available') return { kind: 'remove', selection: removeFromSlot(selection, source.slot_id) };
  if (target.slot_id === source.slot_id) return unchanged('none');
  if (!selection.some((s) => s.slot_id === target.slot_id)) return unchanged('invalid');
  return { kind: 'move', selection: moveBetweenSlots(selection, source.slot_id, target.slot_id) };
}

/** How a slot looks while a drag hovers it: the prompt of slotPrompt. */
export function slotDragState(selection: SlotSelection, source: DragSource, slotId: number): SlotDrag {
  const { kind } = dropResult(selection, source, { to: 'slot', slot_id: slotId });
  if (kind === 'invalid') return 'over-invalid';
  return kind === 'place' || kind === 'move' ? 'over-valid' : 'none';
}

/**
 * The next drop target for the keyboard: the slots in order, then the available list, wrapping
 * around. `current` is the target the drag is over (-1 for none); `count` is slots plus one.
 */
export function nextKeyboardTarget(current: number, count: number, step: 1 | -1): number {
  if (count <= 0) return -1;
  if (current < 0) return step === 1 ? 0 : count - 1;
  return (current + step + count) % count;
}
