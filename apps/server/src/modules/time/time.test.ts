import {
  addYearsUtc,
  license,
  ONE_DAY_MS,
  robots,
  type TierName,
  time,
  type UserTime,
  YEARLY_ALLOCATION_MINUTES,
} from '@portal/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  asOperator,
  closeApp,
  driverAsset,
  expectFieldError,
  grantLicense,
  hardwareHash,
  JUNK_BODIES,
  nextIp,
  OPERATOR_TOKEN,
  relogin,
  roboticsConfig,
  type SignedIn,
  signIn,
  useTestApp,
} from '../../test/fixtures.ts';
import { seedUser, type TestApp, testApp } from '../../test/harness.ts';
import { flexSlotRepository } from '../flexible-license/flexible-license.repository.ts';
import { robotRepository } from '../robots/robots.repository.ts';
import { subscriptionRepository } from '../subscriptions/subscriptions.repository.ts';
import { timeRepository } from './time.repository.ts';

const t = useTestApp();

/** A robot someone else registered: what a user dials without a license. */
let dialled = '';
beforeAll(async () => {
  const owner = await seedUser(t);
  const { robot } = await robotRepository.register(t.app.deps.db, {
    userId: owner.id,
    make: 'Pepper',
    model: 'Pepper',
    name: 'Lab Pepper',
    hardwareHash: hardwareHash(),
    now: t.clock.now(),
  });
  dialled = robot.id;
});

const LITE = YEARLY_ALLOCATION_MINUTES.Lite;
const STANDARD = YEARLY_ALLOCATION_MINUTES.Standard;
let keys = 0;
const key = () => `dial-${++keys}`;

const check = async (user: SignedIn, app: TestApp = t) => {
  const res = await as(app, user, time)('CHECK_REMAINING_TIME', { user_id: user.id });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.user_time as UserTime;
};
const dial = (user: SignedIn, minutes: number, idempotency_key = key(), app: TestApp = t) =>
  as(app, user, time)('UPDATE_TIME', { robot_id: dialled, minutes, idempotency_key });
const addTime = (email: string, minutes: number, extra: Record<string, unknown> = {}, app: TestApp = t) =>
  asOperator(app, time)('ADD_TIME', { email, minutes, reason: 'goodwill', ...extra });

async function subscribe(user: SignedIn, tier: TierName, app: TestApp = t) {
  await subscriptionRepository.grant(app.app.deps.db, {
    userId: user.id,
    tier,
    overrideKind: 1,
    now: app.clock.now(),
    endsAt: new Date(app.clock.now().getTime() + 365 * ONE_DAY_MS),
  });
}

describe('CHECK_REMAINING_TIME', () => {
  it('answers every user_time field; a new Lite account has its yearly allocation', async () => {
    const user = await signIn(t);
    const tm = await check(user);
    expect(Object.keys(tm).sort()).toEqual(
      [
        'total_time',
        'total_perishable_time',
        'used_perishable_time',
        'total_durable_time',
        'used_durable_time',
        'remaining_yearly_time',
        'has_infinite_time',
        'time_status',
        'warning_message',
        'current_period_start',
        'current_period_end',
        'days_until_next_allocation',
        'yearly_subscription_end',
        'total_yearly_allocation',
        'total_yearly_used',
        'subscription_type',
        'payment_failed_at',
      ].sort(),
    );
    expect(tm).toMatchObject({
      total_time: LITE,
      total_perishable_time: LITE,
      used_perishable_time: 0,
      total_durable_time: 0,
      remaining_yearly_time: LITE,
      has_infinite_time: false,
      time_status: 'available',
      subscription_type: 'Lite Subscription',
      yearly_subscription_end: 0,
    });
    expect(tm.current_period_end).toBe(addYearsUtc(tm.current_period_start, 1));
    expect([365, 366]).toContain(tm.days_until_next_allocation);
  });

  it.each([
    ['Standard Subscription', { total_perishable_time: STANDARD, has_infinite_time: false }],
    ['Pro Subscription', { total_perishable_time: 0, has_infinite_time: true, time_status: 'infinite' }],
  ] as const)('reads the tier from the subscriptions: %s', async (tier, expected) => {
    const user = await signIn(t);
    await subscribe(user, tier);
    const tm = await check(user);
    expect(tm).toMatchObject({ ...expected, subscription_type: tier });
    expect(tm.yearly_subscription_end).toBeGreaterThan(t.clock.now().getTime());
  });

  it('refuses a user_id that is not the caller', async () => {
    const user = await signIn(t);
    const other = await signIn(t);
    expectFieldError(await as(t, user, time)('CHECK_REMAINING_TIME', { user_id: other.id }), 403, 'user_id');
  });
});

