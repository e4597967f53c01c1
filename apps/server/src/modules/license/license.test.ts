import { ErrorCodes, license, ONE_DAY_S, PAIR_CODE_LENGTH, robots } from '@portal/contract';
import { describe, expect, it } from 'vitest';
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
import { testApp } from '../../test/harness.ts';

const PAIR_LIMIT = 5;
const PAIR_ADDRESS_LIMIT = 8;

const t = useTestApp({ RATE_PAIR_PER_ACCOUNT: String(PAIR_LIMIT), RATE_PAIR_PER_ADDRESS: String(PAIR_ADDRESS_LIMIT) });

type Lic = {
  robot_id: string;
  pair_code: string;
  paired_status: boolean;
  isFlexible: boolean;
  robot_model: string;
  robot_license: { license_id: string; start_date: number; end_date: number; duration: number };
};
type Licenses = { robot_licenses: Lic[]; shared_robot_licenses: Lic[]; asset_licenses: unknown[] };

const licensesOf = async (user: SignedIn) => {
  const res = await as(t, user, license)('GetLicences');
  expect(res.status).toBe(200);
  return res.body.user_licenses as Licenses;
};

async function registerRobot(user: SignedIn, name = 'Robbie', model = 'Pepper') {
  const res = await as(t, user, robots)('REGISTERSIM', { make: model, model, name, hardware_hash: hardwareHash() });
  expect(res.status).toBe(200);
  return (res.body.robot as { robot_id: string }).robot_id;
}

/** A user with a license paired to a registered robot. */
async function pairedOwner() {
  const owner = await signIn(t);
  const { licenseId, code } = await grantLicense(t, owner.id, 'Pepper');
  const robotId = await registerRobot(owner);
  const res = await as(t, owner, license, nextIp())('PAIRROBOT', { pair_code: code, robot_id: robotId });
  expect(res.status).toBe(200);
  return { owner, licenseId, robotId };
}

describe('GetLicences', () => {
  it('answers code 23 with empty lists and HTTP 200 when the user has no licenses', async () => {
    const user = await signIn(t);
    const res = await as(t, user, license)('GetLicences');
    expect(res.status).toBe(200);
    expect(res.body.error).toMatchObject({ Success: false, Code: ErrorCodes.NO_LICENSES.code });
    expect(res.body.user_licenses).toEqual({
      email: user.email,
      asset_licenses: [],
      robot_licenses: [],
      shared_robot_licenses: [],
    });
  });

  it('shows an unpaired license with its pairing code to its owner', async () => {
    const user = await signIn(t);
    const { licenseId, code } = await grantLicense(t, user.id, 'Tiago_Steel');
    const res = await as(t, user, license)('GetLicences');
    expect(res.body.error.Success).toBe(true);
    const [lic] = (res.body.user_licenses as Licenses).robot_licenses;
    expect(code).toMatch(new RegExp(`^[A-Z2-9]{${PAIR_CODE_LENGTH}}$`));
    expect(lic).toMatchObject({
      robot_id: '',
      pair_code: code,
      paired_status: false,
      robot_model: 'Tiago_Steel',
      robot_license: { license_id: licenseId },
    });
    expect(lic!.robot_license.end_date - lic!.robot_license.start_date).toBe(lic!.robot_license.duration * 1000);
  });

  it('leaves out a license that has ended, and its code no longer pairs', async () => {
    const user = await signIn(t);
    const { licenseId: ending, code } = await grantLicense(t, user.id, 'Nao', 60);
    const { licenseId: lasting } = await grantLicense(t, user.id, 'Pepper');
    const ids = async () => (await licensesOf(user)).robot_licenses.map((l) => l.robot_license.license_id);
    expect(await ids()).toEqual(expect.arrayContaining([ending, lasting]));
    t.clock.advance(61_000);
    expect(await ids()).toEqual([lasting]);
    const robotId = await registerRobot(user, 'Late Nao');
    expectFieldError(
      await as(t, user, license, nextIp())('PAIRROBOT', { pair_code: code, robot_id: robotId }),
      404,
      'pair_code',
    );
  });

  it('refuses a caller without a session', async () => {
    const user = await signIn(t);
    const res = await t.api.call(license, 'GetLicences', { email: user.email });
    expect(res.status).toBe(401);
  });

  it('answers the same under its former name GetLicenses, refusals included (docs/decisions/062)', async () => {
    const user = await signIn(t);
    const { licenseId } = await grantLicense(t, user.id, 'Nao');
    const spelt = await as(t, user, license)('GetLicences');
    const alias = await as(t, user, license)('GetLicenses');
    expect(alias.status).toBe(200);
    expect(alias.body).toEqual(spelt.body);
    expect(JSON.stringify(alias.body)).toContain(licenseId);
    expect((await t.api.call(license, 'GetLicenses', { email: user.email })).status).toBe(401);
    const other = await signIn(t);
    expect((await t.api.call(license, 'GetLicenses', { email: user.email }, { bearer: other.token })).status).toBe(403);
  });
});

