import { security, useraction } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CommandFailed, runCli } from '../../cli.ts';
import { accessToken, useTestApp } from '../../test/fixtures.ts';
import { seedUser } from '../../test/harness.ts';

/**
 * The audit trail on a freshly migrated database (issue 34, decision 069): append-only in the
 * database itself, hash-chained, its personal side rows anonymised without breaking the chain, and
 * `portal-admin audit:verify` finding an edit made behind the application's back.
 */
const t = useTestApp();
const db = () => t.app.deps.db;
const audit = () => t.app.services.audit;

const verifyCli = async () => {
  const lines: string[] = [];
  try {
    await runCli(['audit:verify'], { db: db(), config: t.config, clock: t.clock, out: (l) => lines.push(l) });
    return { ok: true, lines };
  } catch (err) {
    if (!(err instanceof CommandFailed)) throw err;
    return { ok: false, lines: [...lines, err.message] };
  }
};

/** The database's error for a statement (drizzle wraps it: the cause holds PostgreSQL's message). */
async function refusal(statement: string): Promise<string> {
  try {
    await db().execute(sql.raw(statement));
    return 'accepted';
  } catch (err) {
    const e = err as Error & { cause?: Error };
    return e.cause?.message ?? e.message;
  }
}

/** What an attacker with the database owner's rights can do: switch the guard off for one statement. */
async function behindTheGuard(table: 'audit_entries' | 'audit_personal', statement: string) {
  await db().transaction(async (tx) => {
    await tx.execute(sql.raw(`alter table ${table} disable trigger user`));
    await tx.execute(sql.raw(statement));
    await tx.execute(sql.raw(`alter table ${table} enable trigger user`));
  });
}

