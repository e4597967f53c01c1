import type { Robot, RobotLicence } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { findManagedRobot, licencesWithRobot, type RobotCardModel, robotCards, robotManagerView } from './robots-cards';

function licence(over: Partial<RobotLicence> & { id: string }): RobotLicence {
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
    ...over,
  };
}

describe('licencesWithRobot', () => {
  it.each([
    ['none', [], []],
    ['unpaired only', [licence({ id: 'l1', pair_code: 'ABCD2345' })], []],
    [
      'paired and unpaired',
      [licence({ id: 'l1', robot_id: 'r1', asset_id: 'a1' }), licence({ id: 'l2', pair_code: 'X' })],
      [{ robot_id: 'r1', asset_id: 'a1' }],
    ],
  ])('%s', (_name, licences, refs) => {
    expect(licencesWithRobot(licences)).toEqual(refs);
  });
});

describe('robotCards', () => {
  const cases: [string, RobotLicence, Robot[], boolean, Partial<RobotCardModel>][] = [
    [
      'unpaired licence shows its code, dashed, not clickable',
      licence({ id: 'l1', pair_code: 'ABCD2345', robot_model: 'Nao', robot_make: 'Aldebaran' }),
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
      'paired licence takes the robot name and Active',
      licence({ id: 'l2', robot_id: 'r1', paired_status: true }),
      [robot({ robot_id: 'r1', name: 'Robbie', robot_state: { available: true } })],
      false,
      { name: 'Robbie', status: 'Active', unpaired: false, clickable: true, robotId: 'r1' },
    ],
    [
      'an unavailable robot is Inactive',
      licence({ id: 'l3', robot_id: 'r2' }),
      [robot({ robot_id: 'r2', robot_state: { available: false } })],
      false,
      { status: 'Inactive' },
    ],
    [
      'a paired licence whose robot is missing is Inactive without a name',
      licence({ id: 'l4', robot_id: 'gone' }),
      [],
      false,
      { name: '', status: 'Inactive', clickable: true },
    ],
    [
      'model mapping: Tiago_Steel is Tiago with Steel',
      licence({ id: 'l5', robot_model: 'Tiago_Steel' }),
      [],
      false,
      { model: 'Tiago', version: 'Steel', rawModel: 'Tiago_Steel', image: '/images/robots/tiago-steel.svg' },
    ],
    [
      'the robot model wins over the licence model',
      licence({ id: 'l6', robot_id: 'r3', robot_model: 'Tiago' }),
      [robot({ robot_id: 'r3', model: 'Artus_Hand', make: 'Psyonic' })],
      false,
      { model: 'Artus Hand', make: 'Psyonic', image: '/images/robots/artus-hand.svg' },
    ],
    [
      'unknown model shows the generic image',
      licence({ id: 'l7', robot_model: 'Mystery' }),
      [],
      false,
      { model: 'Mystery', image: '/images/robots/generic.svg' },
    ],
    ['flexible licence', licence({ id: 'l8', isFlexible: true }), [], false, { isFlexible: true }],
    [
      'flexible robot',
      licence({ id: 'l9', robot_id: 'r4' }),
      [robot({ robot_id: 'r4', isFlexible: true })],
      false,
      { isFlexible: true },
    ],
    [
      'shared cards are never clickable',
      licence({ id: 'l10', robot_id: 'r5' }),
      [robot({ robot_id: 'r5' })],
      true,
      { shared: true, clickable: false },
    ],
  ];
  it.each(cases)('%s', (_name, l, robots, shared, expected) => {
    const [card] = robotCards([l], robots, { shared });
    expect(card).toMatchObject(expected);
  });

  it('has no version key without a version', () => {
    const [card] = robotCards([licence({ id: 'l1', robot_model: 'Nao' })], [], { shared: false });
    expect(card && 'version' in card).toBe(false);
  });

  it('gives unique keys to licences without ids', () => {
    const cards = robotCards([licence({ id: '' }), licence({ id: '' })], [], { shared: false });
    expect(new Set(cards.map((c) => c.key)).size).toBe(2);
  });
});

describe('robotManagerView', () => {
  const [paired, unpaired] = robotCards(
    [licence({ id: 'p', robot_id: 'r1' }), licence({ id: 'u', pair_code: 'ABCD2345' })],
    [robot({ robot_id: 'r1' })],
    { shared: false },
  ) as [RobotCardModel, RobotCardModel];
  const [shared] = robotCards([licence({ id: 's', robot_id: 'r9' })], [robot({ robot_id: 'r9' })], {
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
    expect(view.mine.map((c) => c.licenceId)).toEqual(mineIds);
    expect(view.shared.map((c) => c.licenceId)).toEqual(sharedIds);
    expect(view.empty).toBe(empty);
  });
});

describe('findManagedRobot', () => {
  const own = licence({ id: 'own', robot_id: 'r1' });
  const unpairedOwn = licence({ id: 'u', pair_code: 'ABCD2345' });
  const sharedLicence = licence({ id: 'sh', robot_id: 'r2' });
  const licences = { robot_licenses: [own, unpairedOwn], shared_robot_licenses: [sharedLicence] };
  const r1 = robot({ robot_id: 'r1' });

  it.each([
    ['own robot', 'r1', [r1], { kind: 'own', licence: own, robot: r1 }],
    ['own licence whose robot was not returned', 'r1', [], { kind: 'own', licence: own, robot: undefined }],
    ['shared robot', 'r2', [], { kind: 'shared' }],
    ["someone else's robot", 'r3', [], { kind: 'missing' }],
    ['empty id never matches an unpaired licence', '', [], { kind: 'missing' }],
  ])('%s', (_name, id, robots, expected) => {
    expect(findManagedRobot(licences, robots, id)).toEqual(expected);
  });
});
