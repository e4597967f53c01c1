import { ONE_DAY_S } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  displayStatus,
  epochSecondsToMs,
  expiryMs,
  formatDuration,
  manageSubscriptionPath,
  overrideBadge,
  productNameFor,
  refreshPlan,
  rowActions,
  statusLabel,
  viewRobotTarget,
} from './subscriptions-table';

describe('status display', () => {
  it.each([
    ['active', 'Active', 'Active'],
    ['cancelled', 'Cancelled', 'Cancelled'],
    ['canceled', 'Cancelled', 'Cancelled'],
    ['expired', 'Expired', 'Expired'],
    ['pending_assignment', 'PendingAssignment', 'Pending'],
    ['PendingAssignment', 'PendingAssignment', 'Pending'],
    ['inactive', 'Inactive', 'Inactive'],
    ['Active', 'Active', 'Active'],
    ['past_due', undefined, 'Past due'],
    ['', undefined, ''],
  ])('%s -> %s shown as %s', (status, display, label) => {
    expect(displayStatus(status)).toBe(display);
    expect(statusLabel(status)).toBe(label);
  });
});

describe('rowActions', () => {
  it.each([
    ['active', ['View Robot', 'Manage Subscription', 'Get Help']],
    ['cancelled', ['Get Help']],
    ['expired', ['Get Help']],
    ['pending_assignment', ['Get Help']],
    ['inactive', ['Get Help']],
    ['whatever', ['Get Help']],
  ])('%s -> %o', (status, labels) => {
    expect(rowActions(status, 'sub_1').map((a) => a.label)).toEqual(labels);
  });

  it('links to the manage page and support', () => {
    const actions = rowActions('active', 'sub_123');
    expect(actions.flatMap((a) => ('href' in a ? [a.href] : []))).toEqual([
      '/dashboard/subscriptions/manager/stripe/sub_123',
      '/dashboard/support',
    ]);
    expect(manageSubscriptionPath('a/b')).toBe('/dashboard/subscriptions/manager/stripe/a%2Fb');
  });

  it.each([
    ['r1', 'subscriptionsTable', { href: '/dashboard/robot/manager/r1' }],
    [
      '',
      'subscriptionsTable',
      { toast: { title: 'Robot Not Paired', description: 'Opening robot registration guide...' } },
    ],
    [
      undefined,
      'itemsTable',
      { toast: { title: 'Cannot navigate to Manage Robot', description: 'Has the robot been paired?' } },
    ],
  ] as const)('view robot %s from %s', (robotId, from, target) => {
    expect(viewRobotTarget(robotId, from)).toEqual(target);
  });
});

describe('durations', () => {
  it.each([
    [0, '0 days, 0 hours'],
    [3_600, '0 days, 1 hour'],
    [ONE_DAY_S, '1 day, 0 hours'],
    [90_000, '1 day, 1 hour'],
    [365 * ONE_DAY_S, '365 days, 0 hours'],
    [2 * ONE_DAY_S + 5 * 3_600 + 59 * 60, '2 days, 5 hours'],
    [-10, '0 days, 0 hours'],
  ])('%i s -> %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it.each([
    [Date.UTC(2025, 0, 1), ONE_DAY_S, Date.UTC(2025, 0, 2)],
    [Date.UTC(2025, 0, 1), 365 * ONE_DAY_S, Date.UTC(2026, 0, 1)],
    [1_000, 0, 1_000],
  ])('created %i + %i s expires %i', (created, duration, expiry) => {
    expect(expiryMs(created, duration)).toBe(expiry);
  });

  it('epoch seconds times 1000', () => {
    expect(epochSecondsToMs(1_736_035_200)).toBe(1_736_035_200_000);
  });
});

describe('badges, product names and refresh', () => {
  it.each([
    [0, 'FreeTrial'],
    [1, 'BowOverride'],
    [2, 'Other'],
    [99, undefined],
    [undefined, undefined],
  ])('override %s -> %s', (kind, badge) => {
    expect(overrideBadge(kind)).toBe(badge);
  });

  const products = [
    { id: 'prod_1', name: 'Nao Driver', metadata: { BOW_UUID: 'robot-nao' } },
    { id: 'prod_2', name: 'Pro Subscription' },
    { id: 'prod_3', name: 'Tiago_Steel driver', metadata: { BOW_UUID: 'robot-tiago-steel' } },
  ];
  it.each([
    // named as the cards name the model (issue 32 item 6)
    ['robot-tiago-steel', 'Tiago Steel driver'],
    ['prod_2', 'Pro Subscription'],
    ['robot-nao', 'Nao Driver'],
    ['nothing', 'Unknown Product'],
    [undefined, 'Unknown Product'],
  ])('%s -> %s', (key, name) => {
    expect(productNameFor(key, products)).toBe(name);
  });

  it.each([
    [0, { refetch: false, message: 'You have no subscriptions to refresh.' }],
    [3, { refetch: true }],
  ])('%i subscriptions', (n, plan) => {
    expect(refreshPlan(n)).toEqual(plan);
  });
});
