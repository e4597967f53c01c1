import { ONE_DAY_S, type RobotDriverSubscription, type RobotLicense, type UserSubscription } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { compareStatus, driverRows, itemRows, licensesById, matchesModel, modelLabel } from './subscriptions-rows';

const driver = (over: Partial<RobotDriverSubscription> = {}): RobotDriverSubscription => ({
  uuid: 'sub-1',
  type: 'robot_driver',
  stripe_id: '',
  user_id: 'u-1',
  user_email: 'ada@example.com',
  asset_id: 'driver-nao',
  license_id: '',
  duration: 365 * ONE_DAY_S,
  created_at: Date.UTC(2025, 0, 5),
  last_updated_at: Date.UTC(2025, 0, 5),
  status: 'active',
  stripe_customer_id: '',
  overrideReason: 99,
  cancel_at_period_end: false,
  payment_failed_at: 0,
  robot_license_id: 'lic-1',
  credit_used: false,
  credit_entry_uuid: '',
  ...over,
});

const license = (id: string, robotId: string, pairCode: string, model = 'Nao'): RobotLicense => ({
  robot_id: robotId,
  asset_id: 'driver-nao',
  robot_license: { license_id: id, start_date: 0, duration: 0, end_date: 0 },
  robot_make: model,
  robot_model: model,
  pair_code: pairCode,
  paired_status: Boolean(robotId),
  isFlexible: false,
});

const products = [
  { id: 'prod_driver_nao', name: 'Nao driver', metadata: { BOW_UUID: 'driver-nao', model: 'Nao' } },
  { id: 'prod_driver_tiago', name: 'Tiago driver', metadata: { BOW_UUID: 'driver-tiago', model: 'Tiago_Steel' } },
];

describe('driverRows', () => {
  const licenses = licensesById([license('lic-1', 'robot-9', ''), license('lic-2', '', 'PAIR22', 'Tiago_Steel')]);

  it('joins a subscription with its licence and product', () => {
    const [row] = driverRows([driver()], licenses, products);
    expect(row).toEqual({
      id: 'sub-1',
      subscriptionId: 'sub-1',
      product: 'Nao driver',
      model: 'Nao',
      robotId: 'robot-9',
      status: 'active',
      display: 'Active',
      statusLabel: 'Active',
      badge: undefined,
      cancelAtPeriodEnd: false,
      durationS: 365 * ONE_DAY_S,
      duration: '365 days, 0 hours',
      createdAtMs: Date.UTC(2025, 0, 5),
      expiresAtMs: Date.UTC(2026, 0, 5),
    });
  });

  it.each([
    [
      'the provider subscription id opens Manage Subscription',
      { stripe_id: 'sub_stripe' },
      { subscriptionId: 'sub_stripe' },
    ],
    [
      'an unpaired licence has no robot',
      { robot_license_id: 'lic-2', asset_id: 'driver-tiago' },
      { robotId: '', model: 'Tiago Steel' },
    ],
    [
      'an unknown licence takes the model of the product',
      { robot_license_id: 'gone', asset_id: 'driver-tiago' },
      { robotId: '', model: 'Tiago Steel' },
    ],
    [
      'an unknown product',
      { asset_id: 'driver-x', robot_license_id: 'gone' },
      { product: 'Unknown Product', model: '' },
    ],
    [
      'pending_assignment shows as Pending',
      { status: 'pending_assignment' as const },
      { display: 'PendingAssignment', statusLabel: 'Pending' },
    ],
    ['a free trial has its badge', { overrideReason: 0 as const }, { badge: 'FreeTrial' }],
    ['an override has its badge', { overrideReason: 1 as const }, { badge: 'BowOverride' }],
    ['other has its badge', { overrideReason: 2 as const }, { badge: 'Other' }],
    [
      'cancelled at period end, still active',
      { cancel_at_period_end: true },
      { cancelAtPeriodEnd: true, statusLabel: 'Active' },
    ],
    [
      'cancelled at period end and over',
      { cancel_at_period_end: true, status: 'cancelled' as const },
      { cancelAtPeriodEnd: false },
    ],
    ['days and hours', { duration: 2 * ONE_DAY_S + 5 * 3_600 }, { duration: '2 days, 5 hours' }],
  ])('%s', (_name, over, expected) => {
    expect(driverRows([driver(over)], licenses, products)[0]).toMatchObject(expected);
  });
});

describe('compareStatus', () => {
  it('orders Active, Cancelled, Expired, Inactive, Pending', () => {
    const labels = ['Pending', 'Inactive', 'Active', 'Expired', 'Cancelled'].map((statusLabel) => ({ statusLabel }));
    expect(labels.sort(compareStatus).map((r) => r.statusLabel)).toEqual([
      'Active',
      'Cancelled',
      'Expired',
      'Inactive',
      'Pending',
    ]);
  });
});

describe('matchesModel', () => {
  it.each([
    ['Tiago Steel', '', true],
    ['Tiago Steel', 'tiago', true],
    ['Tiago Steel', ' STEEL ', true],
    ['Tiago Steel', 'nao', false],
    ['', 'nao', false],
  ])('%s with "%s": %s', (model, text, match) => {
    expect(matchesModel({ model }, text)).toBe(match);
  });
});

describe('modelLabel', () => {
  it.each([
    ['Nao', 'Nao'],
    ['Tiago_Steel', 'Tiago Steel'],
    ['Tiago++', 'Tiago ++'],
    ['Artus_Hand', 'Artus Hand'],
  ])('%s -> %s', (model, label) => {
    expect(modelLabel(model)).toBe(label);
  });
});

describe('itemRows', () => {
  const plan: UserSubscription = {
    ...driver({ uuid: 'plan-1', type: 'user' }),
    subscription_tier: 'Standard Subscription',
    credits: 0,
  };
  const licenses = licensesById([license('lic-1', 'robot-9', ''), license('lic-2', '', 'PAIR22')]);

  it('lists the plan, then each driver with its robot name or pairing code', () => {
    const rows = itemRows(
      {
        user_subscriptions: [plan],
        robot_driver_subscriptions: [
          driver({ uuid: 'd1', robot_license_id: 'lic-1' }),
          driver({ uuid: 'd2', robot_license_id: 'lic-2' }),
          driver({ uuid: 'd3', robot_license_id: 'gone' }),
        ],
      },
      licenses,
      [{ robot_id: 'robot-9', name: 'Marvin' }],
    );
    expect(rows).toEqual([
      { key: 'plan-1', sku: 'Standard Subscription', id: 'plan-1', robot: '', robotId: '', viewable: false },
      { key: 'd1', sku: 'driver-nao', id: 'lic-1', robot: 'Marvin', robotId: 'robot-9', viewable: true },
      { key: 'd2', sku: 'driver-nao', id: 'lic-2', robot: 'PAIR22', robotId: '', viewable: true },
      { key: 'd3', sku: 'driver-nao', id: 'gone', robot: '', robotId: '', viewable: true },
    ]);
  });
});
