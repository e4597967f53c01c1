import { createHash } from 'node:crypto';
import {
  type Artifact,
  type Asset,
  assets,
  compareVersions,
  LICENSE_AGREEMENT_VERSION,
  license,
  operator,
  payment,
  ROBOT_REPORT_TIMEOUT_MS,
  type Robot,
  type RobotLicense,
  robots,
  SUBSCRIPTION_STATUSES,
  time,
  type UserLicenses,
  type UserSubscription,
  type UserTime,
  useraction,
} from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { paymentRepository } from './modules/payment/payment.repository.ts';
import { userRepository } from './modules/useraction/useraction.repository.ts';
import { DEMO_HUB_INTERVAL_MS, seedDemo, startDemoHub } from './seed.ts';
import { demoInstallerFiles, HUB_BUILDS } from './seed-demo-data.ts';
import { asOperator, closeApp, roboticsConfig, useTestApp } from './test/fixtures.ts';
import { DEPLOYMENT_ADDRESSES, freshDatabase, testApp } from './test/harness.ts';

const logged: string[] = [];
const log = { info: (msg: string) => logged.push(msg) } as unknown as FastifyBaseLogger;

const t = useTestApp();
let token = '';
let email = '';

beforeAll(async () => {
  await seedDemo(t.app.deps.db, t.config, log, t.clock);
  email = t.config.DEMO_EMAIL;
  const res = await t.api.call(useraction, 'login', { user: { email, password: t.config.DEMO_PASSWORD } });
  expect(res.status).toBe(200);
  token = (res.body.token_pair as { access_token: string }).access_token;
});

const call = (service: Parameters<typeof t.api.call>[0], action: string, body: Record<string, unknown> = {}) =>
  t.api.call(service, action, { email, ...body }, { bearer: token });