describe('the ledger through the API', () => {
  it('uses perishable time first, then durable, and never goes below 0', async () => {
    const user = await signIn(t);
    expect((await addTime(user.email, 100)).status).toBe(200);

    let tm = (await dial(user, 50)).body.user_time as UserTime;
    expect(tm).toMatchObject({ used_perishable_time: 50, used_durable_time: 0, total_durable_time: 100 });

    tm = (await dial(user, 600)).body.user_time as UserTime;
    expect(tm).toMatchObject({ used_perishable_time: LITE, used_durable_time: 50, remaining_yearly_time: 0 });
    expect(tm.time_status).toBe('low');

    tm = (await dial(user, 500)).body.user_time as UserTime;
    expect(tm).toMatchObject({
      used_perishable_time: LITE,
      used_durable_time: 100,
      time_status: 'exhausted',
      total_yearly_used: 1150,
    });
    expect(tm.warning_message).not.toBe('');
    expect(await check(user)).toEqual(tm);

    // With no time left a report is refused (402, naming minutes) and writes nothing.
    const refused = await dial(user, 5);
    expectFieldError(refused, 402, 'minutes');
    expect(await check(user)).toEqual(tm);
    const uses = (await timeRepository.history(t.app.deps.db, user.id)).filter((r) => r.kind === 'use');
    expect(uses).toHaveLength(3);
  });

  it('a replay of a report recorded before the time ran out still answers the balance', async () => {
    const user = await signIn(t);
    const k = key();
    await dial(user, LITE, k);
    const replay = await dial(user, LITE, k);
    expect(replay.status, JSON.stringify(replay.body)).toBe(200);
    expect(replay.body.user_time).toMatchObject({ time_status: 'exhausted' });
  });

  it('refuses a robot id no robot is registered under, writing nothing', async () => {
    const user = await signIn(t);
    for (const robot_id of [crypto.randomUUID(), 'someone-elses-robot']) {
      const res = await as(t, user, time)('UPDATE_TIME', { robot_id, minutes: 5, idempotency_key: key() });
      expectFieldError(res, 404, 'robot_id');
    }
    expect(await timeRepository.history(t.app.deps.db, user.id)).toEqual([]);
  });

  it('Pro records use without limiting it', async () => {
    const user = await signIn(t);
    await subscribe(user, 'Pro Subscription');
    const res = await dial(user, 5_000);
    expect(res.body.user_time).toMatchObject({
      has_infinite_time: true,
      total_yearly_used: 5_000,
      used_durable_time: 0,
    });
    const rows = await timeRepository.history(t.app.deps.db, user.id);
    expect(rows.filter((r) => r.kind === 'use')).toEqual([
      expect.objectContaining({ minutes: 5_000, perishable: 0, durable: 0 }),
    ]);
  });

  it('resets the allocation at the next period: the rest expires, durable stays', async () => {
    const own = await testApp(t.database, roboticsConfig());
    try {
      let user = await signIn(own);
      await addTime(user.email, 40, {}, own);
      await dial(user, 100, key(), own);
      const first = await check(user, own);
      own.clock.set(new Date(first.current_period_end + 60_000));
      user = await relogin(own, user);
      const tm = await check(user, own);
      expect(tm).toMatchObject({
        total_perishable_time: LITE,
        used_perishable_time: 0,
        total_durable_time: 40,
        used_durable_time: 0,
        current_period_start: first.current_period_end,
        total_yearly_used: 0,
      });
      // Reading wrote nothing; the first write of the new period records the expiry and the allocation.
      await dial(user, 1, key(), own);
      const rows = await timeRepository.history(own.app.deps.db, user.id);
      expect(rows.filter((r) => r.kind === 'expiry').map((r) => r.minutes)).toEqual([LITE - 100]);
      expect(rows.filter((r) => r.kind === 'allocation')).toHaveLength(2);
    } finally {
      await closeApp(own);
    }
  });
});

describe('UPDATE_TIME metering', () => {
  it('meters only robots the user holds no license for', async () => {
    const user = await signIn(t);
    const { code } = await grantLicense(t, user.id, 'Pepper');
    const registered = await as(
      t,
      user,
      robots,
    )('REGISTERSIM', {
      make: 'Pepper',
      model: 'Pepper',
      name: 'Own Pepper',
      hardware_hash: hardwareHash(),
    });
    const robotId = (registered.body.robot as { robot_id: string }).robot_id;
    expect((await as(t, user, license, nextIp())('PAIRROBOT', { pair_code: code, robot_id: robotId })).status).toBe(
      200,
    );
    const before = await check(user);
    const own = await as(t, user, time)('UPDATE_TIME', { robot_id: robotId, minutes: 5, idempotency_key: key() });
    expectFieldError(own, 409, 'robot_id');
    expect(await check(user)).toEqual(before);
    const other = await as(
      t,
      user,
      time,
    )('UPDATE_TIME', {
      robot_id: dialled,
      minutes: 5,
      idempotency_key: key(),
    });
    expect(other.status).toBe(200);
    expect((await check(user)).used_perishable_time).toBe(before.used_perishable_time + 5);
  });
});

