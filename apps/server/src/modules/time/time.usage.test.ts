import {
  license,
  ONE_DAY_MS,
  ONE_DAY_S,
  robots,
  time,
  type UsageHistory,
  usageRange,
  YEARLY_ALLOCATION_MINUTES,
} from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  as,
  asOperator,
  expectFieldError,
  grantLicense,
  hardwareHash,
  nextIp,
  relogin,
  type SignedIn,
  signIn,
  useTestApp,
} from '../../test/fixtures.ts';
import { timeRepository } from './time.repository.ts';

/** GET_USAGE_HISTORY: dial time used per UTC day and robot (docs/decisions/029). */
const t = useTestApp();

const MINUTE_MS = 60_000;
let keys = 0;

/** Moves the test clock forward to `minutes` past the next UTC midnight. */
function nextUtcDayAt(minutes: number) {
  const now = t.clock.now().getTime();
  t.clock.set(new Date(Math.floor(now / ONE_DAY_MS) * ONE_DAY_MS + ONE_DAY_MS + minutes * MINUTE_MS));
}
const today = () => new Date(t.clock.now()).toISOString().slice(0, 10);

/** Dials with a fresh token: the clock moves hours at a time, past an access token's life. */
async function dial(user: SignedIn, robotId: string, minutes: number) {
  const fresh = await relogin(t, user);
  const res = await as(t, fresh, time)('UPDATE_TIME', { robot_id: robotId, minutes, idempotency_key: `u-${++keys}` });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function history(user: SignedIn, days: number): Promise<UsageHistory> {
  const res = await as(t, await relogin(t, user), time)('GET_USAGE_HISTORY', { days });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as UsageHistory;
}

/**
 * A robot somebody else registered: UPDATE_TIME meters only registered robots (decision 027), and
 * the caller cannot see this one, so the ledger records no model for it.
 */
async function strangerRobot(): Promise<string> {
  return registerRobot(await signIn(t), 'Pepper', "A stranger's Pepper");
}

async function registerRobot(user: SignedIn, model: string, name: string) {
  const res = await as(
    t,
    await relogin(t, user),
    robots,
  )('REGISTERSIM', {
    make: model,
    model,
    name,
    hardware_hash: hardwareHash(),
  });
  expect(res.status).toBe(200);
  return (res.body.robot as { robot_id: string }).robot_id;
}

describe('GET_USAGE_HISTORY', () => {
  it('sums the minutes per UTC day and robot, and per robot', async () => {
    const user = await signIn(t);
    const a = await strangerRobot();
    const b = await strangerRobot();
    nextUtcDayAt(23 * 60 + 30); // 23:30 UTC
    const first = today();
    await dial(user, a, 10);
    await dial(user, b, 5);
    await dial(user, a, 2);
    t.clock.advance(60 * MINUTE_MS); // 00:30 UTC: the next day
    const second = today();
    await dial(user, a, 7);
    await dial(user, a, 3);

    const h = await history(user, 30);
    const range = usageRange(t.clock.now().getTime(), 30);
    expect(h).toMatchObject({ from: range.from, to: second, time_zone: 'UTC', total_minutes: 27 });
    expect(h.usage).toEqual([
      ...[
        { day: first, robot_id: a, minutes: 12 },
        { day: first, robot_id: b, minutes: 5 },
      ].sort((x, y) => x.robot_id.localeCompare(y.robot_id)),
      { day: second, robot_id: a, minutes: 10 },
    ]);
    expect(h.robots.map((r) => [r.robot_id, r.total_minutes, r.short_id])).toEqual([
      [a, 22, a.slice(0, 8)],
      [b, 5, b.slice(0, 8)],
    ]);
  });

  it('answers the range asked for: 30, 90 or 365 days ending today', async () => {
    const user = await signIn(t);
    const robot = await strangerRobot();
    nextUtcDayAt(12 * 60);
    await dial(user, robot, 4);
    const minutesIn = async (days: number) => (await history(user, days)).total_minutes;

    t.clock.advance(29 * ONE_DAY_MS); // the dial's day is the first of the last 30
    expect([await minutesIn(30), await minutesIn(90), await minutesIn(365)]).toEqual([4, 4, 4]);
    t.clock.advance(ONE_DAY_MS);
    expect([await minutesIn(30), await minutesIn(90), await minutesIn(365)]).toEqual([0, 4, 4]);
    t.clock.advance(60 * ONE_DAY_MS);
    expect([await minutesIn(30), await minutesIn(90), await minutesIn(365)]).toEqual([0, 0, 4]);
    const h = await history(user, 365);
    expect(h.from).toBe(usageRange(t.clock.now().getTime(), 365).from);
    expect(h.to).toBe(today());
  });

  it.each([[7], ['30'], [30.5], [null], [undefined]])('refuses days = %s with a 400 naming days', async (days) => {
    const user = await signIn(t);
    expectFieldError(await as(t, user, time)('GET_USAGE_HISTORY', { days }), 400, 'days');
  });

  it("never includes another user's use, even of the same robot", async () => {
    const user = await signIn(t);
    const other = await signIn(t);
    const robot = await strangerRobot();
    nextUtcDayAt(60);
    await dial(user, robot, 6);
    await dial(other, robot, 50);
    await dial(other, await strangerRobot(), 9);
    const mine = await history(user, 30);
    expect(mine.usage).toEqual([{ day: today(), robot_id: robot, minutes: 6 }]);
    expect(mine.robots.map((r) => r.robot_id)).toEqual([robot]);
    expect((await history(other, 30)).total_minutes).toBe(59);
  });

  it('names a robot the user no longer owns as the ledger recorded it when dialled', async () => {
    const user = await signIn(t);
    nextUtcDayAt(60);
    const robot = await registerRobot(user, 'Tiago_Steel', 'Hall Tiago');
    await dial(user, robot, 8);
    expect((await history(user, 30)).robots).toEqual([
      {
        robot_id: robot,
        short_id: robot.slice(0, 8),
        model: 'Tiago_Steel',
        name: 'Hall Tiago',
        owned: true,
        total_minutes: 8,
      },
    ]);

    const gone = await as(t, await relogin(t, user), robots)('UNREGISTER', { robot_id: robot });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect((await history(user, 30)).robots).toEqual([
      { robot_id: robot, short_id: robot.slice(0, 8), model: 'Tiago_Steel', name: '', owned: false, total_minutes: 8 },
    ]);
  });

  it('records the model of a robot shared with the user, and keeps it after the share ends', async () => {
    const owner = await signIn(t);
    const user = await signIn(t);
    nextUtcDayAt(60);
    const { licenseId, code } = await grantLicense(t, owner.id, 'Nao');
    const robot = await registerRobot(owner, 'Nao', "Owner's Nao");
    const ownerNow = await relogin(t, owner);
    expect((await as(t, ownerNow, license, nextIp())('PAIRROBOT', { pair_code: code, robot_id: robot })).status).toBe(
      200,
    );
    const shared = await as(
      t,
      ownerNow,
      license,
    )('SHARELICENSE', {
      license_id: licenseId,
      recipient_email: user.email,
      duration: 7 * ONE_DAY_S,
    });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    await dial(user, robot, 11);
    const stopped = await as(
      t,
      ownerNow,
      license,
    )('STOPSHAREDLICENSE', {
      license_id: licenseId,
      recipient_email: user.email,
    });
    expect(stopped.status).toBe(200);
    // The owner's name for it is never the user's to see.
    expect((await history(user, 30)).robots).toEqual([
      { robot_id: robot, short_id: robot.slice(0, 8), model: 'Nao', name: '', owned: false, total_minutes: 11 },
    ]);
  });

  it('names rows written before the model was recorded by their robot now, else by short id alone', async () => {
    const user = await signIn(t);
    nextUtcDayAt(60);
    const kept = await registerRobot(user, 'Pepper', 'Desk Pepper');
    const unknown = crypto.randomUUID();
    const now = t.clock.now();
    const periodStart = now.getTime();
    await timeRepository.append(t.app.deps.db, user.id, [
      { kind: 'use', perishable: 0, durable: 0, minutes: 3, periodStart, robotId: kept, createdAt: now },
      { kind: 'use', perishable: 0, durable: 0, minutes: 4, periodStart, robotId: unknown, createdAt: now },
    ]);
    const byId = new Map((await history(user, 30)).robots.map((r) => [r.robot_id, r]));
    expect(byId.get(kept)).toMatchObject({ model: 'Pepper', name: 'Desk Pepper', owned: true, total_minutes: 3 });
    expect(byId.get(unknown)).toMatchObject({ model: '', name: '', owned: false, short_id: unknown.slice(0, 8) });
  });

  it('marks the allocation on its period start and the minutes bought or granted, never a refund', async () => {
    const user = await signIn(t);
    nextUtcDayAt(60);
    await dial(user, await strangerRobot(), 1); // opens the period: the allocation is written
    const grant = await asOperator(t, time)('ADD_TIME', { email: user.email, minutes: 120, reason: 'goodwill' });
    expect(grant.status).toBe(200);
    await t.app.services.time.credit(user.id, { kind: 'purchase', minutes: 300, reason: 'time package' });
    await t.app.services.time.credit(user.id, { kind: 'purchase', minutes: 200, reason: 'time package' });
    await t.app.services.time.revoke(user.id, { minutes: 200, reason: 'refund', idempotencyKey: 'refund-1' });
    const rows = await timeRepository.history(t.app.deps.db, user.id);
    const allocation = rows.find((r) => r.kind === 'allocation');
    const h = await history(user, 365);
    expect(h.events).toEqual(
      [
        {
          day: allocation?.periodStart.toISOString().slice(0, 10),
          kind: 'allocation',
          minutes: YEARLY_ALLOCATION_MINUTES.Lite,
        },
        { day: today(), kind: 'grant', minutes: 120 },
        { day: today(), kind: 'purchase', minutes: 500 },
      ].sort((x, y) => (x.day ?? '').localeCompare(y.day ?? '') || x.kind.localeCompare(y.kind)),
    );
  });

  it('an empty history answers the range and nothing else', async () => {
    const user = await signIn(t);
    const h = await history(user, 90);
    expect(h).toMatchObject({ total_minutes: 0, robots: [], usage: [], events: [], to: today() });
  });
});
