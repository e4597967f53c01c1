import { ONE_DAY_MS, type Robot, type RobotLicense } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  findManagedRobot,
  firstCardImages,
  licensesWithRobot,
  matchesPairingFilter,
  type RobotCardModel,
  robotCards,
  robotManagerView,
  robotStatusLabel,
} from './robots-cards';

describe('robotStatusLabel', () => {
  it.each([
    [true, 'Active'],
    [false, 'Inactive'],
    [undefined, 'Inactive'],
  ])('available %s -> %s', (available, label) => {
    expect(robotStatusLabel(available)).toBe(label);
  });
});

describe('matchesPairingFilter', () => {
  it.each([
    [{ pair_code: 'ABCD2345' }, 'all', true],
    [{ pair_code: 'ABCD2345' }, 'unpaired', true],
    [{ pair_code: 'ABCD2345' }, 'paired', false],
    [{ pair_code: '' }, 'paired', true],
    [{}, 'paired', true],
    [{ pair_code: '' }, 'unpaired', false],
  ] as const)('%o under %s: %s', (item, filter, shown) => {
    expect(matchesPairingFilter(item, filter)).toBe(shown);
  });
});

function license(over: Partial<RobotLicense> & { id: string }): RobotLicense {
  const { id, ...rest } = over;
  return {
    robot_id: '',
    asset_id: 'asset-1',
    robot_license: { license_id: id, start_date: 0, duration: 0, end_date: 0 },
    robot_make: 'PAL',
    robot_model: 'Tiago',
    pair_code: '',
    paired_status: false,
    isFlexible: false,
    ...rest,
  };
}

function robot(over: Partial<Robot> & { robot_id: string }): Robot {
  return {
    make: 'PAL',
    model: 'Tiago',
    name: 'Robbie',
    hardware_hash: 'hash',
    license: { license_id: '' },
    join_date: 0,
    robot_config: {},
    robot_state: { available: true },
    pair_code: '',
    isFlexible: false,
    last_seen: 0,
    ...over,
  };
}

const NOW = Date.UTC(2026, 10, 23, 12);

describe('licensesWithRobot', () => {
  it.each([
    ['none', [], []],
    ['unpaired only', [license({ id: 'l1', pair_code: 'ABCD2345' })], []],
    [
      'paired and unpaired',
      [license({ id: 'l1', robot_id: 'r1', asset_id: 'a1' }), license({ id: 'l2', pair_code: 'X' })],
      [{ robot_id: 'r1', asset_id: 'a1' }],
    ],
  ])('%s', (_name, licenses, refs) => {
    expect(licensesWithRobot(licenses)).toEqual(refs);
  });
});