describe('UPDATE_TIME idempotency and concurrency', () => {
  it('a replay with the same key changes nothing', async () => {
    const user = await signIn(t);
    const k = key();
    const first = await dial(user, 30, k);
    const replay = await dial(user, 30, k);
    expect(replay.status).toBe(200);
    expect(replay.body.user_time).toEqual(first.body.user_time);
    expect((await check(user)).used_perishable_time).toBe(30);
    const uses = (await timeRepository.history(t.app.deps.db, user.id)).filter((r) => r.kind === 'use');
    expect(uses).toHaveLength(1);
  });

  it('the same key with a different report is a conflict naming the key', async () => {
    const user = await signIn(t);
    const k = key();
    await dial(user, 30, k);
    expectFieldError(await dial(user, 31, k), 409, 'idempotency_key');
    expect((await check(user)).used_perishable_time).toBe(30);
  });

  it('20 concurrent reports leave the exact balance', async () => {
    const user = await signIn(t);
    await addTime(user.email, 150);
    const answers = await Promise.all(Array.from({ length: 20 }, () => dial(user, 35)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const tm = await check(user);
    // 700 minutes: 600 perishable, then 100 of the 150 durable.
    expect(tm).toMatchObject({ used_perishable_time: 600, used_durable_time: 100, total_yearly_used: 700 });
    const rows = await timeRepository.history(t.app.deps.db, user.id);
    expect(rows.filter((r) => r.kind === 'allocation')).toHaveLength(1);
    expect(rows.filter((r) => r.kind === 'use')).toHaveLength(20);
  });

  it('20 concurrent replays of one key charge once', async () => {
    const user = await signIn(t);
    const k = key();
    const answers = await Promise.all(Array.from({ length: 20 }, () => dial(user, 7, k)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect((await check(user)).used_perishable_time).toBe(7);
  });

  it.each([
    ['zero minutes', { minutes: 0 }, 'minutes'],
    ['fractional minutes', { minutes: 1.5 }, 'minutes'],
    ['more than a week', { minutes: 7 * 24 * 60 + 1 }, 'minutes'],
    ['no idempotency key', { idempotency_key: undefined }, 'idempotency_key'],
    ['no robot', { robot_id: undefined }, 'robot_id'],
  ])('refuses %s, naming the field', async (_name, patch, field) => {
    const user = await signIn(t);
    const res = await as(
      t,
      user,
      time,
    )('UPDATE_TIME', { robot_id: dialled, minutes: 5, idempotency_key: key(), ...patch });
    expectFieldError(res, 400, field);
    expect((await check(user)).used_perishable_time).toBe(0);
  });
});

describe('ADD_TIME', () => {
  it('is for operators only', async () => {
    const user = await signIn(t);
    const res = await as(t, user, time)('ADD_TIME', { minutes: 100, reason: 'please' });
    expectFieldError(res, 403, 'x-operator-token');
    const forged = await asOperator(
      t,
      time,
      `${OPERATOR_TOKEN}!`,
    )('ADD_TIME', { email: user.email, minutes: 5, reason: 'x' });
    expectFieldError(forged, 403, 'x-operator-token');
    expect((await check(user)).total_durable_time).toBe(0);
  });

  it('adds durable minutes once per idempotency key', async () => {
    const user = await signIn(t);
    await addTime(user.email, 200, { idempotency_key: 'grant-1' });
    const again = await addTime(user.email, 200, { idempotency_key: 'grant-1' });
    expect(again.status).toBe(200);
    expect((await check(user)).total_durable_time).toBe(200);
  });

  it.each([
    ['an unknown account', { email: 'nobody-here@example.test' }, 404, 'email'],
    ['no reason', { reason: '' }, 400, 'reason'],
    ['negative minutes', { minutes: -10 }, 400, 'minutes'],
  ] as const)('refuses %s, naming the field', async (_name, patch, status, field) => {
    const user = await signIn(t);
    expectFieldError(
      await asOperator(t, time)('ADD_TIME', { email: user.email, minutes: 10, reason: 'x', ...patch }),
      status,
      field,
    );
  });
});

describe('ownership', () => {
  it("user B's time is B's own: A's use and grants never show", async () => {
    const a = await signIn(t);
    const b = await signIn(t);
    await addTime(a.email, 300);
    await dial(a, 100);
    expect(await check(b)).toMatchObject({ total_durable_time: 0, used_perishable_time: 0, total_yearly_used: 0 });
    // B cannot act on A's account by naming it.
    const spoof = await t.api.call(
      time,
      'UPDATE_TIME',
      { email: a.email, robot_id: dialled, minutes: 5, idempotency_key: key() },
      { bearer: b.token },
    );
    expect(spoof.status).toBe(403);
    expect((await check(a)).used_perishable_time).toBe(100);
  });
});

describe('dial slots (GET_SLOTS, UPDATE_SLOTS, CLEAR_SLOTS)', () => {
  const slotsCall = (user: SignedIn, action: 'GET_SLOTS' | 'UPDATE_SLOTS' | 'CLEAR_SLOTS', body = {}) =>
    as(t, user, time)(action, { user_email: user.email, user_id: user.id, ...body });

  it('answers no slots without an allowance, and refuses a slot beyond it', async () => {
    const user = await signIn(t);
    const res = await slotsCall(user, 'GET_SLOTS');
    expect(res.body).toMatchObject({ user_slots: [], user_slot_amount: 0 });
    const driver = await driverAsset(t, 'Pepper');
    const update = await slotsCall(user, 'UPDATE_SLOTS', {
      user_slots: [{ slot_id: 0, license_id: '', robot_id: driver, updated_on: 1 }],
    });
    expectFieldError(update, 400, 'user_slots.0.slot_id');
  });

  it("fills slots with flexible licenses, keeps an unchanged slot's on a save, and clears them", async () => {
    const user = await signIn(t);
    await flexSlotRepository.setAmount(t.app.deps.db, user.id, 2, 'operator', t.clock.now());
    const pepper = await driverAsset(t, 'Pepper');
    const nao = await driverAsset(t, 'Nao');
    const slot = (slot_id: number, robot_id: string) => ({ slot_id, license_id: '', robot_id, updated_on: 1 });

    const first = await slotsCall(user, 'UPDATE_SLOTS', { user_slots: [slot(0, pepper), slot(1, '')] });
    expect(first.status).toBe(200);
    const [s0] = first.body.user_slots as { slot_id: number; license_id: string; robot_id: string }[];
    expect(s0).toMatchObject({ slot_id: 0, robot_id: pepper });

    // A save changes only the slots that changed: slot 0 keeps its license (docs/decisions/061).
    const second = await slotsCall(user, 'UPDATE_SLOTS', { user_slots: [slot(0, pepper), slot(1, nao)] });
    const after = second.body.user_slots as { slot_id: number; license_id: string }[];
    expect(after.find((s) => s.slot_id === 0)!.license_id).toBe(s0!.license_id);

    const lic = await as(t, user, license)('GetLicenses');
    const flex = (lic.body.user_licenses as { robot_licenses: { isFlexible: boolean; pair_code: string }[] })
      .robot_licenses;
    expect(flex).toHaveLength(2);
    expect(flex.every((l) => l.isFlexible && /^[A-Z2-9]{8}$/.test(l.pair_code))).toBe(true);

    const cleared = await slotsCall(user, 'CLEAR_SLOTS');
    expect((cleared.body.user_slots as { robot_id: string }[]).every((s) => s.robot_id === '')).toBe(true);
    expect((await as(t, user, license)('GetLicenses')).body.error.Code).toBe(23);
  });

  it('refuses a robot that is not an approved driver, naming the slot', async () => {
    const user = await signIn(t);
    await flexSlotRepository.setAmount(t.app.deps.db, user.id, 1, 'operator', t.clock.now());
    const res = await slotsCall(user, 'UPDATE_SLOTS', {
      user_slots: [{ slot_id: 0, license_id: '', robot_id: 'driver-unknown', updated_on: 1 }],
    });
    expectFieldError(res, 400, 'user_slots.0.robot_id');
  });
});

describe('never a 500', () => {
  it.each(Object.keys(time.actions))('%s answers junk with a 4xx naming what is wrong', async (action) => {
    const user = await signIn(t);
    for (const body of JUNK_BODIES) {
      const res = await as(t, user, time)(action as keyof typeof time.actions, body);
      expect(res.status, `${action} ${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`).toBeLessThan(500);
      if (res.status >= 400) expect(res.body.error.Description).toMatch(/^[\w.[\]-]+: /);
    }
  });
});
