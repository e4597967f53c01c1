import { describe, expect, it } from 'vitest';
import { effectiveSlotAmount, planSlotSave, type SavedSlot, type SlotSavePlan } from './flex-slots.ts';

describe('effectiveSlotAmount', () => {
  it.each<[string, number, number | null | undefined, number]>([
    ['no plan, no grant', 0, null, 0],
    ['a plan alone', 3, null, 3],
    ['a grant alone', 0, 2, 2],
    ['a grant below the plan (the demo account on Pro)', 3, 2, 3],
    ['a grant above the plan (the demo account on Standard)', 1, 2, 2],
    ['a grant of 0 takes nothing from the plan', 3, 0, 3],
    ['an unknown grant counts as none', 1, undefined, 1],
  ])('%s', (_name, plan, grant, amount) => {
    expect(effectiveSlotAmount(plan, grant)).toBe(amount);
  });
});

const NAO = 'driver-nao';
const PEPPER = 'driver-pepper';
const TIAGO = 'driver-tiago-steel';
const held = (slot_id: number, robot_id: string, license_id = `lic-${slot_id}`): SavedSlot => ({
  slot_id,
  robot_id,
  license_id: robot_id ? license_id : '',
});
/** A selection by position: [NAO, '', PEPPER] is slot 0 Nao, slot 1 empty, slot 2 Pepper. */
const selection = (robots: string[]) => robots.map((robot_id, slot_id) => ({ slot_id, robot_id }));

/** The plan in short: one word per slot, and the released licenses. */
function brief(plan: SlotSavePlan) {
  return {
    slots: plan.slots.map((s) => {
      if (s.kind === 'empty') return '-';
      if (s.kind === 'kept') return `kept ${s.license_id}`;
      if (s.kind === 'moved') return `moved ${s.license_id} from ${s.from_slot_id}`;
      return `added ${s.robot_id}`;
    }),
    released: plan.released.map((s) => s.license_id),
  };
}

