import { admin, license, OPERATOR_HEADER, payment, robots, security } from '@portal/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { licenseShares, passkeys, robotLicenses, users } from './db/schema.ts';
import { durableMinutes, line, robotLicensesOf, sessionOf } from './modules/payment/payment.test-helpers.ts';
import {
  as,
  driverAsset,
  grantLicense,
  hardwareHash,
  nextIp,
  type SignedIn,
  signIn,
  useTestApp,
} from './test/fixtures.ts';
import { seedUser, uniqueEmail } from './test/harness.ts';
import { SoftwareAuthenticator } from './test/software-authenticator.ts';

/**
 * Races (issue 14): many calls at once on one object leave one consistent outcome. On PGlite and on
 * PostgreSQL (where they really run in parallel). The refresh-token races are with the sessions.
 */

const t = useTestApp({ RATE_PAIR_PER_ACCOUNT: '1000', RATE_PAIR_PER_ADDRESS: '1000' });
const PARALLEL = 20;

async function robotOf(user: SignedIn) {
  const res = await as(
    t,
    user,
    robots,
  )('REGISTERSIM', {
    make: 'Pepper',
    model: 'Pepper',
    name: 'Race Pepper',
    hardware_hash: hardwareHash(),
  });
  return (res.body.robot as { robot_id: string }).robot_id;
}

describe('races', () => {
  it(`${PARALLEL} parallel pairings of one code pair once`, async () => {
    const user = await signIn(t);
    const { licenseId, code } = await grantLicense(t, user.id, 'Pepper');
    const robotIds = await Promise.all(Array.from({ length: PARALLEL }, () => robotOf(user)));
    const answers = await Promise.all(
      robotIds.map((robot_id) => as(t, user, license, nextIp())('PAIRROBOT', { pair_code: code, robot_id })),
    );
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s === 200),
      JSON.stringify(statuses),
    ).toHaveLength(1);
    expect(
      statuses.every((s) => s === 200 || (s >= 400 && s < 500)),
      JSON.stringify(statuses),
    ).toBe(true);
    const [row] = await t.app.deps.db.select().from(robotLicenses).where(eq(robotLicenses.id, licenseId));
    const winner = answers.findIndex((a) => a.status === 200);
    expect(row?.robotId).toBe(robotIds[winner]);
    expect(row?.pairCodeHash).toBeNull();
  });

  it(`${PARALLEL} parallel shares of one license with one address make one share`, async () => {
    const owner = await signIn(t);
    const recipient = await signIn(t);
    const { licenseId, code } = await grantLicense(t, owner.id, 'Pepper');
    const paired = await as(
      t,
      owner,
      license,
      nextIp(),
    )('PAIRROBOT', { pair_code: code, robot_id: await robotOf(owner) });
    expect(paired.status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        as(
          t,
          owner,
          license,
        )('SHARELICENSE', { license_id: licenseId, recipient_email: recipient.email, duration: 3_600 }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s === 200),
      JSON.stringify(statuses),
    ).toHaveLength(1);
    expect(
      statuses.every((s) => s === 200 || (s >= 400 && s < 500)),
      JSON.stringify(statuses),
    ).toBe(true);
    const live = await t.app.deps.db
      .select()
      .from(licenseShares)
      .where(and(eq(licenseShares.licenseId, licenseId), isNull(licenseShares.stoppedAt)));
    expect(live).toHaveLength(1);
  });

  it(`${PARALLEL} paths fulfilling one paid checkout at once grant it once`, async () => {
    const user = await signIn(t);
    await driverAsset(t, 'Pepper');
    const session = await sessionOf(t, user, [
      line('prod_driver_pepper', 'price_driver_pepper_yearly_gbp'),
      line('prod_time_60', 'price_time_60_lite_gbp'),
    ]);
    await Promise.all([
      ...Array.from({ length: PARALLEL / 2 }, () => t.app.services.payments.fulfil(session.session_id)),
      ...Array.from({ length: PARALLEL / 2 }, () =>
        as(t, user, payment)('ConfirmPurchase', { session_id: session.session_id }),
      ),
    ]);
    expect(await robotLicensesOf(t, user)).toHaveLength(1);
    expect(await durableMinutes(t, user)).toBe(60);
  });

  it(`${PARALLEL} parallel configuration updates of one robot lose none`, async () => {
    const user = await signIn(t);
    const robotId = await robotOf(user);
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        as(t, user, robots)('UPDATEROBOT', { robot_id: robotId, robot_config: { [`k${i}`]: i } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(PARALLEL).fill(200));
    const seen = await as(t, user, robots)('GetRobots', { robot_licenses: [{ robot_id: robotId }] });
    const config = (seen.body.robots as { robot_config: Record<string, number> }[])[0]?.robot_config ?? {};
    expect(Object.keys(config).sort()).toEqual(Array.from({ length: PARALLEL }, (_, i) => `k${i}`).sort());
  });

  it(`${PARALLEL} parallel enrolments with one staff link register one passkey`, async () => {
    const invited = await t.app.services.staff.addStaff({
      email: uniqueEmail('race'),
      role: 'support',
      by: { kind: 'cli' },
    });
    const token = new URL(invited.link).searchParams.get('token') ?? '';
    const options = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        t.api.call(security, 'StaffEnrolmentOptions', { enrolment_token: token }, { ip: nextIp() }),
      ),
    );
    const answers = await Promise.all(
      options.map((o, i) =>
        t.api.call(
          security,
          'StaffEnrol',
          {
            enrolment_token: token,
            name: `Key ${i}`,
            credential: new SoftwareAuthenticator().register(o.body.options as never),
          },
          { ip: nextIp() },
        ),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s === 200),
      JSON.stringify(statuses),
    ).toHaveLength(1);
    expect(
      statuses.filter((s) => s !== 200).every((s) => s === 404),
      JSON.stringify(statuses),
    ).toBe(true);
    expect(await t.app.deps.db.select().from(passkeys).where(eq(passkeys.userId, invited.userId))).toHaveLength(1);
  });

  it('the last two admins demoting each other at once leave one admin', async () => {
    // Every admin this database has but two new ones steps down first (through the service, as staff:add would).
    const pair = await Promise.all([seedUser(t), seedUser(t)]);
    for (const user of pair)
      await t.app.services.staff.setRole({ userId: user.id, role: 'admin', by: { kind: 'cli' } });
    const others = await t.app.deps.db.select().from(users).where(eq(users.staffRole, 'admin'));
    for (const other of others.filter((u) => !pair.some((p) => p.id === u.id)))
      await t.app.services.staff.setRole({ userId: other.id, role: null, by: { kind: 'cli' } });
    const keys = await Promise.all(
      pair.map((_, i) =>
        t.app.services.staff.createKey({ name: `race admin ${i}`, role: 'admin', by: { kind: 'cli' } }),
      ),
    );
    const answers = await Promise.all(
      pair.map((user, i) =>
        t.api.post(
          admin.path,
          { action: 'SetStaffRole', user_id: user.id, role: 'support' },
          { headers: { [OPERATOR_HEADER]: keys[1 - i]?.key ?? '' } },
        ),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await t.app.deps.db.select().from(users).where(eq(users.staffRole, 'admin'))).toHaveLength(1);
  });
});
