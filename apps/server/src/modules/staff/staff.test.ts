import { timingSafeEqual } from 'node:crypto';
import { auth } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli.ts';
import { useTestApp } from '../../test/fixtures.ts';
import { seedUser } from '../../test/harness.ts';
import { userRepository } from '../useraction/useraction.repository.ts';

/**
 * Staff accounts and API keys on a freshly migrated database (issue 34, decision 070): the role
 * applies only in a passkey session and is read again on every call; keys are shown once, stored
 * hashed, revocable; each change is one audit entry.
 */
const LEGACY = 'a-legacy-operator-token-of-at-least-32-chars';
const t = useTestApp({ OPERATOR_TOKEN: LEGACY });
const staff = () => t.app.services.staff;
const sessions = () => t.app.services.sessions;
const equal = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

const cli = async (...argv: string[]) => {
  const lines: string[] = [];
  await runCli(argv, { db: t.app.deps.db, config: t.config, clock: t.clock, out: (l) => lines.push(l) });
  return lines;
};

const entriesOf = async (action: string) =>
  (await t.app.services.audit.list({ action, limit: 20 })).map((r) => r.audit_entries);

describe('staff:add', () => {
  it('makes the account when there is none, gives the role and prints a single-use link on PUBLIC_URL', async () => {
    const lines = await cli('staff:add', 'new.support@example.test', '--role', 'support');
    expect(lines[0]).toMatch(
      /^new\.support@example\.test: support \(new account\); enrolment link \(single use, until /,
    );
    const link = new URL(lines[1] ?? '');
    expect(`${link.origin}${link.pathname}`).toBe(`${t.config.PUBLIC_URL}/admin/enrol`);
    const user = await userRepository.byEmail(t.app.deps.db, 'new.support@example.test');
    expect(user?.staffRole).toBe('support');
    const enrolment = await staff().enrolment(link.searchParams.get('token') ?? '');
    expect(enrolment).toMatchObject({ userId: user?.id, role: 'support' });

    // A second invitation replaces the first link; after 24 hours the link is dead.
    const again = await cli('staff:add', 'new.support@example.test', '--role', 'finance');
    expect(again[0]).toMatch(/: finance; enrolment link/);
    expect(await staff().enrolment(link.searchParams.get('token') ?? '')).toBeUndefined();
    const second = new URL(again[1] ?? '').searchParams.get('token') ?? '';
    expect(await staff().enrolment(second)).toBeDefined();
    t.clock.advance(24 * 3_600_000 + 1);
    expect(await staff().enrolment(second)).toBeUndefined();

    const [set, added] = [await entriesOf('staff.role_set'), await entriesOf('staff.add')];
    expect(added.map((e) => [e.actorKind, e.actorId, e.subjectUserId])).toEqual([['system', 'cli', user?.id]]);
    expect(set.map((e) => e.fields)).toEqual([['staff_role']]);
  });

  it('two invitations of one new address at once make one account', async () => {
    const email = 'twice.at.once@example.test';
    const [a, b] = await Promise.all(
      ['support', 'finance'].map((role) => staff().addStaff({ email, role, by: { kind: 'cli' } })),
    );
    expect(a?.userId).toBe(b?.userId);
    expect((await userRepository.byEmail(t.app.deps.db, email))?.id).toBe(a?.userId);
  });

  it('refuses a role that is not one and an address that is not one, writing nothing', async () => {
    await expect(cli('staff:add', 'x@example.test', '--role', 'owner')).rejects.toThrow(
      'role: must be one of support, finance, admin',
    );
    await expect(cli('staff:add', 'not-an-email', '--role', 'admin')).rejects.toThrow('email: not an email address');
    expect(await userRepository.byEmail(t.app.deps.db, 'x@example.test')).toBeUndefined();
  });
});

describe('the role in force', () => {
  it('applies only in a passkey session, and a change takes effect on the next call', async () => {
    const user = await seedUser(t);
    // Another admin first: the last admin cannot lose the role (decision 071).
    await staff().setRole({ userId: (await seedUser(t)).id, role: 'admin', by: { kind: 'cli' } });
    await staff().setRole({ userId: user.id, role: 'admin', by: { kind: 'cli' } });
    const passkey = await sessions().start(t.app.deps.db, user, 'portal', undefined, 'passkey');
    const password = await sessions().start(t.app.deps.db, user, 'portal');
    expect((await sessions().authenticate(passkey.access_token)).staffRole).toBe('admin');
    expect((await sessions().authenticate(password.access_token)).staffRole).toBeNull();

    await staff().setRole({ userId: user.id, role: null, by: { kind: 'cli' } });
    expect((await sessions().authenticate(passkey.access_token)).staffRole).toBeNull();
    expect((await entriesOf('staff.remove')).map((e) => e.subjectUserId)).toEqual([user.id]);
  });
});

describe('staff sessions end at their limits, checked at refresh', () => {
  const refresh = (refreshToken: string) =>
    t.api.call(auth, 'refresh-access-token', { tokenPair: { refresh_token: refreshToken } });

  it('idle past STAFF_SESSION_IDLE_S, or older than STAFF_SESSION_MAX_S; a password session of the account is not a staff session', async () => {
    const user = await seedUser(t);
    await staff().setRole({ userId: user.id, role: 'support', by: { kind: 'cli' } });
    const idle = await sessions().start(t.app.deps.db, user, 'portal', undefined, 'passkey');
    const busy = await sessions().start(t.app.deps.db, user, 'portal', undefined, 'passkey');
    const customer = await sessions().start(t.app.deps.db, user, 'portal');

    // Every 20 minutes the busy one refreshes; the idle one waits.
    let busyToken = busy.refresh_token;
    let customerToken = customer.refresh_token;
    t.clock.advance(20 * 60_000);
    const step = async () => {
      const res = await refresh(busyToken);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      busyToken = (res.body as unknown as { tokenPair: { refresh_token: string } }).tokenPair.refresh_token;
    };
    await step();
    t.clock.advance(11 * 60_000);
    expect((await refresh(idle.refresh_token)).status).toBe(401);
    const c = await refresh(customerToken);
    expect(c.status).toBe(200);
    customerToken = (c.body as unknown as { tokenPair: { refresh_token: string } }).tokenPair.refresh_token;

    // 8 hours after it started, however busy, the staff session ends; the customer's does not.
    for (let minutes = 31; minutes + 20 <= t.config.STAFF_SESSION_MAX_S / 60; minutes += 20) {
      await step();
      t.clock.advance(20 * 60_000);
    }
    await step();
    t.clock.advance(20 * 60_000);
    expect((await refresh(busyToken)).status).toBe(401);
    expect((await refresh(customerToken)).status).toBe(200);
  });
});

describe('API keys', () => {
  it('are shown once, stored hashed, identify their role, record their last use and stop when revoked', async () => {
    const lines = await cli('keys:create', 'billing-export', '--role', 'finance');
    const key = lines[1] ?? '';
    expect(key).toMatch(/^rpk_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}$/);
    const listed = await staff().listKeys();
    const row = listed.find((k) => k.name === 'billing-export');
    expect(row).toMatchObject({ role: 'finance', prefix: key.slice(0, 16), lastUsedAt: null, revokedAt: null });
    expect(JSON.stringify(listed)).not.toContain(key.slice(17));

    expect(await staff().identify(key, equal)).toEqual({ id: row?.id, name: 'billing-export', role: 'finance' });
    expect((await staff().listKeys()).find((k) => k.id === row?.id)?.lastUsedAt).toBeInstanceOf(Date);
    expect(await staff().identify(`${key.slice(0, -1)}x`, equal)).toBeUndefined();

    expect(await cli('keys:revoke', row?.id ?? '')).toEqual([`API key ${row?.id} revoked`]);
    expect(await staff().identify(key, equal)).toBeUndefined();
    await expect(cli('keys:revoke', row?.id ?? '')).rejects.toThrow('key_id: no live API key with this id');
    expect((await entriesOf('api_key.create')).length).toBe(1);
    expect((await entriesOf('api_key.revoke')).map((e) => e.target)).toEqual([row?.id]);
  });

  it('OPERATOR_TOKEN is the key "legacy" (admin) while it is set, and keys:list says so', async () => {
    expect(await staff().identify(LEGACY, equal)).toEqual({ id: 'legacy', name: 'legacy', role: 'admin' });
    expect(await staff().identify(`${LEGACY}x`, equal)).toBeUndefined();
    expect((await cli('keys:list')).at(-1)).toBe('legacy  admin  OPERATOR_TOKEN is set: replace it with named keys');
    await expect(cli('keys:create', 'Legacy', '--role', 'admin')).rejects.toThrow(/is OPERATOR_TOKEN's/);
  });
});