describe('ownership', () => {
  it("gives user B nothing of user A's licenses", async () => {
    const { owner: a, licenseId } = await pairedOwner();
    const { licenseId: unpaired } = await grantLicense(t, a.id);
    const b = await signIn(t);
    const c = await signIn(t);

    const res = await as(t, b, license)('GetLicences');
    expect(res.body.error.Code).toBe(ErrorCodes.NO_LICENSES.code);
    expect(JSON.stringify(res.body)).not.toContain(licenseId);

    for (const [action, body] of [
      ['REGENERATEPAIRCODE', { license_id: unpaired }],
      ['UNPAIR', { license_id: licenseId }],
      ['SHARELICENSE', { license_id: licenseId, recipient_email: c.email, duration: 3600 }],
      ['STOPSHAREDLICENSE', { license_id: licenseId }],
    ] as const)
      expectFieldError(await as(t, b, license)(action, body), 404, 'license_id');
    // B naming A's email is refused before anything is read.
    const spoofed = await t.api.call(license, 'GetLicences', { email: a.email }, { bearer: b.token });
    expect(spoofed.status).toBe(403);
  });
});

describe('PAIRROBOT', () => {
  it('binds the license to the robot and clears the code; the code works once', async () => {
    const user = await signIn(t);
    const { licenseId, code } = await grantLicense(t, user.id);
    const robotId = await registerRobot(user, 'Reception');
    const ip = nextIp();

    const res = await as(
      t,
      user,
      license,
      ip,
    )('PAIRROBOT', { pair_code: ` ${code.toLowerCase()} `, robot_id: robotId });
    expect(res.status).toBe(200);
    expect(res.body.robot_license).toMatchObject({ robot_id: robotId, pair_code: '', paired_status: true });

    const [lic] = (await licensesOf(user)).robot_licenses;
    expect(lic).toMatchObject({ robot_id: robotId, pair_code: '', paired_status: true });
    expect(lic!.robot_license.license_id).toBe(licenseId);

    const other = await registerRobot(user, 'Second');
    expectFieldError(
      await as(t, user, license, ip)('PAIRROBOT', { pair_code: code, robot_id: other }),
      404,
      'pair_code',
    );
  });

  it.each([
    ['a code of another account', 'other', 404, 'pair_code'],
    ['a robot of another account', 'foreign-robot', 404, 'robot_id'],
    ['a robot that is already paired', 'paired-robot', 409, 'robot_id'],
    ['an unknown robot id', 'unknown-robot', 404, 'robot_id'],
    ['a malformed code', 'bad-code', 400, 'pair_code'],
  ] as const)('refuses %s', async (_name, kind, status, field) => {
    const user = await signIn(t);
    const stranger = await signIn(t);
    const mine = await grantLicense(t, user.id);
    const theirs = await grantLicense(t, stranger.id);
    let robotId = await registerRobot(user);
    let code = mine.code;
    if (kind === 'other') code = theirs.code;
    if (kind === 'foreign-robot') robotId = await registerRobot(stranger);
    if (kind === 'unknown-robot') robotId = '3f1c8f9e-0000-4000-8000-000000000000';
    if (kind === 'bad-code') code = 'no!';
    if (kind === 'paired-robot') {
      const first = await grantLicense(t, user.id);
      await as(t, user, license, nextIp())('PAIRROBOT', { pair_code: first.code, robot_id: robotId });
    }
    expectFieldError(
      await as(t, user, license, nextIp())('PAIRROBOT', { pair_code: code, robot_id: robotId }),
      status,
      field,
    );
    // Nothing was bound by the refused attempt.
    const stillUnpaired = (await licensesOf(user)).robot_licenses.find(
      (l) => l.robot_license.license_id === mine.licenseId,
    );
    expect(stillUnpaired?.pair_code).toBe(mine.code);
  });

  it('limits attempts per account: after the limit even the right code is refused', async () => {
    const user = await signIn(t);
    const { code } = await grantLicense(t, user.id);
    const robotId = await registerRobot(user);
    for (let i = 0; i < PAIR_LIMIT; i++) {
      const res = await as(t, user, license, nextIp())('PAIRROBOT', { pair_code: 'WRONGCODE', robot_id: robotId });
      expect(res.status).toBe(404);
    }
    const limited = await as(t, user, license, nextIp())('PAIRROBOT', { pair_code: code, robot_id: robotId });
    expect(limited.status).toBe(429);
    expect(limited.body.error.Code).toBe(ErrorCodes.RATE_LIMITED.code);
    // The window passes, the right code works.
    t.clock.advance(15 * 60 * 1000);
    const later = await as(
      t,
      await relogin(t, user),
      license,
      nextIp(),
    )('PAIRROBOT', { pair_code: code, robot_id: robotId });
    expect(later.status).toBe(200);
  });

  it('limits attempts per address across accounts', async () => {
    const ip = nextIp();
    for (let i = 0; i < PAIR_ADDRESS_LIMIT; i++) {
      const user = await signIn(t);
      const robotId = await registerRobot(user);
      const res = await as(t, user, license, ip)('PAIRROBOT', { pair_code: 'WRONGCODE', robot_id: robotId });
      expect(res.status).toBe(404);
    }
    const user = await signIn(t);
    const { code } = await grantLicense(t, user.id);
    const robotId = await registerRobot(user);
    expect((await as(t, user, license, ip)('PAIRROBOT', { pair_code: code, robot_id: robotId })).status).toBe(429);
    expect((await as(t, user, license, nextIp())('PAIRROBOT', { pair_code: code, robot_id: robotId })).status).toBe(
      200,
    );
  });
});

