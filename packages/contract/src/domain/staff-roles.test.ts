import { describe, expect, it } from 'vitest';
import { PERMISSIONS, type Permission, roleCan, STAFF_ROLES, type StaffRole } from './staff-roles.ts';

describe('roleCan (issue 34: support < finance < admin)', () => {
  const roles: (StaffRole | null)[] = [null, ...STAFF_ROLES];
  const table: [Permission, boolean[]][] = [
    // [permission, [no role, support, finance, admin]]
    ['customers.read', [false, true, true, true]],
    ['support.answer', [false, true, true, true]],
    ['sessions.revoke', [false, true, true, true]],
    ['verification.resend', [false, true, true, true]],
    ['dial_time.goodwill', [false, true, true, true]],
    ['robots.unpair', [false, true, true, true]],
    ['payments.read', [false, false, true, true]],
    ['payments.refund', [false, false, true, true]],
    ['subscriptions.grant', [false, false, true, true]],
    ['staff.manage', [false, false, false, true]],
    ['api_keys.manage', [false, false, false, true]],
    ['slots.set', [false, false, false, true]],
    ['releases.manage', [false, false, false, true]],
    ['catalogue.manage', [false, false, false, true]],
    ['audit.read', [false, false, false, true]],
    ['accounts.disable', [false, false, false, true]],
    ['licenses.grant', [false, false, false, true]],
    ['jobs.run', [false, false, false, true]],
  ];
  it.each(table)('%s', (permission, expected) => {
    expect(roles.map((r) => roleCan(r, permission))).toEqual(expected);
  });

  it('the table covers every permission', () => {
    expect(table.map(([p]) => p).sort()).toEqual(Object.keys(PERMISSIONS).sort());
  });
});
