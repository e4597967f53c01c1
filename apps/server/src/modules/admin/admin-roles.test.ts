import { OPERATOR_HEADER, PERMISSIONS, type Permission, roleCan, STAFF_ROLES, type StaffRole } from '@portal/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../db/schema.ts';
import { mountedActions } from '../../test/contract-table.ts';
import { nextIp, useTestApp } from '../../test/fixtures.ts';
import { type Answer, seedUser, uniqueEmail } from '../../test/harness.ts';
import { seedSupportRequest, seedSupportStaff } from '../support/support.test-helpers.ts';

/**
 * The role matrix of the staff actions (issue 34, decision 071), over HTTP: every mounted `staff`
 * action x a passkey session of each role x a password session of an admin account x a customer x
 * no credential x an API key of each role x a revoked key x OPERATOR_TOKEN. The expectation comes
 * from PERMISSIONS: 200 when the role has the action's permission, 403 naming the role it needs when
 * not, and for every caller without a staff credential the unknown route's 404, byte for byte.
 */
const LEGACY = 'the-legacy-operator-token-of-at-least-32-chars';
const t = useTestApp({ OPERATOR_TOKEN: LEGACY });
/**
 * The console's customers (/api/admin/customers) have their own matrix in admin-customers.test.ts,
 * over the same rule (PERMISSIONS, every role as session and key, the outsiders' 404): each of their
 * actions needs a customer prepared for it, which that file's cases make.
 */
const OWN_MATRIX = new Set(['/api/admin/customers']);
const staffActions = mountedActions().filter((a) => a.def.auth === 'staff' && !OWN_MATRIX.has(a.service.path));

/** A body each action succeeds with, made fresh per call (a new address to invite, a live key to revoke...). */
const SUCCEEDING: Record<string, () => Promise<Record<string, unknown>>> = {
  '/api/admin Me': async () => ({}),
  '/api/admin ListStaff': async () => ({}),
  '/api/admin InviteStaff': async () => ({ email: uniqueEmail('matrix-invite'), role: 'support' }),
  '/api/admin SetStaffRole': async () => {
    const user = await seedUser(t);
    await t.app.services.staff.setRole({ userId: user.id, role: 'support', by: { kind: 'cli' } });
    return { user_id: user.id, role: 'finance' };
  },
  '/api/admin ListApiKeys': async () => ({}),
  '/api/admin CreateApiKey': async () => ({ name: `matrix ${nextIp()}`, role: 'support' }),
  '/api/admin RevokeApiKey': async () => {
    const made = await t.app.services.staff.createKey({
      name: `revoke ${nextIp()}`,
      role: 'support',
      by: { kind: 'cli' },
    });
    return { key_id: made.id };
  },
  '/api/admin ListAudit': async () => ({ audit_action: 'staff.', limit: 5 }),
  '/api/admin ExportAudit': async () => ({ audit_action: 'api_key.' }),
  // Issue 35: the support inbox.
  '/api/admin/support ListSupportRequests': async () => ({ status: 'new', limit: 5 }),
  '/api/admin/support GetSupportRequest': async () => ({ ticket_id: (await seedSupportRequest(t)).ticketId }),
  '/api/admin/support ReplySupportRequest': async () => ({
    ticket_id: (await seedSupportRequest(t)).ticketId,
    message: 'An answer from the matrix, long enough.',
  }),
  '/api/admin/support SetSupportStatus': async () => ({
    ticket_id: (await seedSupportRequest(t)).ticketId,
    status: 'closed',
  }),
  '/api/admin/support AssignSupportRequest': async () => ({
    ticket_id: (await seedSupportRequest(t)).ticketId,
    assignee_user_id: (await seedSupportStaff(t)).id,
  }),
  // Issue 35: releases (a fresh build to withdraw, a withdrawn one to restore) and the overview.
  '/api/admin/releases ListReleases': async () => ({}),
  '/api/admin/releases WithdrawRelease': async () => ({
    artifact_id: (await matrixRelease(false)).id,
    reason: 'matrix',
  }),
  '/api/admin/releases RestoreRelease': async () => ({ artifact_id: (await matrixRelease(true)).id, reason: 'matrix' }),
  '/api/admin/overview GetOverview': async () => ({}),
};

