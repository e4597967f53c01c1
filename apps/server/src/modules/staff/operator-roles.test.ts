import { OPERATOR_HEADER, PERMISSIONS, roleCan, STAFF_ROLES, type StaffRole } from '@portal/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { mountedActions } from '../../test/contract-table.ts';
import { signIn, useTestApp } from '../../test/fixtures.ts';
import { placeholderNames, VALID_BODIES } from '../../test/valid-bodies.ts';

/**
 * The role matrix of the operator actions (issue 34, decision 070): every operator action x an API
 * key of each role x OPERATOR_TOKEN ("legacy", admin) x a customer's access token x none, over HTTP.
 * A key whose role has the action's permission gets past the check (whatever the body then
 * answers); any other caller is 403, and a key refused for its role is a security entry.
 */
const LEGACY = 'the-legacy-operator-token-of-at-least-32-chars';
const t = useTestApp({ OPERATOR_TOKEN: LEGACY });
const operatorActions = mountedActions().filter((a) => a.def.auth === 'operator');
const keys = {} as Record<StaffRole, string>;
let customerToken = '';
let email = '';

beforeAll(async () => {
  for (const role of STAFF_ROLES)
    keys[role] = (await t.app.services.staff.createKey({ name: `matrix-${role}`, role, by: { kind: 'cli' } })).key;
  const customer = await signIn(t);
  customerToken = customer.token;
  email = customer.email;
});

const callWith = async (label: string, name: string, path: string, credential: string | undefined) => {
  const body = VALID_BODIES[label]?.(placeholderNames(email, '00000000-0000-4000-8000-000000000000', ''));
  if (!body) throw new Error(`${label}: no valid body in test/valid-bodies.ts`);
  return t.api.post(path, { action: name, ...body }, credential ? { headers: { [OPERATOR_HEADER]: credential } } : {});
};

describe('operator actions by role', () => {
  it('every operator action names the permission it needs', () => {
    expect(operatorActions.length).toBeGreaterThan(0);
    expect(
      operatorActions.filter((a) => !a.def.permission || !(a.def.permission in PERMISSIONS)).map((a) => a.label),
    ).toEqual([]);
  });

  it.each(operatorActions.map((a) => [a.label, a] as const))('%s', async (label, action) => {
    const permission = action.def.permission as keyof typeof PERMISSIONS;
    for (const role of STAFF_ROLES) {
      const res = await callWith(label, action.name, action.service.path, keys[role]);
      if (roleCan(role, permission)) expect([res.status, role]).not.toEqual([403, role]);
      else {
        expect([res.status, role]).toEqual([403, role]);
        expect(res.body?.error.Description).toBe(
          `${OPERATOR_HEADER}: the key "matrix-${role}" (${role}) may not call ${action.name}; it needs the role ${PERMISSIONS[permission]}`,
        );
      }
    }
    expect((await callWith(label, action.name, action.service.path, LEGACY)).status).not.toBe(403);
    for (const credential of [customerToken, undefined, 'rpk_not-a-key_at-all', `${LEGACY}x`])
      expect((await callWith(label, action.name, action.service.path, credential)).status).toBe(403);
  });

  it('a refusal for the role is a security entry naming the key and the action', async () => {
    const entries = await t.app.services.audit.list({ action: 'operator.refused', limit: 200 });
    const refusals = operatorActions.flatMap((a) =>
      STAFF_ROLES.filter((r) => !roleCan(r, a.def.permission as keyof typeof PERMISSIONS)).map((r) => `${r} ${a.name}`),
    );
    const keyIds = new Map((await t.app.services.staff.listKeys()).map((k) => [k.id, k.role]));
    expect(entries.map((e) => `${keyIds.get(e.audit_entries.actorId)} ${e.audit_entries.target}`).sort()).toEqual(
      refusals.sort(),
    );
    expect(entries.every((e) => e.audit_entries.kind === 'security')).toBe(true);
  });

  it('support grants goodwill dial time up to STAFF_GOODWILL_MAX_MINUTES; more needs finance', async () => {
    const cap = t.config.STAFF_GOODWILL_MAX_MINUTES;
    const add = (key: string, minutes: number) =>
      t.api.post(
        '/api/dial_manager',
        { action: 'ADD_TIME', email, minutes, reason: 'goodwill' },
        {
          headers: { [OPERATOR_HEADER]: key },
        },
      );
    expect((await add(keys.support, cap)).status).toBe(200);
    const over = await add(keys.support, cap + 1);
    expect(over.status).toBe(403);
    expect(over.body?.error.Description).toBe(
      `minutes: support grants at most ${cap} goodwill minutes at once; a larger grant needs the finance role`,
    );
    expect((await add(keys.finance, cap + 1)).status).toBe(200);
  });
});
