import { FIXED_LICENSE_FEATURES } from '../constants.ts';
import type { FlexibleLicenseCard, FlexSlot, FlexSlotUpdate } from '../flexible-license.ts';
import { type PaymentProduct, ProductSorting } from '../payment.ts';
import { robotImage, SUPPORTED_ROBOT_MODELS } from './robot-display.ts';

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

// ---- license cards ---------------------------------------------------------------------------

type CardLike = Pick<FlexibleLicenseCard, 'manufacturer' | 'modelName' | 'description' | 'robotType' | 'features'>;

/** Case-insensitive match on manufacturer, model name, description, any robot type or any feature. */
export function searchLicenseCards<C extends CardLike>(cards: readonly C[], query: string): C[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...cards];
  const has = (text: string) => text.toLowerCase().includes(q);
  return cards.filter(
    (c) =>
      has(c.manufacturer) || has(c.modelName) || has(c.description) || c.robotType.some(has) || c.features.some(has),
  );
}

export type SortDirection = 'asc' | 'desc';

export function toggleSortDirection(direction: SortDirection): SortDirection {
  return direction === 'asc' ? 'desc' : 'asc';
}

/** Sorted by manufacturer plus model name, ascending or descending; does not change its input. */
export function sortLicenseCards<C extends Pick<CardLike, 'manufacturer' | 'modelName'>>(
  cards: readonly C[],
  direction: SortDirection,
): C[] {
  const key = (c: C) => `${c.manufacturer} ${c.modelName}`;
  const sign = direction === 'asc' ? 1 : -1;
  return [...cards].sort((a, b) => sign * key(a).localeCompare(key(b), 'en', { sensitivity: 'base', numeric: true }));
}

const splitList = (text: string | undefined, separator: string) =>
  (text ?? '')
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * License cards from the catalogue's driver products whose model is approved (by default the
 * supported-model list, matched case-insensitively on the product name). Features always start
 * with "Support" and "1 Physical Robot License".
 */
export function flexCardsFromProducts(
  products: readonly PaymentProduct[],
  approved: readonly string[] = SUPPORTED_ROBOT_MODELS,
): FlexibleLicenseCard[] {
  const allowed = new Set(approved.map((m) => m.toLowerCase()));
  return products
    .filter((p) => p.metadata.BOW_SORTING === ProductSorting.Driver && p.metadata.BOW_UUID)
    .filter((p) => allowed.has(p.name.trim().toLowerCase()))
    .map((p) => {
      const extras = splitList(p.metadata.features, ',');
      return {
        id: p.id,
        robot_id: p.metadata.BOW_UUID ?? '',
        manufacturer: p.metadata.manufacturer ?? '',
        modelName: p.name,
        description: p.description,
        robotType: splitList(p.metadata.robotType, ','),
        features: [...new Set<string>([...FIXED_LICENSE_FEATURES, ...extras])],
        img: robotImage(p.name),
      };
    });
}

/** The card a slot shows, tagged with its slot; undefined for an empty slot or an unknown robot. */
export function cardInSlot(entry: SlotEntry, cards: readonly FlexibleLicenseCard[]): FlexibleLicenseCard | undefined {
  if (!entry.robot_id) return undefined;
  const card = cards.find((c) => c.robot_id === entry.robot_id);
  return card && { ...card, slot_id: entry.slot_id, cardId: `slot-${entry.slot_id}-${card.id}` };
}
