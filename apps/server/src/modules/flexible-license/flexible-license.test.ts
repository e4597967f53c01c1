import { flexibleLicense, license, ONE_DAY_MS, operator, payment, robots, time } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  as,
  asOperator,
  expectFieldError,
  grantLicense,
  hardwareHash,
  JUNK_BODIES,
  nextIp,
  relogin,
  type SignedIn,
  signIn,
  useTestApp,
} from '../../test/fixtures.ts';
import type { Answer } from '../../test/harness.ts';
import { loadCatalogue } from '../payment/catalogue.ts';
import { confirmReview, PUBLIC, SUCCESS } from '../payment/payment.test-helpers.ts';
import { buy, PLAN } from '../subscriptions/subscriptions.test-helpers.ts';

/**
 * /api/flexible_license over HTTP (spec/001 §4, §5, §7; docs/decisions/022 and 061): the approved
 * list, each refusal and that it changed nothing, saves that change only the slots that changed
 * (an unchanged or moved license keeps its pairing code and robot), racing saves, clears, and the
 * dial manager's mount of the same service.
 */
const t = useTestApp();

/** The catalogue's driver products (catalogue.json): every one drives a supported model. */
const PEPPER = 'driver-pepper';
const NAO = 'driver-nao';
const TIAGO = 'driver-tiago-steel';
const APPROVED = loadCatalogue()
  .products.filter((p) => p.metadata.BOW_SORTING === 'driver')
  .map((p) => p.metadata.BOW_UUID)
  .sort();

interface SlotView {
  slot_id: number;
  license_id: string;
  robot_id: string;
  updated_on: number;
  paired_robot_name: string;
}
interface LicenseView {
  robot_id: string;
  robot_license: { license_id: string; end_date: number };
  asset_id: string;
  robot_model: string;
  pair_code: string;
  isFlexible: boolean;
}

const call = (user: SignedIn, action: 'GetSlots' | 'UpdateSlots' | 'ClearSlots', body: Record<string, unknown> = {}) =>
  as(t, user, flexibleLicense)(action, { user_email: user.email, user_id: user.id, email: undefined, ...body });
const slot = (slot_id: number, robot_id: string) => ({
  slot_id,
  license_id: '',
  robot_id,
  updated_on: 1_700_000_000_000,
});
const save = (user: SignedIn, slots: unknown[]) => call(user, 'UpdateSlots', { user_slots: slots });

async function withSlots(amount: number): Promise<SignedIn> {
  const user = await signIn(t);
  const res = await asOperator(t, operator)('SetSlotAmount', { email: user.email, amount });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return user;
}

const slotsOf = (res: Answer) => res.body.user_slots as SlotView[];

async function licensesOf(user: SignedIn): Promise<LicenseView[]> {
  const res = await as(t, user, license)('GetLicenses');
  expect(res.status).toBe(200);
  return (res.body.user_licenses as { robot_licenses: LicenseView[] }).robot_licenses;
}

/** Everything a save could change: the slots as GetSlots answers them and every license with its code. */
async function state(user: SignedIn) {
  const slots = await call(user, 'GetSlots');
  expect(slots.status).toBe(200);
  return { slots: slotsOf(slots), licenses: await licensesOf(user) };
}

/** The flexible licenses must be exactly the filled slots' licenses, each of the slot's model. */
async function expectConsistent(user: SignedIn) {
  const { slots, licenses } = await state(user);
  const flexible = licenses.filter((l) => l.isFlexible);
  const filled = slots.filter((s) => s.robot_id !== '');
  expect(flexible.map((l) => l.robot_license.license_id).sort()).toEqual(filled.map((s) => s.license_id).sort());
  for (const s of filled) {
    const l = flexible.find((x) => x.robot_license.license_id === s.license_id);
    expect(l?.asset_id).toBe(s.robot_id);
  }
  expect(slots.filter((s) => s.robot_id === '').every((s) => s.license_id === '')).toBe(true);
  return { slots, licenses };
}

