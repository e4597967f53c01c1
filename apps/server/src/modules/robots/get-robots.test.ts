import {
  EMPTY_GEO_RANGE,
  geoBoundingBox,
  ONE_DAY_MS,
  ONE_DAY_S,
  ROBOT_REPORT_TIMEOUT_MS,
  robots,
  time,
} from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { licenseShares, robotLicenses, robots as robotsTable } from '../../db/schema.ts';
import { as, closeApp, expectFieldError, roboticsConfig, type SignedIn, signIn } from '../../test/fixtures.ts';
import { freshDatabase, type TestApp, testApp, uniqueEmail } from '../../test/harness.ts';

// GetRobots builds its answer in one SQL statement (docs/performance.md): these tests pin the answer
// to the spec's shape, field by field, and count the statements a call sends.

let statements: string[] = [];
let database: Database;
let t: TestApp;
beforeAll(async () => {
  database = await freshDatabase({ onQuery: (query) => statements.push(query) });
  t = await testApp(database, roboticsConfig());
});
afterAll(async () => {
  await closeApp(t);
  await database.close();
});

const at = (iso: string) => new Date(iso);

async function robot(owner: SignedIn, name: string, registeredAt: Date, config: Record<string, unknown> = {}) {
  const [row] = await t.app.deps.db
    .insert(robotsTable)
    .values({
      userId: owner.id,
      make: 'Pepper',
      model: 'Pepper 1.8',
      name,
      hardwareHash: `hw-${name}-${registeredAt.getTime()}`,
      available: name.endsWith('on'),
      config,
      registeredAt,
      updatedAt: registeredAt,
    })
    .returning();
  return row!;
}

async function licence(
  owner: SignedIn,
  robotId: string | null,
  startsAt: Date,
  extra: Partial<typeof robotLicenses.$inferInsert> = {},
) {
  const durationS = 30 * ONE_DAY_S;
  const [row] = await t.app.deps.db
    .insert(robotLicenses)
    .values({
      userId: owner.id,
      assetId: 'driver-pepper',
      robotMake: 'Pepper',
      robotModel: 'Pepper 1.8',
      robotId,
      startsAt,
      durationS,
      endsAt: new Date(startsAt.getTime() + durationS * 1000),
      source: 'operator',
      ...extra,
    })
    .returning();
  return row!;
}

/** Shares are created one second apart, in the order written: the newest live one is the one shown. */
let sharesCreated = 0;
async function share(
  licenceId: string,
  owner: SignedIn,
  recipient: SignedIn,
  startsAt: Date,
  endsAt: Date,
  stopped = false,
) {
  await t.app.deps.db.insert(licenseShares).values({
    licenseId: licenceId,
    ownerId: owner.id,
    recipientId: recipient.id,
    recipientEmail: recipient.email,
    startsAt,
    endsAt,
    ...(stopped ? { stoppedAt: startsAt } : {}),
    // not the default now(): two inserts in the same millisecond (PGlite's clock) would tie
    createdAt: new Date(Date.UTC(2026, 0, 1) + ++sharesCreated * 1000),
  });
}

const getRobots = (user: SignedIn, ids: string[] = []) =>
  as(t, user, robots)('GetRobots', { robot_licenses: ids.map((robot_id) => ({ robot_id })) });