describe('REGENERATEPAIRCODE', () => {
  it('replaces the code: the old one stops working, the new one pairs', async () => {
    const user = await signIn(t);
    const { licenseId, code: old } = await grantLicense(t, user.id);
    const res = await as(t, user, license)('REGENERATEPAIRCODE', { license_id: licenseId });
    expect(res.status).toBe(200);
    const fresh = (res.body.robot_license as Lic).pair_code;
    expect(fresh).toMatch(/^[A-Z2-9]{8}$/);
    expect(fresh).not.toBe(old);
    expect((await licensesOf(user)).robot_licenses[0]!.pair_code).toBe(fresh);

    const robotId = await registerRobot(user);
    const ip = nextIp();
    expect((await as(t, user, license, ip)('PAIRROBOT', { pair_code: old, robot_id: robotId })).status).toBe(404);
    expect((await as(t, user, license, ip)('PAIRROBOT', { pair_code: fresh, robot_id: robotId })).status).toBe(200);
  });

  it('refuses a paired license', async () => {
    const { owner, licenseId } = await pairedOwner();
    expectFieldError(await as(t, owner, license)('REGENERATEPAIRCODE', { license_id: licenseId }), 409, 'license_id');
  });
});

describe('UNPAIR', () => {
  it('releases the robot and gives the license a new code that pairs again', async () => {
    const { owner, licenseId, robotId } = await pairedOwner();
    const res = await as(t, owner, license)('UNPAIR', { license_id: licenseId });
    expect(res.status).toBe(200);
    const lic = res.body.robot_license as Lic;
    expect(lic).toMatchObject({ robot_id: '', paired_status: false });
    expect(lic.pair_code).toMatch(/^[A-Z2-9]{8}$/);

    // The robot is still registered and can be paired again with the new code.
    const again = await as(t, owner, license, nextIp())('PAIRROBOT', { pair_code: lic.pair_code, robot_id: robotId });
    expect(again.status).toBe(200);
  });

  it('refuses a license that is not paired', async () => {
    const user = await signIn(t);
    const { licenseId } = await grantLicense(t, user.id);
    expectFieldError(await as(t, user, license)('UNPAIR', { license_id: licenseId }), 409, 'license_id');
  });
});