describe('the audit trail', () => {
  it('records in the caller’s transaction: a rolled-back action leaves no entry', async () => {
    const before = (await audit().verify()).entries;
    await expect(
      db().transaction(async (tx) => {
        await audit().record(tx, { actor: { kind: 'system' }, kind: 'change', action: 'test.rolled_back' });
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect((await audit().verify()).entries).toBe(before);
  });

  it('is append-only in the database: no update, delete or truncate; a side row changes only to the marker', async () => {
    const seq = await audit().recordAlone({
      actor: { kind: 'staff', id: 'staff-1' },
      kind: 'change',
      action: 'test.append_only',
      personal: { reason: 'asked by phone' },
    });
    for (const statement of [
      `update audit_entries set action = 'x' where seq = ${seq}`,
      `delete from audit_entries where seq = ${seq}`,
      'truncate audit_entries cascade',
      `delete from audit_personal where seq = ${seq}`,
      `update audit_personal set data = '{"reason": "edited"}' where seq = ${seq}`,
    ])
      expect(await refusal(statement), statement).toMatch(/append-only|anonymisation/);
    expect((await audit().verify()).problems).toEqual([]);
  });

  it('audit:verify passes on a whole trail and names the entry edited behind the application’s back', async () => {
    const seq = await audit().recordAlone({
      actor: { kind: 'staff', id: 'staff-2' },
      kind: 'change',
      action: 'subscription.grant',
      target: 'sub-1',
      changes: { tier: { before: 'Lite Subscription', after: 'Pro Subscription' } },
      personal: { reason: 'goodwill after an outage', ip: '203.0.113.7' },
    });
    await audit().recordAlone({ actor: { kind: 'system' }, kind: 'change', action: 'test.after' });
    expect((await verifyCli()).ok).toBe(true);

    await behindTheGuard('audit_entries', `update audit_entries set action = 'subscription.end' where seq = ${seq}`);
    const edited = await verifyCli();
    expect(edited.ok).toBe(false);
    expect(edited.lines[0]).toBe(
      `audit entry ${seq}: its hash does not follow from the entry before it and its fields: edited, or inserted`,
    );
    await behindTheGuard('audit_entries', `update audit_entries set action = 'subscription.grant' where seq = ${seq}`);
    expect((await verifyCli()).ok).toBe(true);

    await behindTheGuard(
      'audit_personal',
      `update audit_personal set data = jsonb_set(data, '{reason}', '"no reason"') where seq = ${seq}`,
    );
    expect((await verifyCli()).lines[0]).toBe(
      `audit entry ${seq}: its personal fields do not match their HMAC: edited`,
    );
  });
});

describe('anonymisation keeps the chain whole', () => {
  it('an account deleted over HTTP: its deletion is recorded, what the trail held about the person goes', async () => {
    // A fresh stretch: the earlier test left an edited side row, which verify rightly reports.
    const user = await seedUser(t);
    const token = await accessToken(t, user.email, user.password);
    const seq = await audit().recordAlone({
      actor: { kind: 'staff', id: 'staff-3' },
      subjectUserId: user.id,
      kind: 'read',
      action: 'customer.open',
      personal: { email: user.email },
    });
    const res = await t.api.call(useraction, 'UserDelete', {
      token,
      user: { email: user.email, password: user.password },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const rows = await audit().list({ subjectUserId: user.id, limit: 10 });
    // The sign-in that got the token is on the record too (a security entry).
    expect(rows.map((r) => r.audit_entries.action)).toEqual([
      'audit.anonymise',
      'account.delete',
      'customer.open',
      'auth.sign_in',
    ]);
    const personal = new Map(rows.map((r) => [r.audit_entries.seq, r.audit_personal?.data]));
    expect(personal.get(seq)).toEqual({ anonymised: true });
    expect(JSON.stringify([...personal.values()])).not.toContain(user.email);
    const problems = (await audit().verify()).problems;
    expect(problems.filter((p) => p.seq >= seq)).toEqual([]);
  });

  it('the retention job anonymises side rows past two years', async () => {
    const seq = await audit().recordAlone({
      actor: { kind: 'customer', id: 'u-old' },
      kind: 'security',
      action: 'auth.sign_in',
      personal: { ip: '192.0.2.44', userAgent: 'Firefox' },
    });
    t.clock.advance(3 * 365 * 24 * 3_600_000);
    const run = await t.app.services.retention.run();
    expect(run.anonymised.audit_personal).toBeGreaterThanOrEqual(1);
    const [row] = await audit().list({ actorId: 'u-old', limit: 1 });
    expect(row?.audit_entries.seq).toBe(seq);
    expect(row?.audit_personal?.data).toEqual({ anonymised: true });
    expect((await audit().verify()).problems.filter((p) => p.seq >= seq)).toEqual([]);
  });
});

describe("customers' security events (issue 34 item 5), over HTTP", () => {
  const actions = async (userId: string) =>
    (await audit().list({ subjectUserId: userId, limit: 50 })).map((r) => r.audit_entries.action).reverse();

  it('sign-in, a lock, a password change and sessions revoked: one entry each; a refused change none', async () => {
    const user = await seedUser(t);
    const ip = '198.51.100.23';
    const login = (password: string) =>
      t.api.call(useraction, 'login', { user: { email: user.email, password } }, { ip });
    const first = await login(user.password);
    expect(first.status).toBe(200);
    const token = (first.body as unknown as { token_pair: { access_token: string } }).token_pair.access_token;
    await login(user.password);

    // A wrong current password changes nothing, and is on the record as nothing.
    const change = (current: string) =>
      t.api.call(
        useraction,
        'UserUpdatePassword',
        { token, tokentype: 1, user: { email: user.email, password: current }, password: 'Another-Pass-88%' },
        { ip },
      );
    expect((await change('Wrong-Pass-00%')).status).toBe(400);
    expect(await actions(user.id)).toEqual(['auth.sign_in', 'auth.sign_in']);

    expect((await change(user.password)).status).toBe(200);
    const revoked = await t.api.call(security, 'RevokeOtherSessions', {}, { ip, bearer: token });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    // The change ended the other session already: nothing left to revoke, so nothing recorded.
    expect(await actions(user.id)).toEqual(['auth.sign_in', 'auth.sign_in', 'auth.password_change']);
    await login('Another-Pass-88%');
    expect((await t.api.call(security, 'RevokeOtherSessions', {}, { ip, bearer: token })).status).toBe(200);

    // Wrong passwords until the account locks: the lock is a security entry, the failures are not.
    for (let i = 0; i < t.config.LOGIN_MAX_FAILURES; i++) await login('Wrong-Pass-00%');
    expect(await actions(user.id)).toEqual([
      'auth.sign_in',
      'auth.sign_in',
      'auth.password_change',
      'auth.sign_in',
      'sessions.revoke',
      'auth.lock',
    ]);
    const [lock] = await audit().list({ subjectUserId: user.id, action: 'auth.lock', limit: 1 });
    expect(lock?.audit_entries).toMatchObject({ actorKind: 'customer', actorId: user.id, kind: 'security' });
    expect(lock?.audit_personal?.data).toMatchObject({ ip });
    expect((await audit().verify()).problems.filter((p) => p.seq >= (lock?.audit_entries.seq ?? 0))).toEqual([]);
  });
});