describe('robotCards', () => {
  const cases: [string, RobotLicense, Robot[], boolean, Partial<RobotCardModel>][] = [
    [
      'unpaired license shows its code, dashed, not clickable',
      license({ id: 'l1', pair_code: 'ABCD2345', robot_model: 'Nao', robot_make: 'Aldebaran' }),
      [],
      false,
      {
        pairCode: 'ABCD2345',
        unpaired: true,
        clickable: false,
        model: 'Nao',
        make: 'Aldebaran',
        image: '/images/robots/nao.svg',
      },
    ],
    [
      'paired license takes the robot name and Active',
      license({ id: 'l2', robot_id: 'r1', paired_status: true }),
      [robot({ robot_id: 'r1', name: 'Robbie', robot_state: { available: true } })],
      false,
      { name: 'Robbie', status: 'Active', unpaired: false, clickable: true, robotId: 'r1' },
    ],
    [
      'an unavailable robot is Inactive',
      license({ id: 'l3', robot_id: 'r2' }),
      [robot({ robot_id: 'r2', robot_state: { available: false } })],
      false,
      { status: 'Inactive' },
    ],
    [
      'a paired license whose robot is missing is Inactive without a name',
      license({ id: 'l4', robot_id: 'gone' }),
      [],
      false,
      { name: '', status: 'Inactive', clickable: true },
    ],
    [
      'model mapping: Tiago_Steel is Tiago with Steel',
      license({ id: 'l5', robot_model: 'Tiago_Steel' }),
      [],
      false,
      { model: 'Tiago', version: 'Steel', rawModel: 'Tiago_Steel', image: '/images/robots/tiago-steel.svg' },
    ],
    [
      'the robot model wins over the license model',
      license({ id: 'l6', robot_id: 'r3', robot_model: 'Tiago' }),
      [robot({ robot_id: 'r3', model: 'Artus_Hand', make: 'Psyonic' })],
      false,
      { model: 'Artus Hand', make: 'Psyonic', image: '/images/robots/artus-hand.svg' },
    ],
    [
      'unknown model shows the generic image',
      license({ id: 'l7', robot_model: 'Mystery' }),
      [],
      false,
      { model: 'Mystery', image: '/images/robots/generic.svg' },
    ],
    ['flexible license', license({ id: 'l8', isFlexible: true }), [], false, { isFlexible: true }],
    [
      'flexible robot',
      license({ id: 'l9', robot_id: 'r4' }),
      [robot({ robot_id: 'r4', isFlexible: true })],
      false,
      { isFlexible: true },
    ],
    [
      'shared cards are never clickable',
      license({ id: 'l10', robot_id: 'r5' }),
      [robot({ robot_id: 'r5' })],
      true,
      { shared: true, clickable: false },
    ],
  ];
  it.each(cases)('%s', (_name, l, robots, shared, expected) => {
    const [card] = robotCards([l], robots, { shared });
    expect(card).toMatchObject(expected);
  });

  it.each([
    [
      'a robot that reported yesterday',
      { paired_at: NOW - 90 * ONE_DAY_MS },
      'r',
      NOW - ONE_DAY_MS,
      { lastSeen: NOW - ONE_DAY_MS, use: { unused: false } },
    ],
    [
      'a robot silent for 30 days',
      { paired_at: NOW - 90 * ONE_DAY_MS },
      'r',
      NOW - 30 * ONE_DAY_MS,
      { lastSeen: NOW - 30 * ONE_DAY_MS, use: { unused: true, reason: 'silent', sinceMs: NOW - 30 * ONE_DAY_MS } },
    ],
    [
      'a robot that never reported, paired 31 days ago',
      { paired_at: NOW - 31 * ONE_DAY_MS },
      'r',
      0,
      { lastSeen: 0, use: { unused: true, reason: 'never-reported', sinceMs: NOW - 31 * ONE_DAY_MS } },
    ],
    [
      'unpaired for 31 days',
      { pair_code: 'ABCD2345', unpaired_since: NOW - 31 * ONE_DAY_MS },
      '',
      0,
      { lastSeen: 0, use: { unused: true, reason: 'unpaired', sinceMs: NOW - 31 * ONE_DAY_MS } },
    ],
    [
      'unpaired for a week',
      { pair_code: 'ABCD2345', unpaired_since: NOW - 7 * ONE_DAY_MS },
      '',
      0,
      { use: { unused: false } },
    ],
  ] as const)('last seen and use: %s', (_name, extra, robotId, lastSeen, expected) => {
    const l = license({ id: 'l-use', robot_id: robotId, ...extra });
    const robots = robotId ? [robot({ robot_id: robotId, last_seen: lastSeen })] : [];
    const [own] = robotCards([l], robots, { shared: false, nowMs: NOW });
    expect(own).toMatchObject(expected);
    // a sharee is never told to reassign someone else's license
    const [shared] = robotCards([l], robots, { shared: true, nowMs: NOW });
    expect(shared?.use).toEqual({ unused: false });
  });

  it('has no version key without a version', () => {
    const [card] = robotCards([license({ id: 'l1', robot_model: 'Nao' })], [], { shared: false });
    expect(card && 'version' in card).toBe(false);
  });

  it('gives unique keys to licenses without ids', () => {
    const cards = robotCards([license({ id: '' }), license({ id: '' })], [], { shared: false });
    expect(new Set(cards.map((c) => c.key)).size).toBe(2);
  });
});