describe('GetRobots answers the spec shape', () => {
  it('own robots with their licenses, and robots of licenses shared with the caller, field by field', async () => {
    const now = t.clock.now().getTime();
    const a = await signIn(t, { email: uniqueEmail('robots-a') });
    const b = await signIn(t, { email: uniqueEmail('robots-b') });
    const start = new Date(now - 2 * ONE_DAY_MS);
    const first = await robot(a, 'First on', at('2026-01-02T03:04:05.678Z'), {
      modalities: ['camera'],
      firmware: '2.1',
    });
    const second = await robot(a, 'Second', new Date(now - ONE_DAY_MS));
    const l1 = await licence(a, first.id, start, {
      isFlexible: true,
      resellerInfo: { reseller_id: 'r-1', reseller_name: 'Acme Robots' } as never,
    });
    // b's robots: one shared with a (a stopped share of it and an older live share too), one not shared.
    const sharedRobot = await robot(b, 'Shared on', new Date(now - 3 * ONE_DAY_MS));
    const hidden = await robot(b, 'Hidden', new Date(now - 4 * ONE_DAY_MS));
    const l3 = await licence(b, sharedRobot.id, start);
    await licence(b, hidden.id, start);
    const shareStart = new Date(now - ONE_DAY_MS);
    const shareEnd = new Date(now + 5 * ONE_DAY_MS + 499);
    await share(l3.id, b, a, new Date(now - 2 * ONE_DAY_MS), new Date(now + ONE_DAY_MS), true);
    await share(l3.id, b, a, new Date(now - 2 * ONE_DAY_MS), new Date(now + 2 * ONE_DAY_MS));
    await share(l3.id, b, a, shareStart, shareEnd);

    const ownerLicence = {
      robot_id: first.id,
      asset_id: 'driver-pepper',
      robot_license: {
        license_id: l1.id,
        start_date: start.getTime(),
        duration: 30 * ONE_DAY_S,
        end_date: start.getTime() + 30 * ONE_DAY_MS,
        reseller_info: { reseller_id: 'r-1', reseller_name: 'Acme Robots' },
      },
      robot_make: 'Pepper',
      robot_model: 'Pepper 1.8',
      pair_code: '',
      paired_status: true,
      isFlexible: true,
    };
    const firstView = {
      robot_id: first.id,
      make: 'Pepper',
      model: 'Pepper 1.8',
      name: 'First on',
      hardware_hash: first.hardwareHash,
      license: { license_id: l1.id },
      join_date: at('2026-01-02T03:04:05.678Z').getTime(),
      robot_config: { modalities: ['camera'], firmware: '2.1' },
      // Stored as available, but it never reported: Inactive (issue 32 item 5).
      robot_state: { available: false },
      pair_code: '',
      isFlexible: true,
      last_seen: 0,
    };
    const secondView = {
      robot_id: second.id,
      make: 'Pepper',
      model: 'Pepper 1.8',
      name: 'Second',
      hardware_hash: second.hardwareHash,
      license: { license_id: '' },
      join_date: now - ONE_DAY_MS,
      robot_config: {},
      robot_state: { available: false },
      pair_code: '',
      isFlexible: false,
      last_seen: 0,
    };

    const own = await getRobots(a);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({
      robots: [firstView, secondView],
      robot_licenses: [ownerLicence],
      geo_range: EMPTY_GEO_RANGE,
      error: { Success: true, Code: 0, Description: 'OK' },
    });

    const asked = await getRobots(a, [sharedRobot.id, hidden.id, second.id, first.id, first.id, 'not-a-uuid']);
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({
      // ordered by registration: the shared robot was registered between a's two
      robots: [
        firstView,
        {
          robot_id: sharedRobot.id,
          make: 'Pepper',
          model: 'Pepper 1.8',
          name: 'Shared on',
          hardware_hash: '',
          license: { license_id: l3.id },
          join_date: now - 3 * ONE_DAY_MS,
          robot_config: {},
          // Stored as available, but it never reported: Inactive (issue 32 item 5).
          robot_state: { available: false },
          pair_code: '',
          isFlexible: false,
          last_seen: 0,
        },
        secondView,
      ],
      robot_licenses: [
        ownerLicence,
        {
          robot_id: sharedRobot.id,
          asset_id: 'driver-pepper',
          // the newest live share's period; duration in whole seconds
          robot_license: {
            license_id: l3.id,
            start_date: shareStart.getTime(),
            duration: Math.round((shareEnd.getTime() - shareStart.getTime()) / 1000),
            end_date: shareEnd.getTime(),
          },
          robot_make: 'Pepper',
          robot_model: 'Pepper 1.8',
          pair_code: '',
          paired_status: true,
          isFlexible: false,
        },
      ],
      geo_range: EMPTY_GEO_RANGE,
      error: { Success: true, Code: 0, Description: 'OK' },
    });

    // b sees its own two robots; once a's share ends, a no longer sees b's robot.
    expect(((await getRobots(b)).body.robots as unknown[]).length).toBe(2);
    t.clock.advance(6 * ONE_DAY_MS);
    const later = await signIn(t);
    expect((await getRobots(later, [sharedRobot.id])).body.robots).toEqual([]);
  });
});