let matrixBuilds = 0;
/** A build of the hub for the matrix to withdraw (or, withdrawn already, to restore). */
async function matrixRelease(withdrawn: boolean) {
  matrixBuilds += 1;
  const row = await t.app.services.assets.addRelease(
    {
      fileName: `matrix-${matrixBuilds}.deb`,
      data: Buffer.from(`build ${matrixBuilds}`),
      os: 'linux',
      arch: 'deb',
      version: { major: 90, minor: matrixBuilds, patch: 0, revision: 0 },
    },
    { by: { kind: 'system', id: 'cli' } },
  );
  if (withdrawn)
    await t.app.services.assets.setWithdrawn(row.id, true, 'matrix', { by: { kind: 'system', id: 'cli' } });
  return row;
}

/** How many `change` entries a successful call writes: one for a state change, none for a read. */
const CHANGES: Record<string, 0 | 1> = {
  '/api/admin Me': 0,
  '/api/admin ListStaff': 0,
  '/api/admin InviteStaff': 1,
  '/api/admin SetStaffRole': 1,
  '/api/admin ListApiKeys': 0,
  '/api/admin CreateApiKey': 1,
  '/api/admin RevokeApiKey': 1,
  '/api/admin ListAudit': 0,
  '/api/admin ExportAudit': 0,
  '/api/admin/support ListSupportRequests': 0,
  '/api/admin/support GetSupportRequest': 0,
  '/api/admin/support ReplySupportRequest': 1,
  '/api/admin/support SetSupportStatus': 1,
  '/api/admin/support AssignSupportRequest': 1,
  '/api/admin/releases ListReleases': 0,
  '/api/admin/releases WithdrawRelease': 1,
  '/api/admin/releases RestoreRelease': 1,
  '/api/admin/overview GetOverview': 0,
};

type Caller = { label: string; role?: StaffRole; headers: Record<string, string> };
const staffCallers: Caller[] = [];
const outsiders: Caller[] = [];

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  for (const role of STAFF_ROLES) {
    const user = await seedUser(t);
    await t.app.services.staff.setRole({ userId: user.id, role, by: { kind: 'cli' } });
    const pair = await t.app.services.sessions.start(t.app.deps.db, user, 'portal', undefined, 'passkey');
    staffCallers.push({ label: `${role} passkey session`, role, headers: bearer(pair.access_token) });
    const key = await t.app.services.staff.createKey({ name: `matrix-${role}`, role, by: { kind: 'cli' } });
    staffCallers.push({ label: `${role} API key`, role, headers: { [OPERATOR_HEADER]: key.key } });
  }
  staffCallers.push({ label: 'OPERATOR_TOKEN (legacy)', role: 'admin', headers: { [OPERATOR_HEADER]: LEGACY } });

  const admin = await seedUser(t);
  await t.app.services.staff.setRole({ userId: admin.id, role: 'admin', by: { kind: 'cli' } });
  const password = await t.app.services.sessions.start(t.app.deps.db, admin, 'portal', undefined, 'password');
  const customer = await t.app.services.sessions.start(t.app.deps.db, await seedUser(t), 'portal');
  const revoked = await t.app.services.staff.createKey({ name: 'matrix-revoked', role: 'admin', by: { kind: 'cli' } });
  await t.app.services.staff.revokeKey({ id: revoked.id, by: { kind: 'cli' } });
  outsiders.push(
    { label: "an admin's password session", headers: bearer(password.access_token) },
    { label: 'a customer', headers: bearer(customer.access_token) },
    { label: 'no credential', headers: {} },
    { label: 'a revoked admin key', headers: { [OPERATOR_HEADER]: revoked.key } },
  );
});

