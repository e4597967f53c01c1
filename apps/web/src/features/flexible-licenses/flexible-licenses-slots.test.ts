import { describe, expect, it } from 'vitest';
import {
  allSlotsEmpty,
  clearAllDisabled,
  clearAllSlots,
  type DragSource,
  type DropKind,
  type DropTarget,
  dropResult,
  filledSlotCount,
  hasChangesToSync,
  isRemovalPending,
  isSlotUnsynced,
  licenseCountText,
  moveBetweenSlots,
  nextKeyboardTarget,
  placeInSlot,
  removeFromSlot,
  type SavedSlotView,
  type SlotDrag,
  type SlotSelection,
  selectionFromServer,
  slotDragState,
  slotPrompt,
  slotsUsedText,
  syncSummary,
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

describe('dropResult (spec/001 §5 drop rules)', () => {
  const start = sel('nao', '', 'pepper');
  it.each<[string, DragSource, DropTarget, DropKind, string[]]>([
    [
      'available onto an empty slot places',
      { from: 'available', robot_id: 'tiago' },
      { to: 'slot', slot_id: 1 },
      'place',
      ['nao', 'tiago', 'pepper'],
    ],
    [
      'available onto a filled slot replaces',
      { from: 'available', robot_id: 'tiago' },
      { to: 'slot', slot_id: 0 },
      'place',
      ['tiago', '', 'pepper'],
    ],
    [
      'available onto a slot holding it is invalid',
      { from: 'available', robot_id: 'nao' },
      { to: 'slot', slot_id: 0 },
      'invalid',
      ['nao', '', 'pepper'],
    ],
    [
      'available onto an unknown slot is invalid',
      { from: 'available', robot_id: 'nao' },
      { to: 'slot', slot_id: 7 },
      'invalid',
      ['nao', '', 'pepper'],
    ],
    [
      'available onto available does nothing',
      { from: 'available', robot_id: 'nao' },
      { to: 'available' },
      'none',
      ['nao', '', 'pepper'],
    ],
    [
      'slot onto an empty slot moves',
      { from: 'slot', slot_id: 0, robot_id: 'nao' },
      { to: 'slot', slot_id: 1 },
      'move',
      ['', 'nao', 'pepper'],
    ],
    [
      'slot onto a filled slot moves and replaces',
      { from: 'slot', slot_id: 0, robot_id: 'nao' },
      { to: 'slot', slot_id: 2 },
      'move',
      ['', '', 'nao'],
    ],
    [
      'slot onto itself does nothing',
      { from: 'slot', slot_id: 0, robot_id: 'nao' },
      { to: 'slot', slot_id: 0 },
      'none',
      ['nao', '', 'pepper'],
    ],
    [
      'slot onto available removes',
      { from: 'slot', slot_id: 2, robot_id: 'pepper' },
      { to: 'available' },
      'remove',
      ['nao', '', ''],
    ],
    [
      'released nowhere does nothing',
      { from: 'slot', slot_id: 2, robot_id: 'pepper' },
      null,
      'none',
      ['nao', '', 'pepper'],
    ],
  ])('%s', (_name, source, target, kind, after) => {
    const result = dropResult(start, source, target);
    expect(result.kind).toBe(kind);
    expect(robots(result.selection)).toEqual(after);
    expect(robots(start)).toEqual(['nao', '', 'pepper']);
  });

  it.each<[DragSource, number, SlotDrag]>([
    [{ from: 'available', robot_id: 'tiago' }, 1, 'over-valid'],
    [{ from: 'available', robot_id: 'nao' }, 0, 'over-invalid'],
    [{ from: 'slot', slot_id: 0, robot_id: 'nao' }, 2, 'over-valid'],
    [{ from: 'slot', slot_id: 0, robot_id: 'nao' }, 0, 'none'],
  ])('slotDragState %o over slot %i -> %s', (source, slotId, state) => {
    expect(slotDragState(start, source, slotId)).toBe(state);
  });
});

describe('nextKeyboardTarget', () => {
  it.each([
    [-1, 4, 1, 0],
    [-1, 4, -1, 3],
    [0, 4, 1, 1],
    [3, 4, 1, 0],
    [0, 4, -1, 3],
    [2, 4, -1, 1],
    [-1, 0, 1, -1],
  ] as const)('from %i of %i by %i -> %i', (current, count, step, next) => {
    expect(nextKeyboardTarget(current, count, step)).toBe(next);
  });
});

describe('slotsUsedText', () => {
  it.each([
    [sel('', '', ''), '0 of 3 slots used'],
    [sel('nao', '', 'pepper'), '2 of 3 slots used'],
    [sel('nao'), '1 of 1 slot used'],
    [sel(''), '0 of 1 slot used'],
  ])('%o: %s', (selection, text) => {
    expect(slotsUsedText(selection)).toBe(text);
  });
});

describe('syncSummary: what Confirm Sync lists (docs/decisions/061)', () => {
  const MODELS: Record<string, string> = { nao: 'Nao', pepper: 'Pepper', tiago: 'Tiago Steel' };
  const saved = (...slots: [string, string?, string?][]): SavedSlotView[] =>
    slots.map(([robot_id, license_id = '', paired_robot_name = ''], slot_id) => ({
      slot_id,
      robot_id,
      license_id: robot_id ? license_id || `lic-${slot_id}` : '',
      paired_robot_name,
    }));
  const summary = (before: SavedSlotView[], working: SlotSelection) =>
    syncSummary({
      saved: before,
      working,
      model: (id) => MODELS[id] ?? id,
      paired: (licenseId) => before.some((s) => s.license_id === licenseId && s.paired_robot_name !== ''),
    });

  it.each<[string, SavedSlotView[], SlotSelection, { changes: string[]; kept: string[] }]>([
    [
      'the issue: Pepper added beside a paired Nao',
      saved(['nao', 'n', 'Lab Nao'], ['']),
      sel('nao', 'pepper'),
      { changes: ['Slot 2: Pepper added'], kept: ['Slot 1: Lab Nao (Nao) kept, stays paired'] },
    ],
    [
      'a paired slot replaced: its robot will be unpaired, the new model added',
      saved(['nao', 'n', 'Lab Nao'], ['']),
      sel('pepper', ''),
      { changes: ['Slot 1: Lab Nao (Nao) will be unpaired', 'Slot 1: Pepper added'], kept: [] },
    ],
    [
      'an unpaired slot removed, another kept with its code',
      saved(['nao'], ['pepper']),
      sel('', 'pepper'),
      { changes: ['Slot 1: Nao removed'], kept: ['Slot 2: Pepper kept, same pairing code'] },
    ],
    [
      'a paired card moved to another slot',
      saved(['nao', 'n', 'Lab Nao'], [''], ['']),
      sel('', '', 'nao'),
      { changes: [], kept: ['Slot 3: Lab Nao (Nao) moved from Slot 1, stays paired'] },
    ],
    [
      'two cards swapped',
      saved(['nao'], ['pepper', 'p', 'Reception Pepper']),
      sel('pepper', 'nao'),
      {
        changes: [],
        kept: [
          'Slot 1: Reception Pepper (Pepper) moved from Slot 2, stays paired',
          'Slot 2: Nao moved from Slot 1, same pairing code',
        ],
      },
    ],
    [
      'a first save',
      saved([''], ['']),
      sel('tiago', 'nao'),
      { changes: ['Slot 1: Tiago Steel added', 'Slot 2: Nao added'], kept: [] },
    ],
    ['a paired robot with no name', saved(['nao', 'n', '']), sel(''), { changes: ['Slot 1: Nao removed'], kept: [] }],
  ])('%s', (_name, before, working, expected) => {
    expect(summary(before, working)).toEqual(expected);
  });

  it('names a paired robot the answer left unnamed "A robot"', () => {
    const result = syncSummary({
      saved: [{ slot_id: 0, robot_id: 'nao', license_id: 'n', paired_robot_name: '' }],
      working: sel(''),
      model: (id) => MODELS[id] ?? id,
      paired: () => true,
    });
    expect(result.changes).toEqual(['Slot 1: A robot (Nao) will be unpaired']);
  });
});