describe('demo data', () => {
  it('gives the demo account every kind of robot card', async () => {
    const res = await call(license, 'GetLicenses');
    expect(res.body.error.Success).toBe(true);
    const lic = res.body.user_licenses as UserLicenses;
    const byModel = (m: string) => lic.robot_licenses.find((l) => l.robot_model === m) as RobotLicense;

    expect(byModel('Pepper')).toMatchObject({ paired_status: true, pair_code: '', isFlexible: false });
    expect(byModel('Nao')).toMatchObject({ paired_status: true, isFlexible: true });
    const unpaired = byModel('Tiago_Steel');
    expect(unpaired).toMatchObject({ paired_status: false, robot_id: '' });
    expect(logged.join('\n')).toContain(unpaired.pair_code);
    expect(lic.shared_robot_licenses).toEqual([
      expect.objectContaining({ robot_model: 'Tiago++', pair_code: '', paired_status: true }),
    ]);

    const mine = await call(robots, 'GetRobots', {
      robot_licenses: lic.robot_licenses.filter((l) => l.robot_id).map((l) => ({ robot_id: l.robot_id })),
    });
    const states = Object.fromEntries((mine.body.robots as Robot[]).map((r) => [r.name, r.robot_state.available]));
    expect(states).toEqual({ 'Reception Pepper': true, 'Lab Nao': false });
    const shared = await call(robots, 'GetRobots', {
      robot_licenses: lic.shared_robot_licenses.map((l) => ({ robot_id: l.robot_id })),
    });
    expect((shared.body.robots as Robot[]).map((r) => r.name)).toEqual(['Warehouse Tiago']);
  });

  it('keeps its live robots Active while the demo server runs: the demo hub reports them, the others stay as they are', async () => {
    const lic = (await call(license, 'GetLicenses')).body.user_licenses as UserLicenses;
    const refs = lic.robot_licenses.filter((l) => l.robot_id).map((l) => ({ robot_id: l.robot_id }));
    const states = async () =>
      Object.fromEntries(
        ((await call(robots, 'GetRobots', { robot_licenses: refs })).body.robots as Robot[]).map((r) => [
          r.name,
          r.robot_state.available,
        ]),
      );
    const reported: string[] = [];
    // The tick's queries are real I/O that fake timers do not wait for: the report says when it is done.
    let reportDone: () => void = () => {};
    const firstReport = new Promise<void>((resolve) => {
      reportDone = resolve;
    });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const stop = await startDemoHub(
        t.app.deps.db,
        t.config,
        async (id) => {
          reported.push(id);
          await t.app.services.robots.reported(id);
          reportDone();
        },
        log,
      );
      // No report for longer than the timeout: the hub went quiet, the robot is Inactive.
      t.clock.advance(ROBOT_REPORT_TIMEOUT_MS + 1);
      expect(await states()).toEqual({ 'Reception Pepper': false, 'Lab Nao': false });
      await vi.advanceTimersByTimeAsync(DEMO_HUB_INTERVAL_MS);
      await firstReport;
      expect(await states()).toEqual({ 'Reception Pepper': true, 'Lab Nao': false });
      expect(reported).toHaveLength(1);
      stop();
      await vi.advanceTimersByTimeAsync(DEMO_HUB_INTERVAL_MS * 3);
      expect(reported).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives a Standard subscription with perishable and durable time, some of it used', async () => {
    const res = await call(time, 'CHECK_REMAINING_TIME');
    expect(res.body.user_time as UserTime).toMatchObject({
      subscription_type: 'Standard Subscription',
      has_infinite_time: false,
      total_perishable_time: 3000,
      used_perishable_time: 1240,
      total_durable_time: 600,
      used_durable_time: 45,
      time_status: 'available',
    });
    const slots = await call(time, 'GET_SLOTS', { email: undefined, user_email: email });
    expect(slots.body).toMatchObject({
      user_slot_amount: 2,
      user_slots: [
        { slot_id: 0, robot_id: 'driver-nao' },
        { slot_id: 1, robot_id: '' },
      ],
    });
  });

  it('holds its Standard plan as a sandbox subscription with a paid history', async () => {
    const subs = await call(payment, 'ListSubscriptions');
    const plans = subs.body.user_subscriptions as UserSubscription[];
    expect(plans).toEqual([
      expect.objectContaining({ subscription_tier: 'Standard Subscription', status: 'active', overrideReason: 99 }),
    ]);
    expect(plans[0]?.stripe_id).toMatch(/^sub_sandbox_demo_plan_/);
    const active = await call(payment, 'GetActiveUserSubscription');
    expect(active.body.user_subscriptions).toHaveLength(1);
    const history = await asOperator(t, operator)('ListPayments', { email });
    expect((history.body.payments as { kind: string; status: string }[]).map((p) => `${p.kind} ${p.status}`)).toEqual([
      'checkout paid',
      'checkout paid',
      'checkout paid',
    ]);
  });

  it('offers a hub build for every platform, whose bytes match their checksum', async () => {
    const res = await call(assets, 'GetAll', { email: undefined });
    const [hub] = res.body.assets as Asset[];
    // The newest build of each system and package the Downloads screen offers (spec/001 §2).
    const newest = new Map<string, Artifact>();
    for (const artifact of hub!.artifacts) {
      const key = `${artifact.OS}/${artifact.Arch}`;
      const current = newest.get(key);
      if (!current || compareVersions(artifact.version_info.sdk, current.version_info.sdk) > 0)
        newest.set(key, artifact);
    }
    expect([...newest.keys()].sort()).toEqual(['linux/deb', 'linux/rpm', 'mac/amd64', 'mac/arm64', 'windows/amd64']);
    for (const artifact of newest.values()) {
      const dl = await call(assets, 'GetDownload', {
        email: undefined,
        asset_id: hub!.id,
        assets: { ...hub, artifacts: [artifact] },
        agreement_version: LICENSE_AGREEMENT_VERSION,
        accepted: true,
      });
      const file = await t.app.inject({ method: 'GET', url: dl.body.download_link as string });
      expect(file.statusCode).toBe(200);
      expect(createHash('sha256').update(file.rawPayload).digest('hex')).toBe(artifact!.checksum);
      // The archive opens with a standard reader and holds exactly the files the seed wrote.
      const unpacked = unzipSync(new Uint8Array(file.rawPayload));
      const build = HUB_BUILDS.find(
        (b) =>
          b.os === artifact!.OS &&
          b.arch === artifact!.Arch &&
          compareVersions(b.version, artifact!.version_info.sdk) === 0,
      );
      expect(build).toBeDefined();
      expect(Object.fromEntries(Object.entries(unpacked).map(([name, bytes]) => [name, strFromU8(bytes)]))).toEqual(
        demoInstallerFiles(build!),
      );
    }
  });

  it('has bought drivers, with a robot-driver subscription in every status, and time', async () => {
    const user = await userRepository.byEmail(t.app.deps.db, email);
    const rows = await paymentRepository.driverSubscriptionsOf(t.app.deps.db, user!.id);
    expect(rows.map((r) => r.status).sort()).toEqual([...SUBSCRIPTION_STATUSES].sort());
    const licenses = (await call(license, 'GetLicenses')).body.user_licenses as UserLicenses;
    const ids = new Set(licenses.robot_licenses.map((l) => l.robot_license.license_id));
    // The Robot Manager lists the licenses that still work; the expired one and the one whose
    // renewal failed have ended.
    for (const row of rows)
      expect(ids.has(row.robotLicenseId), row.status).toBe(!['expired', 'inactive'].includes(row.status));
  });

  it('runs once: a second start changes nothing', async () => {
    await seedDemo(t.app.deps.db, t.config, log, t.clock);
    const res = await call(license, 'GetLicenses');
    expect((res.body.user_licenses as UserLicenses).robot_licenses).toHaveLength(4);
  });

  it('lets both demo accounts be deleted with everything they hold', async () => {
    const db = t.app.deps.db;
    for (const address of [email, `colleague@${email.split('@')[1]}`]) {
      const user = await userRepository.byEmail(db, address);
      await userRepository.delete(db, user!.id);
      expect(await userRepository.byEmail(db, address)).toBeUndefined();
    }
  });

  it('never seeds a demo account or data into production, even with SEED_DEMO=true', async () => {
    const prod = await freshDatabase();
    const p = await testApp(
      prod,
      roboticsConfig({ NODE_ENV: 'production', SEED_DEMO: 'true', ...DEPLOYMENT_ADDRESSES }),
    );
    try {
      await seedDemo(p.app.deps.db, p.config, log, p.clock);
      const res = await p.api.call(useraction, 'login', { user: { email, password: p.config.DEMO_PASSWORD } });
      expect(res.status).toBe(401);
      expect(await userRepository.byEmail(p.app.deps.db, email)).toBeUndefined();
      const assetRows = await p.app.deps.db.query.assets.findMany();
      expect(assetRows).toEqual([]);
    } finally {
      await closeApp(p);
      await prod.close();
    }
  });
});