describe('GetSlots', () => {
  it('approves the catalogue drivers the tests use', () => {
    expect(APPROVED).toEqual(expect.arrayContaining([PEPPER, NAO, TIAGO]));
  });

  it('answers the slot count, the saved slots and the approved list', async () => {
    const none = await call(await signIn(t), 'GetSlots');
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ user_slots: [], user_slot_amount: 0, approved_robot_ids: APPROVED });

    const user = await withSlots(3);
    expect((await call(user, 'GetSlots')).body).toMatchObject({ user_slot_amount: 3, approved_robot_ids: APPROVED });
  });

  it('refuses another user id', async () => {
    const user = await signIn(t);
    const res = await call(user, 'GetSlots', { user_id: '00000000-0000-0000-0000-000000000000' });
    expectFieldError(res, 403, 'user_id');
  });
});

describe('UpdateSlots refusals change nothing', () => {
  // One user whose saved state every refusal must leave as it was, pairing codes included.
  const refusals: [string, () => unknown[], number, string][] = [
    ['a slot id at the slot count', () => [slot(0, NAO), slot(2, PEPPER)], 400, 'user_slots.1.slot_id'],
    ['a slot id far past it', () => [slot(99, PEPPER)], 400, 'user_slots.0.slot_id'],
    ['a negative slot id', () => [slot(-1, PEPPER)], 400, 'user_slots.0.slot_id'],
    ['a fractional slot id', () => [slot(0.5, PEPPER)], 400, 'user_slots.0.slot_id'],
    ['the same slot twice', () => [slot(0, NAO), slot(1, TIAGO), slot(0, PEPPER)], 400, 'user_slots'],
    ['a model that is not a catalogue driver', () => [slot(0, 'driver-roomba')], 400, 'user_slots.0.robot_id'],
    ['a product id in place of the robot id', () => [slot(0, 'prod_driver_pepper')], 400, 'user_slots.0.robot_id'],
    ['a time package', () => [slot(1, 'prod_time_60')], 400, 'user_slots.0.robot_id'],
    ['a license id of its own', () => [{ ...slot(0, PEPPER), license_id: 'x' }], 400, 'user_slots.0.license_id'],
  ];

  it.each(refusals)('refuses %s', async (_name, slots, status, field) => {
    const user = await withSlots(2);
    expect((await save(user, [slot(0, PEPPER), slot(1, NAO)])).status).toBe(200);
    const before = await state(user);

    expectFieldError(await save(user, slots()), status, field);
    expect(await state(user)).toEqual(before);
  });

  it('refuses every slot to an account without slots', async () => {
    const user = await signIn(t);
    expectFieldError(await save(user, [slot(0, PEPPER)]), 400, 'user_slots.0.slot_id');
    expect(await state(user)).toEqual({ slots: [], licenses: [] });
  });
});

/** Registers a robot of the slot's model as the hub does and pairs it with the slot's license. */
async function pairSlot(user: SignedIn, slotId: number, name: string): Promise<string> {
  const { slots, licenses } = await state(user);
  const held = slots.find((s) => s.slot_id === slotId);
  const lic = licenses.find((l) => l.robot_license.license_id === held?.license_id);
  if (!lic) throw new Error(`slot ${slotId} holds no license`);
  const registered = await as(
    t,
    user,
    robots,
  )('REGISTERSIM', { make: lic.robot_model, model: lic.robot_model, name, hardware_hash: hardwareHash() });
  const robotId = (registered.body.robot as { robot_id: string }).robot_id;
  const paired = await as(t, user, license, nextIp())('PAIRROBOT', { pair_code: lic.pair_code, robot_id: robotId });
  expect(paired.status, JSON.stringify(paired.body)).toBe(200);
  return robotId;
}

/** A slot's license as GetLicenses shows it: id, pairing code, paired robot. */
async function licenseIn(user: SignedIn, slotId: number) {
  const { slots, licenses } = await state(user);
  const id = slots.find((s) => s.slot_id === slotId)?.license_id ?? '';
  const lic = licenses.find((l) => l.robot_license.license_id === id);
  return { license_id: id, pair_code: lic?.pair_code ?? '', robot_id: lic?.robot_id ?? '' };
}

