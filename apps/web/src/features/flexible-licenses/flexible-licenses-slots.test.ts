import { describe, expect, it } from 'vitest';
import {
  allSlotsEmpty,
  clearAllDisabled,
  clearAllSlots,
  filledSlotCount,
  hasChangesToSync,
  isRemovalPending,
  isSlotUnsynced,
  licenseCountText,
  moveBetweenSlots,
  placeInSlot,
  removeFromSlot,
  type SlotSelection,
  selectionFromServer,
  slotPrompt,
  unsyncedSlotIds,
  updateDisabled,
  updateSlotsPayload,
} from './flexible-licenses-slots';

const sel = (...robots: string[]): SlotSelection => robots.map((robot_id, slot_id) => ({ slot_id, robot_id }));
const robots = (s: SlotSelection) => s.map((e) => e.robot_id);

describe('selectionFromServer', () => {
  it.each([
    ['fills missing slots with empty', [{ slot_id: 1, robot_id: 'nao' }], 3, ['', 'nao', '']],
    ['ignores slots beyond the amount', [{ slot_id: 5, robot_id: 'nao' }], 2, ['', '']],
    ['no slots', [], 0, []],
  ] as const)('%s', (_name, slots, amount, expected) => {
    expect(robots(selectionFromServer(slots, amount))).toEqual(expected);
  });
});

describe('sync state', () => {
  it.each([
    ['identical', sel('a', ''), sel('a', ''), []],
    ['placed', sel('a', 'b'), sel('a', ''), [1]],
    ['removed', sel('', ''), sel('a', ''), [0]],
    ['replaced', sel('b', 'a'), sel('a', 'b'), [0, 1]],
  ] as const)('%s', (_name, working, saved, ids) => {
    expect(unsyncedSlotIds(working, saved)).toEqual(ids);
    expect(hasChangesToSync(working, saved)).toBe(ids.length > 0);
    for (const id of [0, 1]) expect(isSlotUnsynced(working, saved, id)).toBe((ids as readonly number[]).includes(id));
  });

  it.each([
    [sel(''), sel('a'), true],
    [sel(''), sel(''), false],
    [sel('b'), sel('a'), false],
  ])('removal pending for %o against %o: %s', (working, saved, pending) => {
    expect(isRemovalPending(working, saved, 0)).toBe(pending);
  });

  it.each([
    [sel('a'), sel(''), false, false],
    [sel('a'), sel(''), true, true],
    [sel('a'), sel('a'), false, true],
  ])('update disabled for %o vs %o syncing %s: %s', (working, saved, syncing, disabled) => {
    expect(updateDisabled(working, saved, syncing)).toBe(disabled);
  });

  it.each([
    [sel('', ''), false, true],
    [sel('a', ''), false, false],
    [sel('a', ''), true, true],
  ])('clear all disabled for %o clearing %s: %s', (working, clearing, disabled) => {
    expect(clearAllDisabled(working, clearing)).toBe(disabled);
    expect(allSlotsEmpty(working)).toBe(robots(working).every((r) => r === ''));
  });
});

describe('changing the working selection', () => {
  it.each([
    ['place into empty', placeInSlot(sel('', ''), 1, 'nao'), ['', 'nao']],
    ['place replaces', placeInSlot(sel('pepper', ''), 0, 'nao'), ['nao', '']],
    ['move to empty', moveBetweenSlots(sel('nao', ''), 0, 1), ['', 'nao']],
    ['move onto filled replaces, origin emptied', moveBetweenSlots(sel('nao', 'pepper'), 0, 1), ['', 'nao']],
    ['move onto itself', moveBetweenSlots(sel('nao', ''), 0, 0), ['nao', '']],
    ['remove keeps the slot', removeFromSlot(sel('nao', 'pepper'), 0), ['', 'pepper']],
    ['clear all', clearAllSlots(sel('nao', 'pepper', '')), ['', '', '']],
  ])('%s', (_name, result, expected) => {
    expect(robots(result)).toEqual(expected);
    expect(result.map((s) => s.slot_id)).toEqual(expected.map((_, i) => i));
  });

  it('does not change its input', () => {
    const input = sel('nao', '');
    placeInSlot(input, 1, 'x');
    moveBetweenSlots(input, 0, 1);
    removeFromSlot(input, 0);
    clearAllSlots(input);
    expect(robots(input)).toEqual(['nao', '']);
  });
});

describe('payload and counts', () => {
  it('UpdateSlots payload has every slot, an empty license id and ms timestamps', () => {
    expect(updateSlotsPayload(sel('nao', ''), 1_700_000_000_000)).toEqual([
      { slot_id: 0, license_id: '', robot_id: 'nao', updated_on: 1_700_000_000_000 },
      { slot_id: 1, license_id: '', robot_id: '', updated_on: 1_700_000_000_000 },
    ]);
  });

  it.each([
    [sel('', ''), 0, '0 licenses'],
    [sel('a', ''), 1, '1 license'],
    [sel('a', 'b'), 2, '2 licenses'],
  ])('%o: %i, %s', (s, n, text) => {
    expect(filledSlotCount(s)).toBe(n);
    expect(licenseCountText(n)).toBe(text);
  });
});

describe('slotPrompt', () => {
  it.each([
    [{ filled: false, removalPending: false }, 'Click to select a robot license', undefined],
    [{ filled: true, removalPending: false }, 'Click to remove or replace', undefined],
    [{ filled: false, removalPending: true }, 'Removal pending sync', 'Click to select a new license for this slot.'],
    [{ filled: false, removalPending: false, drag: 'over-valid' as const }, 'Release to place', undefined],
    [{ filled: true, removalPending: false, drag: 'over-valid' as const }, 'Release to replace', undefined],
    [{ filled: true, removalPending: false, drag: 'over-invalid' as const }, 'Invalid drop target', undefined],
  ])('%o -> %s', (input, text, detail) => {
    expect(slotPrompt(input)).toEqual(detail ? { text, detail } : { text });
  });
});
