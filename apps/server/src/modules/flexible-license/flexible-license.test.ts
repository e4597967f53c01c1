import { flexibleLicense, license, operator, robots, time } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  as,
  asOperator,
  expectFieldError,
  grantLicense,
  hardwareHash,
  JUNK_BODIES,
  nextIp,
  type SignedIn,
  signIn,
  useTestApp,
} from '../../test/fixtures.ts';
import type { Answer } from '../../test/harness.ts';
import { loadCatalogue } from '../payment/catalogue.ts';

/**
 * /api/flexible_license over HTTP (spec/001 §4, §5, §7; docs/decisions/022): the approved list,
 * each refusal and that it changed nothing, saves and clears that replace exactly, racing saves,
 * and the dial manager's mount of the same service.
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
}
interface LicenseView {
  robot_id: string;
  asset_id: string;
  robot_model: string;
  pair_code: string;
  isFlexible: boolean;
  robot_license: { license_id: string };
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

describe('UpdateSlots replaces the flexible licenses', () => {
  it('gives each filled slot a new unpaired flexible license with a pairing code', async () => {
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

  it('replaces every old flexible license, keeps other licenses, and empties slots left out', async () => {
    const user = await withSlots(3);
    const bought = await grantLicense(t, user.id, 'Nao');
    const first = slotsOf(await save(user, [slot(0, PEPPER), slot(1, NAO), slot(2, TIAGO)]));
    const oldIds = first.map((s) => s.license_id);

    // Slot 0 keeps its model, slot 1 changes, slot 2 is left out of the selection.
    const second = await save(user, [slot(0, PEPPER), slot(1, TIAGO)]);
    expect(second.status).toBe(200);
    expect(slotsOf(second).map((s) => [s.slot_id, s.robot_id])).toEqual([
      [0, PEPPER],
      [1, TIAGO],
      [2, ''],
    ]);
    const { licenses } = await expectConsistent(user);
    const ids = licenses.map((l) => l.robot_license.license_id);
    for (const old of oldIds) expect(ids).not.toContain(old);
    expect(ids).toContain(bought.licenseId);
    expect(licenses.filter((l) => l.isFlexible)).toHaveLength(2);
  });

  it('releases a robot paired with an old flexible license', async () => {
    const user = await withSlots(1);
    const [filled] = slotsOf(await save(user, [slot(0, NAO)]));
    const [lic] = await licensesOf(user);
    const registered = await as(
      t,
      user,
      robots,
    )('REGISTERSIM', {
      make: 'Nao',
      model: 'Nao',
      name: 'Flexible Nao',
      hardware_hash: hardwareHash(),
    });
    const robotId = (registered.body.robot as { robot_id: string }).robot_id;
    const paired = await as(t, user, license, nextIp())('PAIRROBOT', { pair_code: lic?.pair_code, robot_id: robotId });
    expect(paired.status, JSON.stringify(paired.body)).toBe(200);

    await save(user, [slot(0, NAO)]);
    const [after] = await licensesOf(user);
    expect(after?.robot_license.license_id).not.toBe(filled?.license_id);
    expect(after?.robot_id).toBe('');
    // The dial manager meters the robot again: no license of the user covers it any more.
    const dial = await as(t, user, time)('UPDATE_TIME', { robot_id: robotId, minutes: 1, idempotency_key: 'flex-1' });
    expect(dial.status, JSON.stringify(dial.body)).toBe(200);
  });

  it('leaves one consistent state when saves race', async () => {
    const user = await withSlots(4);
    const a = [slot(0, PEPPER), slot(1, NAO), slot(2, TIAGO), slot(3, PEPPER)];
    const b = [slot(0, TIAGO), slot(1, ''), slot(2, NAO), slot(3, '')];
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all([save(user, a), save(user, b), save(user, a), save(user, b)]);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const { slots } = await expectConsistent(user);
      const robotsNow = slots.map((s) => s.robot_id);
      expect([a.map((s) => s.robot_id), b.map((s) => s.robot_id)]).toContainEqual(robotsNow);
    }
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
