import { license, MAX_JSON_DEPTH, MAX_ROBOT_CONFIG_BYTES, robots } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  as,
  expectFieldError,
  grantLicense,
  hardwareHash,
  JUNK_BODIES,
  nextIp,
  type SignedIn,
  signIn,
  useTestApp,
} from '../../test/fixtures.ts';

const t = useTestApp();

/** An object nested `depth` levels. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 1; i < depth; i++) value = { next: value };
  return value;
}

type RobotView = {
  robot_id: string;
  name: string;
  hardware_hash: string;
  robot_state: { available: boolean };
  robot_config: Record<string, unknown>;
  license: { license_id: string };
  isFlexible: boolean;
  join_date: number;
};

const register = async (user: SignedIn, patch: Record<string, unknown> = {}) => {
  const res = await as(
    t,
    user,
    robots,
  )('REGISTERSIM', {
    make: 'Pepper',
    model: 'Pepper',
    name: 'Reception Pepper',
    hardware_hash: hardwareHash(),
    ...patch,
  });
  expect(res.status).toBe(200);
  return res.body.robot as RobotView;
};

const robotsOf = async (user: SignedIn, ids?: string[]) => {
  const res = await as(
    t,
    user,
    robots,
  )('GetRobots', {
    robot_licenses: (ids ?? []).map((robot_id) => ({ robot_id })),
  });
  expect(res.status).toBe(200);
  return res.body.robots as RobotView[];
};

describe('REGISTERSIM', () => {
  it('registers a robot owned by the caller; the same hardware hash answers the same robot', async () => {
    const user = await signIn(t);
    const hash = hardwareHash();
    const robot = await register(user, { hardware_hash: hash, name: 'Lab Nao', make: 'Nao', model: 'Nao' });
    expect(robot).toMatchObject({
      name: 'Lab Nao',
      hardware_hash: hash,
      robot_state: { available: false },
      license: { license_id: '' },
    });
    expect(Math.abs(robot.join_date - t.clock.now().getTime())).toBeLessThan(5_000);
    const again = await register(user, { hardware_hash: hash, name: 'Other name' });
    expect(again.robot_id).toBe(robot.robot_id);
    expect(await robotsOf(user)).toHaveLength(1);
  });

  it.each([
    ['an empty name', { name: '  ' }, 'name'],
    ['a missing model', { model: undefined }, 'model'],
    ['a long make', { make: 'm'.repeat(101) }, 'make'],
    ['a missing hardware hash', { hardware_hash: undefined }, 'hardware_hash'],
  ])('refuses %s, naming the field', async (_name, patch, field) => {
    const user = await signIn(t);
    const res = await as(
      t,
      user,
      robots,
    )('REGISTERSIM', {
      make: 'Pepper',
      model: 'Pepper',
      name: 'X',
      hardware_hash: hardwareHash(),
      ...patch,
    });
    expectFieldError(res, 400, field);
  });
});

describe('UPDATEROBOT and UPDATEMODALITIES', () => {
  it('reports availability, renames, and merges configuration', async () => {
    const user = await signIn(t);
    const robot = await register(user);
    const res = await as(
      t,
      user,
      robots,
    )('UPDATEROBOT', {
      robot_id: robot.robot_id,
      robot_state: { available: true },
      robot_config: { firmware: '2.1' },
    });
    expect(res.status).toBe(200);
    await as(t, user, robots)('UPDATEMODALITIES', { robot_id: robot.robot_id, modalities: ['camera', 'speech'] });
    await as(t, user, robots)('UPDATEROBOT', { robot_id: robot.robot_id, name: 'Front Desk' });
    const [seen] = await robotsOf(user, [robot.robot_id]);
    expect(seen).toMatchObject({
      name: 'Front Desk',
      robot_state: { available: true },
      robot_config: { firmware: '2.1', modalities: ['camera', 'speech'] },
    });
    await as(t, user, robots)('UPDATEROBOT', { robot_id: robot.robot_id, robot_state: { available: false } });
    expect((await robotsOf(user))[0]!.robot_state.available).toBe(false);
  });

  it.each([
    ['UPDATEROBOT', { name: '' }, 'name'],
    ['UPDATEROBOT', { robot_state: { available: 'yes' } }, 'robot_state.available'],
    ['UPDATEMODALITIES', { modalities: 'camera' }, 'modalities'],
    ['UPDATEMODALITIES', { modalities: [''] }, 'modalities.0'],
    // Finding 8 of issue 14: these were 500s (PostgreSQL stores neither NUL nor a lone surrogate).
    ['UPDATEROBOT', { name: 'Front\u0000Desk' }, 'name'],
    ['UPDATEROBOT', { robot_config: { note: 'half \ud83d' } }, 'robot_config.note'],
    ['UPDATEROBOT', { robot_config: nested(MAX_JSON_DEPTH + 1) }, 'robot_config'],
    ['UPDATEROBOT', { robot_config: { big: 'x'.repeat(MAX_ROBOT_CONFIG_BYTES) } }, 'robot_config'],
    ['UPDATEMODALITIES', { modalities: ['camera', '\udc00'] }, 'modalities.1'],
  ] as const)('%s refuses %#, naming the field', async (action, patch, field) => {
    const user = await signIn(t);
    const robot = await register(user);
    expectFieldError(await as(t, user, robots)(action, { robot_id: robot.robot_id, ...patch }), 400, field);
  });

  it('refuses a configuration nested 5,000 levels, naming the field and the rule', async () => {
    const user = await signIn(t);
    const robot = await register(user);
    // Written by hand: JSON.stringify of so deep a value overflows a test worker's stack.
    const config = `${'{"next":'.repeat(4_999)}{"leaf":true}${'}'.repeat(4_999)}`;
    const raw = `{"action":"UPDATEROBOT","email":"${user.email}","robot_id":"${robot.robot_id}","robot_config":${config}}`;
    const res = await t.api.post(robots.path, {}, { raw, bearer: user.token });
    expectFieldError(res, 400, 'robot_config');
    expect(res.body.error.Description).toContain(`must not nest deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('bounds the merged configuration: a call that would grow it past the limit is refused and stores nothing', async () => {
    const user = await signIn(t);
    const robot = await register(user);
    const chunk = 'x'.repeat(MAX_ROBOT_CONFIG_BYTES / 4);
    const update = (key: string) =>
      as(t, user, robots)('UPDATEROBOT', { robot_id: robot.robot_id, robot_config: { [key]: chunk } });
    for (const key of ['a', 'b', 'c']) expect((await update(key)).status).toBe(200);
    const refused = await update('d');
    expectFieldError(refused, 400, 'robot_config');
    expect(refused.body.error.Description).toContain(`at most ${MAX_ROBOT_CONFIG_BYTES}`);
    const [seen] = await robotsOf(user, [robot.robot_id]);
    expect(Object.keys(seen?.robot_config ?? {})).toEqual(['a', 'b', 'c']);
    // Replacing a key does not grow it.
    expect((await update('a')).status).toBe(200);
  });
});

describe('ownership', () => {
  it("user B never reads or changes user A's robot", async () => {
    const a = await signIn(t);
    const b = await signIn(t);
    const robot = await register(a, { name: 'Private' });

    expect(await robotsOf(b, [robot.robot_id])).toEqual([]);
    expect(await robotsOf(b)).toEqual([]);
    for (const [action, body] of [
      ['UPDATEROBOT', { robot_id: robot.robot_id, name: 'Stolen' }],
      ['UPDATEMODALITIES', { robot_id: robot.robot_id, modalities: [] }],
      ['UNREGISTER', { robot_id: robot.robot_id }],
    ] as const)
      expectFieldError(await as(t, b, robots)(action, body), 404, 'robot_id');
    expect((await robotsOf(a, [robot.robot_id]))[0]).toMatchObject({ name: 'Private' });
  });

  it('answers only the asked robots the caller may see, ignoring malformed ids', async () => {
    const a = await signIn(t);
    const b = await signIn(t);
    const mine = await register(a);
    const theirs = await register(b);
    const seen = await robotsOf(a, [mine.robot_id, theirs.robot_id, 'not-a-uuid', '']);
    expect(seen.map((r) => r.robot_id)).toEqual([mine.robot_id]);
  });
});

describe('UNREGISTER', () => {
  it('removes the robot; its license becomes unpaired with a new code', async () => {
    const user = await signIn(t);
    const robot = await register(user);
    const { licenseId, code } = await grantLicense(t, user.id);
    await as(t, user, license, nextIp())('PAIRROBOT', { pair_code: code, robot_id: robot.robot_id });
    const [paired] = await robotsOf(user);
    expect(paired!.license.license_id).toBe(licenseId);

    const res = await as(t, user, robots)('UNREGISTER', { robot_id: robot.robot_id });
    expect(res.status).toBe(200);
    expect(await robotsOf(user)).toEqual([]);
    const lic = await as(t, user, license)('GetLicenses');
    const [entry] = (lic.body.user_licenses as { robot_licenses: { robot_id: string; pair_code: string }[] })
      .robot_licenses;
    expect(entry!.robot_id).toBe('');
    expect(entry!.pair_code).toMatch(/^[A-Z2-9]{8}$/);
    expect(entry!.pair_code).not.toBe(code);
    expectFieldError(await as(t, user, robots)('UNREGISTER', { robot_id: robot.robot_id }), 404, 'robot_id');
  });
});

describe('never a 500', () => {
  it.each(Object.keys(robots.actions))('%s answers junk with a 4xx naming what is wrong', async (action) => {
    const user = await signIn(t);
    for (const body of JUNK_BODIES) {
      const res = await as(t, user, robots)(action as keyof typeof robots.actions, body);
      expect(res.status, `${action} ${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`).toBeLessThan(500);
      if (res.status >= 400) expect(res.body.error.Description).toMatch(/^[\w.[\]-]+: /);
    }
  });
});