const post = (path: string, body: Record<string, unknown>, headers: Record<string, string>): Promise<Answer> =>
  t.api.post(path, body, { headers });

describe('the staff role matrix', () => {
  it('has a succeeding body for every staff action, and each names a permission', () => {
    expect(staffActions.length).toBeGreaterThan(0);
    expect(staffActions.filter((a) => !SUCCEEDING[a.label]).map((a) => a.label)).toEqual([]);
    expect(
      staffActions.filter((a) => !a.def.permission || !(a.def.permission in PERMISSIONS)).map((a) => a.label),
    ).toEqual([]);
  });

  it.each(staffActions.map((a) => [a.label, a] as const))('%s', async (label, action) => {
    const permission = action.def.permission as Permission;
    const make = SUCCEEDING[label] as () => Promise<Record<string, unknown>>;
    const seen: [string, number][] = [];
    const expected: [string, number][] = [];
    for (const caller of staffCallers) {
      const res = await post(action.service.path, { action: action.name, ...(await make()) }, caller.headers);
      const allowed = roleCan(caller.role, permission);
      seen.push([caller.label, res.status]);
      expected.push([caller.label, allowed ? 200 : 403]);
      if (!allowed)
        expect(res.body.error.Description).toMatch(
          new RegExp(`may not call ${action.name}; it needs the role ${PERMISSIONS[permission]}$`),
        );
    }
    const unknown = await post('/api/no-such-service', { action: action.name }, {});
    for (const caller of outsiders) {
      const res = await post(action.service.path, { action: action.name, ...(await make()) }, caller.headers);
      seen.push([caller.label, res.status]);
      expected.push([caller.label, 404]);
      expect([caller.label, JSON.stringify(res.body)]).toEqual([
        caller.label,
        JSON.stringify(unknown.body).replace('/api/no-such-service', action.service.path),
      ]);
    }
    expect(seen).toEqual(expected);
  });

  it('every refusal for the role is one security entry staff.refused naming the action', async () => {
    const entries = await t.app.services.audit.list({ action: 'staff.refused', limit: 500 });
    const refusals = staffActions.flatMap((a) =>
      staffCallers.filter((c) => !roleCan(c.role, a.def.permission as Permission)).map(() => a.name),
    );
    expect(entries.map((e) => e.audit_entries.target).sort()).toEqual(refusals.sort());
    expect(entries.every((e) => e.audit_entries.kind === 'security')).toBe(true);
  });

  it.each(staffActions.map((a) => [a.label, a] as const))(
    '%s as admin writes exactly its change entries (one for a state change), and none when it fails',
    async (label, action) => {
      expect(Object.hasOwn(CHANGES, label), `${label}: add it to CHANGES`).toBe(true);
      const admin = staffCallers.find((c) => c.label === 'admin passkey session') as Caller;
      const changes = async () =>
        (await t.app.deps.db.select({ kind: auditEntries.kind }).from(auditEntries)).filter((e) => e.kind === 'change')
          .length;
      const body = await (SUCCEEDING[label] as () => Promise<Record<string, unknown>>)();
      const before = await changes();
      const res = await post(action.service.path, { action: action.name, ...body }, admin.headers);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await changes()).toBe(before + (CHANGES[label] ?? 0));
      // The same call made to fail (a field broken, or the role short): no change entry.
      const support = staffCallers.find((c) => c.label === 'support API key') as Caller;
      const refused = await post(action.service.path, { action: action.name, ...body, role: 'owner' }, admin.headers);
      const short = await post(action.service.path, { action: action.name, ...body }, support.headers);
      expect(refused.status === 200 || refused.status >= 400).toBe(true);
      if (refused.status !== 200 || short.status !== 200) expect(await changes()).toBe(before + (CHANGES[label] ?? 0));
    },
  );
});