describe('UpdateSlots changes only the slots that changed (docs/decisions/061)', () => {
  it('gives each filled slot of a first save a new unpaired flexible license with a pairing code', async () => {
    const user = await withSlots(3);
    const res = await save(user, [slot(0, PEPPER), slot(1, ''), slot(2, TIAGO)]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(slotsOf(res).map((s) => [s.slot_id, s.robot_id])).toEqual([
      [0, PEPPER],
      [1, ''],
      [2, TIAGO],
    ]);
    const { licenses } = await expectConsistent(user);
    expect(licenses.map((l) => [l.robot_model, l.isFlexible, l.robot_id]).sort()).toEqual([
      ['Pepper', true, ''],
      ['Tiago_Steel', true, ''],
    ]);
    expect(licenses.every((l) => /^[A-Z2-9]{8}$/.test(l.pair_code))).toBe(true);
  });

  it('keeps an unchanged slot paired when another slot is filled (the issue: Pepper added to slot 2)', async () => {
    const user = await withSlots(2);
    await save(user, [slot(0, NAO), slot(1, '')]);
    const robotId = await pairSlot(user, 0, 'Lab Nao');
    const before = await licenseIn(user, 0);
    const updatedOn = slotsOf(await call(user, 'GetSlots'))[0]?.updated_on;

    const res = await save(user, [slot(0, NAO), slot(1, PEPPER)]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await licenseIn(user, 0)).toEqual({ ...before, robot_id: robotId });
    expect(slotsOf(res)[0]?.updated_on).toBe(updatedOn);
    // The answer names the paired robot, so the screen can say which robot a save would unpair.
    expect(slotsOf(res).map((s) => s.paired_robot_name)).toEqual(['Lab Nao', '']);
    const { licenses } = await expectConsistent(user);
    expect(licenses.find((l) => l.robot_id === robotId)?.isFlexible).toBe(true);
    expect(await licenseIn(user, 1)).toMatchObject({ pair_code: expect.stringMatching(/^[A-Z2-9]{8}$/), robot_id: '' });
  });

  it("keeps an unchanged unpaired slot's license and pairing code", async () => {
    const user = await withSlots(3);
    await save(user, [slot(0, PEPPER), slot(1, NAO)]);
    const before = [await licenseIn(user, 0), await licenseIn(user, 1)];

    await save(user, [slot(0, PEPPER), slot(1, NAO), slot(2, TIAGO)]);
    expect([await licenseIn(user, 0), await licenseIn(user, 1)]).toEqual(before);
    // Saving the very same selection again changes nothing either.
    await save(user, [slot(0, PEPPER), slot(1, NAO), slot(2, TIAGO)]);
    expect([await licenseIn(user, 0), await licenseIn(user, 1)]).toEqual(before);
    await expectConsistent(user);
  });

  it('keeps a paired robot paired when its card moves to another slot', async () => {
    const user = await withSlots(3);
    await save(user, [slot(0, NAO), slot(1, PEPPER)]);
    const robotId = await pairSlot(user, 0, 'Lab Nao');
    const nao = await licenseIn(user, 0);
    const pepper = await licenseIn(user, 1);

    // Nao's card moves from slot 1 to slot 3; slot 1 is left empty.
    const res = await save(user, [slot(0, ''), slot(1, PEPPER), slot(2, NAO)]);
    expect(slotsOf(res).map((s) => [s.slot_id, s.robot_id, s.license_id])).toEqual([
      [0, '', ''],
      [1, PEPPER, pepper.license_id],
      [2, NAO, nao.license_id],
    ]);
    expect(await licenseIn(user, 2)).toEqual({ ...nao, robot_id: robotId });
    // Swapped with Pepper: both licenses follow their cards.
    await save(user, [slot(0, ''), slot(1, NAO), slot(2, PEPPER)]);
    expect(await licenseIn(user, 1)).toEqual({ ...nao, robot_id: robotId });
    expect(await licenseIn(user, 2)).toEqual(pepper);
    await expectConsistent(user);
  });

  it('gives a changed slot a new license and releases the robot paired with the old one', async () => {
    const user = await withSlots(2);
    const bought = await grantLicense(t, user.id, 'Nao');
    await save(user, [slot(0, NAO), slot(1, PEPPER)]);
    const robotId = await pairSlot(user, 0, 'Lab Nao');
    const old = await licenseIn(user, 0);
    const pepper = await licenseIn(user, 1);

    const res = await save(user, [slot(0, TIAGO), slot(1, PEPPER)]);
    expect(res.status).toBe(200);
    const now = await licenseIn(user, 0);
    expect(now.license_id).not.toBe(old.license_id);
    expect(now).toMatchObject({ robot_id: '', pair_code: expect.stringMatching(/^[A-Z2-9]{8}$/) });
    expect(await licenseIn(user, 1)).toEqual(pepper);
    const { licenses } = await expectConsistent(user);
    expect(licenses.map((l) => l.robot_license.license_id)).not.toContain(old.license_id);
    expect(licenses.map((l) => l.robot_license.license_id)).toContain(bought.licenseId);
    expect(licenses.some((l) => l.robot_id === robotId)).toBe(false);
    // The dial manager meters the robot again: no license of the user covers it any more.
    const dial = await as(t, user, time)('UPDATE_TIME', { robot_id: robotId, minutes: 1, idempotency_key: 'flex-1' });
    expect(dial.status, JSON.stringify(dial.body)).toBe(200);
  });

  it('empties a slot left out of the selection, deleting its license', async () => {
    const user = await withSlots(3);
    await save(user, [slot(0, PEPPER), slot(1, NAO), slot(2, TIAGO)]);
    const kept = await licenseIn(user, 0);
    const res = await save(user, [slot(0, PEPPER), slot(1, TIAGO)]);
    expect(slotsOf(res).map((s) => [s.slot_id, s.robot_id])).toEqual([
      [0, PEPPER],
      [1, TIAGO],
      [2, ''],
    ]);
    expect(await licenseIn(user, 0)).toEqual(kept);
    const { licenses } = await expectConsistent(user);
    expect(licenses.filter((l) => l.isFlexible)).toHaveLength(2);
  });

  it('runs a kept license for a year from the save again, as a new one would', async () => {
    const first = await withSlots(2);
    await save(first, [slot(0, NAO)]);
    const kept = await licenseIn(first, 0);
    t.clock.advance(200 * ONE_DAY_MS);
    const user = await relogin(t, first);
    const savedAt = t.clock.now().getTime();
    await save(user, [slot(0, NAO), slot(1, PEPPER)]);
    expect(await licenseIn(user, 0)).toEqual(kept);
    const { licenses } = await state(user);
    for (const l of licenses) {
      expect(l.robot_license.end_date).toBeGreaterThanOrEqual(savedAt + 365 * ONE_DAY_MS);
      expect(l.robot_license.end_date).toBeLessThan(savedAt + 365 * ONE_DAY_MS + 60_000);
    }
  });
});

describe('racing saves', () => {
  it('apply one after the other: the last one wins whole, the slot both keep stays paired', async () => {
    const user = await withSlots(4);
    await save(user, [slot(0, NAO)]);
    const robotId = await pairSlot(user, 0, 'Lab Nao');
    const nao = await licenseIn(user, 0);
    const a = [slot(0, NAO), slot(1, PEPPER), slot(2, TIAGO), slot(3, PEPPER)];
    const b = [slot(0, NAO), slot(1, ''), slot(2, PEPPER), slot(3, TIAGO)];
    for (let round = 0; round < 4; round++) {
      const answers = await Promise.all([save(user, a), save(user, b), save(user, a), save(user, b)]);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const { slots, licenses } = await expectConsistent(user);
      expect([a.map((s) => s.robot_id), b.map((s) => s.robot_id)]).toContainEqual(slots.map((s) => s.robot_id));
      // Nothing half-written: one license per filled slot, none twice, none left over.
      const ids = slots.filter((s) => s.robot_id).map((s) => s.license_id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(licenses.filter((l) => l.isFlexible)).toHaveLength(ids.length);
      expect(await licenseIn(user, 0)).toEqual({ ...nao, robot_id: robotId });
    }
  });

  it('a save racing a shrinking slot count never fills a slot the count took away', async () => {
    const user = await withSlots(3);
    // Slot 0 is filled before the race, so a save the shrink refuses leaves the same slots as one it trims.
    expect((await save(user, [slot(0, NAO)])).status).toBe(200);
    for (let round = 0; round < 4; round++) {
      const [saved, shrunk] = await Promise.all([
        save(user, [slot(0, NAO), slot(1, PEPPER), slot(2, TIAGO)]),
        asOperator(t, operator)('SetSlotAmount', { email: user.email, amount: 1 }),
      ]);
      expect(shrunk.status).toBe(200);
      // Before the shrink the save succeeds and is trimmed; after it, slot 2 is refused whole.
      if (saved.status !== 200) expectFieldError(saved, 400, 'user_slots.1.slot_id');
      const { slots } = await expectConsistent(user);
      expect(slots.map((s) => s.slot_id)).toEqual([0]);
      expect((await asOperator(t, operator)('SetSlotAmount', { email: user.email, amount: 3 })).status).toBe(200);
    }
  });
});

describe("slot counts follow the plan and an operator's grant (docs/decisions/061)", () => {
  const grantTier = (user: SignedIn, tier: string) =>
    asOperator(t, operator)('GrantSubscription', { email: user.email, tier, override_kind: 1 });
  const setGrant = async (user: SignedIn, amount: number | null) => {
    const res = await asOperator(t, operator)('SetSlotAmount', { email: user.email, amount });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return {
      amount: res.body.user_slot_amount,
      plan: res.body.plan_slot_amount,
      granted: res.body.granted_slot_amount,
    };
  };
  const amountOf = async (user: SignedIn) => (await call(user, 'GetSlots')).body.user_slot_amount;

  it("has the larger of the plan's count and the grant; clearing the grant leaves the plan's", async () => {
    const user = await signIn(t);
    expect(await amountOf(user)).toBe(0);
    expect((await grantTier(user, 'Standard Subscription')).status).toBe(200);
    expect(await amountOf(user)).toBe(1);
    expect(await setGrant(user, 2)).toEqual({ amount: 2, plan: 1, granted: 2 });
    expect(await amountOf(user)).toBe(2);
    // The Pro card's "3 flexible license slots": the plan's 3 over the grant's 2.
    expect((await grantTier(user, 'Pro Subscription')).status).toBe(200);
    expect(await amountOf(user)).toBe(3);
    expect(await setGrant(user, 2)).toEqual({ amount: 3, plan: 3, granted: 2 });
    expect(await setGrant(user, 5)).toEqual({ amount: 5, plan: 3, granted: 5 });
    expect(await setGrant(user, null)).toEqual({ amount: 3, plan: 3, granted: null });
    expect(await amountOf(user)).toBe(3);
    // A grant of 0 takes nothing from the plan.
    expect(await setGrant(user, 0)).toEqual({ amount: 3, plan: 3, granted: 0 });
  });

  it('a paid Standard plan with a grant of 2 has 3 slots after an upgrade to Pro (the demo account)', async () => {
    const user = await signIn(t);
    await buy(t, user, [PLAN.standardMonthly]);
    expect(await setGrant(user, 2)).toEqual({ amount: 2, plan: 1, granted: 2 });
    await save(user, [slot(0, NAO)]);
    const robotId = await pairSlot(user, 0, 'Lab Nao');
    const nao = await licenseIn(user, 0);

    const res = await as(
      t,
      user,
      payment,
    )('HandlePurchase', {
      session: { products: [PLAN.proMonthly], success_url: SUCCESS, cancel_url: `${PUBLIC}/dashboard/cart/cancel` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { session_id, session_url } = res.body.session as { session_id: string; session_url: string };
    // The upgrade is reviewed first (issue 31): nothing changes before Confirm.
    expect(await amountOf(user)).toBe(2);
    await confirmReview(t, session_url);
    expect((await as(t, user, payment)('ConfirmPurchase', { session_id })).status).toBe(200);

    expect(await amountOf(user)).toBe(3);
    expect(await setGrant(user, 2)).toEqual({ amount: 3, plan: 3, granted: 2 });
    expect(await licenseIn(user, 0)).toEqual({ ...nao, robot_id: robotId });
  });

  it('when the plan ends the highest slots empty down to the grant, and the customer is told', async () => {
    const user = await signIn(t);
    await grantTier(user, 'Pro Subscription');
    await setGrant(user, 2);
    await save(user, [slot(0, NAO), slot(1, PEPPER), slot(2, TIAGO)]);
    const kept = [await licenseIn(user, 0), await licenseIn(user, 1)];
    const dropped = await licenseIn(user, 2);

    // Granting Lite ends the Pro grant: the plan gives 0, the grant keeps 2.
    expect((await grantTier(user, 'Lite Subscription')).status).toBe(200);
    const { slots, licenses } = await expectConsistent(user);
    expect(slots.map((s) => [s.slot_id, s.robot_id])).toEqual([
      [0, NAO],
      [1, PEPPER],
    ]);
    expect([await licenseIn(user, 0), await licenseIn(user, 1)]).toEqual(kept);
    expect(licenses.map((l) => l.robot_license.license_id)).not.toContain(dropped.license_id);
    expect(t.mailer.lastTo(user.email)?.text).toContain('slot 3 (Tiago_Steel)');

    // Clearing the grant leaves the plan's 0: every slot empties.
    expect(await setGrant(user, null)).toEqual({ amount: 0, plan: 0, granted: null });
    expect(await state(user)).toEqual({ slots: [], licenses: [] });
  });

  it('a plan that shrinks below the grant empties nothing the grant still covers', async () => {
    const user = await signIn(t);
    await grantTier(user, 'Pro Subscription');
    await setGrant(user, 3);
    await save(user, [slot(0, NAO), slot(1, PEPPER), slot(2, TIAGO)]);
    const before = await state(user);
    await grantTier(user, 'Standard Subscription');
    expect(await setGrant(user, 3)).toEqual({ amount: 3, plan: 1, granted: 3 });
    expect(await state(user)).toEqual(before);
  });
});

describe('ClearSlots', () => {
  it('empties every slot and removes only the flexible licenses', async () => {
    const user = await withSlots(2);
    const bought = await grantLicense(t, user.id, 'Pepper');
    await save(user, [slot(0, PEPPER), slot(1, NAO)]);
    const res = await call(user, 'ClearSlots');
    expect(res.status).toBe(200);
    expect(slotsOf(res).map((s) => [s.slot_id, s.robot_id, s.license_id])).toEqual([
      [0, '', ''],
      [1, '', ''],
    ]);
    const licenses = await licensesOf(user);
    expect(licenses.map((l) => l.robot_license.license_id)).toEqual([bought.licenseId]);
  });
});

describe('one service, two mounts', () => {
  it('answers the same slots under /api/dial_manager', async () => {
    const user = await withSlots(2);
    const viaDial = await as(
      t,
      user,
      time,
    )('UPDATE_SLOTS', {
      user_email: user.email,
      user_id: user.id,
      email: undefined,
      user_slots: [slot(1, TIAGO)],
    });
    expect(viaDial.status, JSON.stringify(viaDial.body)).toBe(200);
    const got = await call(user, 'GetSlots');
    const dialGot = await as(t, user, time)('GET_SLOTS', { user_email: user.email, email: undefined });
    expect(dialGot.body.user_slots).toEqual(got.body.user_slots);
    expect(dialGot.body.approved_robot_ids).toEqual(APPROVED);
    expectFieldError(
      await as(t, user, time)('UPDATE_SLOTS', { user_email: user.email, email: undefined, user_slots: [slot(2, NAO)] }),
      400,
      'user_slots.0.slot_id',
    );
    await as(t, user, time)('CLEAR_SLOTS', { user_email: user.email, email: undefined });
    expect(slotsOf(await call(user, 'GetSlots')).every((s) => s.robot_id === '')).toBe(true);
  });
});

describe('never a 500', () => {
  it.each(Object.keys(flexibleLicense.actions))('%s answers junk with a 4xx naming what is wrong', async (action) => {
    const user = await signIn(t);
    for (const body of JUNK_BODIES) {
      const res = await as(t, user, flexibleLicense)(action as keyof typeof flexibleLicense.actions, body);
      expect(res.status, `${action} ${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`).toBeLessThan(500);
      if (res.status >= 400) expect(res.body.error.Description).toMatch(/^[\w.[\]-]+: /);
    }
  });
});