describe('GetRobots statements', () => {
  async function ownerWith(licences: number): Promise<SignedIn> {
    const owner = await signIn(t);
    const now = t.clock.now().getTime();
    for (let i = 0; i < licences; i++) {
      const r = await robot(owner, `R${i}`, new Date(now - i * 1000));
      await licence(owner, r.id, new Date(now - ONE_DAY_MS));
    }
    return owner;
  }

  async function statementsOf(call: () => Promise<unknown>): Promise<number> {
    statements = [];
    await call();
    return statements.length;
  }

  it('sends as many statements for 50 licenses as for 1', async () => {
    const one = await ownerWith(1);
    const fifty = await ownerWith(50);
    const forOne = await statementsOf(() => getRobots(one));
    const forFifty = await statementsOf(() => getRobots(fifty));
    expect(((await getRobots(fifty)).body.robots as unknown[]).length).toBe(50);
    // the session lookup and the answer
    expect(forOne).toBe(2);
    expect(forFifty).toBe(forOne);
    const ids = ((await getRobots(fifty)).body.robots as { robot_id: string }[]).map((r) => r.robot_id);
    expect(await statementsOf(() => getRobots(fifty, ids))).toBe(forOne);
  });
});

describe('last seen, positions and geo_range (issue 15)', () => {
  it("UPDATEROBOT sets last seen and the position; geo_range is the box around the caller's own robots", async () => {
    const owner = await signIn(t);
    const sharee = await signIn(t);
    const now = t.clock.now();
    const north = await robot(owner, 'North', new Date(now.getTime() - ONE_DAY_MS));
    const south = await robot(owner, 'South', new Date(now.getTime() - ONE_DAY_MS));
    const silent = await robot(owner, 'Silent', new Date(now.getTime() - ONE_DAY_MS));
    const l = await licence(owner, north.id, new Date(now.getTime() - ONE_DAY_MS));
    await share(l.id, owner, sharee, new Date(now.getTime() - ONE_DAY_MS), new Date(now.getTime() + ONE_DAY_MS));
    const update = as(t, owner, robots);
    const points = [
      [north, { lat: 57.15, lon: -2.09 }],
      [south, { lat: 50.37, lon: -4.14 }],
    ] as const;
    // The test clock runs with real time: a report's instant is known to lie between two readings.
    const before = t.clock.now().getTime();
    for (const [r, location] of points) {
      const res = await update('UPDATEROBOT', { robot_id: r.id, robot_state: { available: true, location } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const reported = t.clock.now().getTime();

    const own = (await getRobots(owner)).body as unknown as {
      robots: { robot_id: string; last_seen: number; robot_state: { location?: unknown } }[];
      geo_range: unknown;
    };
    expect(own.geo_range).toEqual(geoBoundingBox(points.map(([, p]) => p)));
    expect(own.geo_range).toEqual({ UpperLat: 57.15, LowerLat: 50.37, UpperLong: -2.09, LowerLong: -4.14 });
    const byId = new Map(own.robots.map((r) => [r.robot_id, r]));
    expect(byId.get(north.id)?.robot_state.location).toEqual(points[0][1]);
    const seen = byId.get(north.id)?.last_seen ?? 0;
    expect(seen).toBeGreaterThanOrEqual(before);
    expect(seen).toBeLessThanOrEqual(reported);
    expect(byId.get(silent.id)?.last_seen).toBe(0);
    expect(byId.get(silent.id)?.robot_state.location).toBeUndefined();

    // The sharee sees the robot, not where it is: no location, and its own box is empty.
    const shared = (await getRobots(sharee, [north.id])).body as unknown as typeof own;
    expect(shared.robots.map((r) => r.robot_id)).toEqual([north.id]);
    expect(shared.robots[0]?.robot_state.location).toBeUndefined();
    expect(shared.geo_range).toEqual(EMPTY_GEO_RANGE);

    // A dial of the shared robot by its sharee counts as the robot's report.
    t.clock.advance(60_000);
    const dial = await as(
      t,
      sharee,
      time,
    )('UPDATE_TIME', { robot_id: north.id, minutes: 1, idempotency_key: 'seen-1' });
    expect(dial.status, JSON.stringify(dial.body)).toBe(200);
    const after = (await getRobots(owner, [north.id])).body as unknown as typeof own;
    expect(after.robots[0]?.last_seen).toBeGreaterThanOrEqual(reported + 60_000);
  });

  it.each([
    [{ lat: 90.5, lon: 0 }, 'robot_state.location.lat'],
    [{ lat: -91, lon: 0 }, 'robot_state.location.lat'],
    [{ lat: 0, lon: 180.01 }, 'robot_state.location.lon'],
    [{ lat: 10 }, 'robot_state.location.lon'],
  ])('refuses the location %j, naming %s', async (location, field) => {
    const owner = await signIn(t);
    const r = await robot(owner, 'Lost', t.clock.now());
    const res = await as(
      t,
      owner,
      robots,
    )('UPDATEROBOT', { robot_id: r.id, robot_state: { available: true, location } });
    expectFieldError(res, 400, field);
  });
});

describe('availability never contradicts itself (issue 32 item 5)', () => {
  it('available only while the hub reports: never reported or silent past the limit is not; Active has a last seen', async () => {
    const owner = await signIn(t);
    const now = t.clock.now();
    const reporting = await robot(owner, 'Reporting', new Date(now.getTime() - ONE_DAY_MS));
    // Stored as available by an earlier write, but no report ever came.
    const never = await robot(owner, 'Never on', new Date(now.getTime() - ONE_DAY_MS));
    const update = as(t, owner, robots);
    const state = async () => {
      const body = (await getRobots(owner)).body as unknown as {
        robots: { robot_id: string; last_seen: number; robot_state: { available: boolean } }[];
      };
      return new Map(body.robots.map((r) => [r.robot_id, r]));
    };

    const reported = await update('UPDATEROBOT', { robot_id: reporting.id, robot_state: { available: true } });
    expect(reported.status, JSON.stringify(reported.body)).toBe(200);
    // The UPDATEROBOT answer and GetRobots agree.
    expect(
      (reported.body as unknown as { robot: { robot_state: { available: boolean } } }).robot.robot_state.available,
    ).toBe(true);
    let byId = await state();
    expect(byId.get(reporting.id)?.robot_state.available).toBe(true);
    expect(byId.get(reporting.id)?.last_seen).toBeGreaterThan(0);
    expect(byId.get(never.id)?.robot_state.available).toBe(false);
    expect(byId.get(never.id)?.last_seen).toBe(0);

    t.clock.advance(ROBOT_REPORT_TIMEOUT_MS - 60_000);
    expect((await state()).get(reporting.id)?.robot_state.available).toBe(true);

    t.clock.advance(60_000 + 1_000);
    byId = await state();
    expect(byId.get(reporting.id)?.robot_state.available).toBe(false);
    expect(byId.get(reporting.id)?.last_seen).toBeGreaterThan(0);

    // A new report brings it back.
    const again = await update('UPDATEROBOT', { robot_id: reporting.id, robot_state: { available: true } });
    expect(again.status).toBe(200);
    expect((await state()).get(reporting.id)?.robot_state.available).toBe(true);
  });
});