describe('planSlotSave (docs/decisions/061)', () => {
  it.each<[string, SavedSlot[], string[], number, ReturnType<typeof brief>]>([
    ['nothing saved, nothing wanted', [], ['', ''], 2, { slots: ['-', '-'], released: [] }],
    [
      'a first save: every filled slot gets a license',
      [],
      [PEPPER, '', TIAGO],
      3,
      { slots: [`added ${PEPPER}`, '-', `added ${TIAGO}`], released: [] },
    ],
    [
      'the issue: Pepper added to empty slot 2 keeps slot 1',
      [held(0, NAO, 'lab-nao'), held(1, '')],
      [NAO, PEPPER],
      2,
      { slots: ['kept lab-nao', `added ${PEPPER}`], released: [] },
    ],
    [
      'saving the same selection again changes nothing',
      [held(0, NAO), held(1, PEPPER)],
      [NAO, PEPPER],
      2,
      { slots: ['kept lic-0', 'kept lic-1'], released: [] },
    ],
    [
      'a changed slot gets a new license and releases the old one',
      [held(0, NAO), held(1, PEPPER)],
      [NAO, TIAGO],
      2,
      { slots: ['kept lic-0', `added ${TIAGO}`], released: ['lic-1'] },
    ],
    [
      'a removed card releases its license',
      [held(0, NAO), held(1, PEPPER)],
      ['', PEPPER],
      2,
      { slots: ['-', 'kept lic-1'], released: ['lic-0'] },
    ],
    [
      'a card moved to an empty slot takes its license along',
      [held(0, NAO), held(1, ''), held(2, '')],
      ['', '', NAO],
      3,
      { slots: ['-', '-', 'moved lic-0 from 0'], released: [] },
    ],
    [
      'a card moved onto a filled slot takes its license; the replaced one is released',
      [held(0, NAO), held(1, PEPPER)],
      ['', NAO],
      2,
      { slots: ['-', 'moved lic-0 from 0'], released: ['lic-1'] },
    ],
    [
      'two cards swapped keep both licenses',
      [held(0, NAO), held(1, PEPPER)],
      [PEPPER, NAO],
      2,
      { slots: ['moved lic-1 from 1', 'moved lic-0 from 0'], released: [] },
    ],
    [
      'the same model twice: the one in place stays, the other moves',
      [held(0, PEPPER, 'p0'), held(1, PEPPER, 'p1'), held(2, '')],
      [PEPPER, '', PEPPER],
      3,
      { slots: ['kept p0', '-', 'moved p1 from 1'], released: [] },
    ],
    [
      'the same model twice: one removed, the one still in place is the one kept',
      [held(0, PEPPER, 'p0'), held(1, PEPPER, 'p1')],
      ['', PEPPER],
      2,
      { slots: ['-', 'kept p1'], released: ['p0'] },
    ],
    [
      'one license of a model, wanted in two slots: the second is new',
      [held(0, PEPPER)],
      [PEPPER, PEPPER],
      2,
      { slots: ['kept lic-0', `added ${PEPPER}`], released: [] },
    ],
    [
      'a slot whose license is gone gets a new one',
      [{ slot_id: 0, robot_id: NAO, license_id: '' }],
      [NAO],
      1,
      { slots: [`added ${NAO}`], released: [] },
    ],
    [
      'a slot the selection leaves out is empty',
      [held(0, NAO), held(1, PEPPER)],
      [NAO],
      2,
      { slots: ['kept lic-0', '-'], released: ['lic-1'] },
    ],
    [
      'a license saved past the slot count can move into a slot',
      [held(0, ''), held(2, NAO)],
      [NAO],
      1,
      { slots: ['moved lic-2 from 2'], released: [] },
    ],
    [
      'clearing releases everything',
      [held(0, NAO), held(1, PEPPER), held(2, TIAGO)],
      ['', '', ''],
      3,
      { slots: ['-', '-', '-'], released: ['lic-0', 'lic-1', 'lic-2'] },
    ],
    ['no slots at all', [held(0, NAO)], [], 0, { slots: [], released: ['lic-0'] }],
  ])('%s', (_name, saved, wanted, amount, expected) => {
    expect(brief(planSlotSave(saved, selection(wanted), amount))).toEqual(expected);
  });

  it('keeps each license at most once and never loses one', () => {
    const saved = [held(0, NAO), held(1, PEPPER), held(2, NAO, 'n2'), held(3, TIAGO)];
    const models = [NAO, PEPPER, TIAGO, ''];
    // Every selection of four slots over three models and empty: 256 of them.
    for (let n = 0; n < 4 ** 4; n++) {
      const wanted = [0, 1, 2, 3].map((i) => models[Math.floor(n / 4 ** i) % 4] as string);
      const plan = planSlotSave(saved, selection(wanted), 4);
      const keptIds = plan.slots.flatMap((s) => (s.kind === 'kept' || s.kind === 'moved' ? [s.license_id] : []));
      expect(new Set(keptIds).size).toBe(keptIds.length);
      expect([...keptIds, ...plan.released.map((r) => r.license_id)].sort()).toEqual(
        saved.map((s) => s.license_id).sort(),
      );
      plan.slots.forEach((s, i) => {
        expect(s.slot_id).toBe(i);
        expect(s.kind === 'empty' ? '' : s.robot_id).toBe(wanted[i]);
        if (s.kind === 'kept' || s.kind === 'moved')
          expect(saved.find((x) => x.license_id === s.license_id)?.robot_id).toBe(wanted[i]);
      });
      // A license is released only when no slot that gets a new license could have taken it.
      const added = new Set(plan.slots.flatMap((s) => (s.kind === 'added' ? [s.robot_id] : [])));
      for (const r of plan.released) expect(added.has(r.robot_id)).toBe(false);
    }
  });
});