describe('robotManagerView', () => {
  const [paired, unpaired] = robotCards(
    [license({ id: 'p', robot_id: 'r1' }), license({ id: 'u', pair_code: 'ABCD2345' })],
    [robot({ robot_id: 'r1' })],
    { shared: false },
  ) as [RobotCardModel, RobotCardModel];
  const [shared] = robotCards([license({ id: 's', robot_id: 'r9' })], [robot({ robot_id: 'r9' })], {
    shared: true,
  }) as [RobotCardModel];

  it.each([
    ['all shows both', 'all', [paired, unpaired], [shared], ['p', 'u'], ['s'], false],
    ['paired', 'paired', [paired, unpaired], [shared], ['p'], ['s'], false],
    ['unpaired', 'unpaired', [paired, unpaired], [shared], ['u'], [], false],
    ['nothing at all is empty', 'all', [], [], [], [], true],
    ['only shared robots is not empty', 'all', [], [shared], [], ['s'], false],
    ['a filter that hides everything is not empty', 'unpaired', [paired], [], [], [], false],
  ] as const)('%s', (_name, filter, mine, sharedCards, mineIds, sharedIds, empty) => {
    const view = robotManagerView(mine, sharedCards, filter);
    expect(view.mine.map((c) => c.licenseId)).toEqual(mineIds);
    expect(view.shared.map((c) => c.licenseId)).toEqual(sharedIds);
    expect(view.empty).toBe(empty);
  });
});

describe('findManagedRobot', () => {
  const own = license({ id: 'own', robot_id: 'r1' });
  const unpairedOwn = license({ id: 'u', pair_code: 'ABCD2345' });
  const sharedLicense = license({ id: 'sh', robot_id: 'r2' });
  const licenses = { robot_licenses: [own, unpairedOwn], shared_robot_licenses: [sharedLicense] };
  const r1 = robot({ robot_id: 'r1' });

  it.each([
    ['own robot', 'r1', [r1], { kind: 'own', license: own, robot: r1 }],
    ['own license whose robot was not returned', 'r1', [], { kind: 'own', license: own, robot: undefined }],
    ['shared robot', 'r2', [], { kind: 'shared' }],
    ["someone else's robot", 'r3', [], { kind: 'missing' }],
    ['empty id never matches an unpaired license', '', [], { kind: 'missing' }],
  ])('%s', (_name, id, robots, expected) => {
    expect(findManagedRobot(licenses, robots, id)).toEqual(expected);
  });
});

describe('firstCardImages', () => {
  const own = [
    license({ id: 'a', robot_model: 'Pepper' }),
    license({ id: 'b', robot_model: 'Nao' }),
    license({ id: 'c', robot_model: 'pepper' }),
  ];
  const shared = [license({ id: 'd', robot_model: 'Tiago++' }), license({ id: 'e', robot_model: 'Unknown bot' })];
  it.each([
    ['own cards first, each picture once', 3, ['/images/robots/pepper.svg', '/images/robots/nao.svg']],
    [
      'then the shared ones',
      4,
      ['/images/robots/pepper.svg', '/images/robots/nao.svg', '/images/robots/tiago-plus-plus.svg'],
    ],
    [
      'an unknown model shows the generic picture',
      5,
      [
        '/images/robots/pepper.svg',
        '/images/robots/nao.svg',
        '/images/robots/tiago-plus-plus.svg',
        '/images/robots/generic.svg',
      ],
    ],
    ['none asked', 0, []],
  ])('%s', (_name, n, expected) => {
    expect(firstCardImages({ robot_licenses: own, shared_robot_licenses: shared }, n)).toEqual(expected);
  });
});