describe('BUYASSET', () => {
  it('is for operators only: a portal session is refused', async () => {
    const user = await signIn(t);
    const asset = await driverAsset(t, 'Pepper');
    const res = await as(t, user, license)('BUYASSET', { asset_id: asset });
    expectFieldError(res, 403, 'x-operator-token');
    const wrong = await asOperator(
      t,
      license,
      `${OPERATOR_TOKEN}x`,
    )('BUYASSET', { email: user.email, asset_id: asset });
    expectFieldError(wrong, 403, 'x-operator-token');
    expect((await as(t, user, license)('GetLicences')).body.error.Code).toBe(ErrorCodes.NO_LICENSES.code);
  });

  it('grants an asset license and, for a robot driver, an unpaired robot license with a code', async () => {
    const user = await signIn(t);
    const asset = await driverAsset(t, 'Tiago++');
    const res = await asOperator(t, license)('BUYASSET', { email: user.email, asset_id: asset, duration: ONE_DAY_S });
    expect(res.status).toBe(200);
    expect(res.body.asset_license).toMatchObject({ asset_id: asset, asset_license: { duration: ONE_DAY_S } });
    const seen = await licensesOf(user);
    expect(seen.asset_licenses).toHaveLength(1);
    expect(seen.robot_licenses).toEqual([
      expect.objectContaining({ asset_id: asset, robot_model: 'Tiago++', paired_status: false }),
    ]);
    expect(seen.robot_licenses[0]!.pair_code).toMatch(/^[A-Z2-9]{8}$/);
  });

  it.each([
    ['an unknown asset', { asset_id: 'no-such-asset' }, 404, 'asset_id'],
    ['an unknown account', { email: 'nobody-here@example.test' }, 404, 'email'],
    ['a missing asset id', { asset_id: undefined }, 400, 'asset_id'],
    ['a negative duration', { duration: -5 }, 400, 'duration'],
  ] as const)('refuses %s, naming the field', async (_name, patch, status, field) => {
    const user = await signIn(t);
    const asset = await driverAsset(t, 'Nao');
    expectFieldError(
      await asOperator(t, license)('BUYASSET', { email: user.email, asset_id: asset, ...patch }),
      status,
      field,
    );
  });

  it('refuses the old token once OPERATOR_TOKEN is unset (only named API keys then work, decision 070)', async () => {
    const plain = await testApp(t.database, roboticsConfig({ OPERATOR_TOKEN: '' }));
    try {
      const res = await asOperator(plain, license)('BUYASSET', { email: 'x@example.test', asset_id: 'a' });
      expectFieldError(res, 403, 'x-operator-token');
      expect(res.body.error.Description).toContain('missing, wrong or revoked');
    } finally {
      await closeApp(plain);
    }
  });
});

describe('never a 500', () => {
  it.each(Object.keys(license.actions))('%s answers junk with a 4xx naming what is wrong', async (action) => {
    const user = await signIn(t);
    for (const body of JUNK_BODIES) {
      const res = await as(t, user, license, nextIp())(action as keyof typeof license.actions, body);
      expect(res.status, `${action} ${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`).toBeLessThan(500);
      if (res.status >= 400) expect(res.body.error.Description).toMatch(/^[\w.[\]-]+: /);
    }
  });
});
