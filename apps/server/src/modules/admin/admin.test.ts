import { admin, OPERATOR_HEADER, PERMISSIONS, type StaffRole, security } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { auditEntries } from '../../db/schema.ts';
import { nextIp, useTestApp } from '../../test/fixtures.ts';
import { type Answer, seedUser, uniqueEmail } from '../../test/harness.ts';
import { SoftwareAuthenticator } from '../../test/software-authenticator.ts';

/**
 * The back office over HTTP (issue 34, decision 071): every admin action with its failures, the
 * unknown-route answer for anyone without a staff credential, the staff enrolment that signs in,
 * and one change entry per state change (none for a failed one). One app and database for the
 * file; every test makes its own staff.
 */
const LEGACY = 'the-legacy-operator-token-of-at-least-32-chars';
const t = useTestApp({ OPERATOR_TOKEN: LEGACY });
const services = () => t.app.services;

type Credential = { bearer: string } | { key: string } | undefined;
type AdminAction = keyof (typeof admin)['actions'] & string;

/** A staff member of `role` in a passkey session (the session made directly: the enrolment is tested below). */
async function staffSession(role: StaffRole) {
  const user = await seedUser(t);
  await services().staff.setRole({ userId: user.id, role, by: { kind: 'cli' } });
  const pair = await services().sessions.start(t.app.deps.db, user, 'portal', undefined, 'passkey');
  return { ...user, bearer: pair.access_token };
}

/** One admin call, its success checked against the contract. */
async function call(action: AdminAction, body: Record<string, unknown>, as: Credential): Promise<Answer> {
  const headers: Record<string, string> = as && 'key' in as ? { [OPERATOR_HEADER]: as.key } : {};
  const res = await t.api.post(
    admin.path,
    { action, ...body },
    { headers, ...(as && 'bearer' in as ? { bearer: as.bearer } : {}) },
  );
  if (res.status === 200) {
    const parsed = admin.actions[action].response.safeParse(res.body);
    if (!parsed.success) throw new Error(`${action}: the answer breaks the contract: ${parsed.error.message}`);
  }
  return res;
}

const changeEntries = async () =>
  (await t.app.deps.db.select().from(auditEntries)).filter((e) => e.kind === 'change').length;

/** The answer of a route that does not exist, as the not-found handler gives it (path aside). */
async function unknownRoute(headers: Record<string, string> = {}) {
  const res = await t.api.post('/api/no-such-service', { action: 'Me' }, { headers });
  return { status: res.status, body: JSON.stringify(res.body).replace('/api/no-such-service', admin.path) };
}

describe('Me', () => {
  it("answers a staff member's role, permissions and session end; a key's name", async () => {
    const admin1 = await staffSession('admin');
    const res = await call('Me', {}, admin1);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      user_id: admin1.id,
      email: admin1.email,
      role: 'admin',
      legacy_key_set: true,
      goodwill_max_minutes: t.config.STAFF_GOODWILL_MAX_MINUTES,
    });
    const end = Number(res.body.session_expires_at) - t.config.STAFF_SESSION_MAX_S * 1000;
    expect(end).toBeLessThanOrEqual(t.api.now().getTime());
    expect(end).toBeGreaterThan(t.api.now().getTime() - 10_000);
    expect(res.body.permissions).toEqual(Object.keys(PERMISSIONS));

    const support = await staffSession('support');
    const mine = await call('Me', {}, support);
    expect(mine.body.permissions).toEqual(
      Object.keys(PERMISSIONS).filter((p) => PERMISSIONS[p as keyof typeof PERMISSIONS] === 'support'),
    );

    const legacy = await call('Me', {}, { key: LEGACY });
    expect(legacy.body).toMatchObject({ user_id: '', name: 'legacy', role: 'admin', session_expires_at: 0 });
  });
});

describe('anyone without a staff credential', () => {
  it('gets the unknown-route 404, byte for byte, whatever the body', async () => {
    const admin1 = await staffSession('admin');
    const customer = await seedUser(t);
    const passwordSession = await services().sessions.start(t.app.deps.db, admin1, 'portal');
    const customerSession = await services().sessions.start(t.app.deps.db, customer, 'portal');
    const made = await services().staff.createKey({ name: 'soon revoked', role: 'admin', by: { kind: 'cli' } });
    await services().staff.revokeKey({ id: made.id, by: { kind: 'cli' } });
    const expected = await unknownRoute();
    expect(expected.status).toBe(404);
    const credentials: [string, Credential][] = [
      ['none', undefined],
      ['a customer', { bearer: customerSession.access_token }],
      ["an admin's password session", { bearer: passwordSession.access_token }],
      ['a forged token', { bearer: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl' }],
      ['a wrong key', { key: 'rpk_not-a-key_at-all' }],
      ['a revoked key', { key: made.key }],
      ['the legacy token with one more character', { key: `${LEGACY}x` }],
    ];
    for (const [label, as] of credentials)
      for (const action of ['Me', 'ListStaff', 'InviteStaff', 'NoSuchAction'] as AdminAction[]) {
        const res = await call(action, { email: 'junk', role: 'owner' }, as);
        expect([label, action, res.status, JSON.stringify(res.body)]).toEqual([
          label,
          action,
          expected.status,
          expected.body,
        ]);
      }
    // A malformed body too: the credential is checked before the body is read.
    const raw = await t.api.post(admin.path, undefined, { raw: '{not json' });
    const unknownRaw = await t.api.post('/api/no-such-service', undefined, { raw: '{not json' });
    expect([raw.status, JSON.stringify(raw.body)]).toEqual([
      unknownRaw.status,
      JSON.stringify(unknownRaw.body).replace('/api/no-such-service', admin.path),
    ]);

    // A body no parser takes: a route would say 415, an unknown route never reads it.
    const form = { raw: 'action=Me', headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    const formAdmin = await t.api.post(admin.path, undefined, form);
    const formUnknown = await t.api.post('/api/no-such-service', undefined, form);
    expect([formAdmin.status, JSON.stringify(formAdmin.body)]).toEqual([
      formUnknown.status,
      JSON.stringify(formUnknown.body).replace('/api/no-such-service', admin.path),
    ]);
    // A staff caller is told what is wrong with the body.
    const staffForm = await t.api.post(admin.path, undefined, {
      ...form,
      headers: { ...form.headers, [OPERATOR_HEADER]: LEGACY },
    });
    expect(staffForm.status).toBe(415);

    // An expired access token is no credential either.
    t.clock.advance((t.config.ACCESS_TOKEN_TTL_S + 1) * 1000);
    const late = await call('Me', {}, admin1);
    expect([late.status, JSON.stringify(late.body)]).toEqual([expected.status, expected.body]);
  });

  it('a role taken away mid-session takes effect on the next call', async () => {
    const admin1 = await staffSession('admin');
    const member = await staffSession('finance');
    expect((await call('Me', {}, member)).body.role).toBe('finance');
    expect((await call('SetStaffRole', { user_id: member.id, role: 'support' }, admin1)).status).toBe(200);
    expect((await call('Me', {}, member)).body.role).toBe('support');
    expect((await call('SetStaffRole', { user_id: member.id, role: null }, admin1)).status).toBe(200);
    expect((await call('Me', {}, member)).status).toBe(404);
  });

  it('a staff member short of the role gets 403 naming the role, and a security entry staff.refused', async () => {
    const support = await staffSession('support');
    const res = await call('ListStaff', {}, support);
    expect(res.status).toBe(403);
    expect(res.body.error.Description).toBe(
      `role: ${support.email} (support) may not call ListStaff; it needs the role admin`,
    );
    const [entry] = await services().audit.list({ action: 'staff.refused', actorId: support.id, limit: 5 });
    expect(entry?.audit_entries).toMatchObject({ kind: 'security', actorKind: 'staff', target: 'ListStaff' });
  });
});

describe('staff', () => {
  it('InviteStaff makes the account, answers a link on PUBLIC_URL and mails it; one change entry', async () => {
    const admin1 = await staffSession('admin');
    const email = uniqueEmail('invited');
    const before = await changeEntries();
    const res = await call('InviteStaff', { email: email.toUpperCase(), role: 'support' }, admin1);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ created: true, role: 'support' });
    const link = new URL(String(res.body.link));
    expect(`${link.origin}${link.pathname}`).toBe(`${t.config.PUBLIC_URL}/admin/enrol`);
    const lifetime = Number(res.body.expires_at) - t.api.now().getTime();
    expect(lifetime).toBeLessThanOrEqual(24 * 3_600_000);
    expect(lifetime).toBeGreaterThan(24 * 3_600_000 - 10_000);
    expect(await changeEntries()).toBe(before + 1);
    const mail = t.mailer.lastTo(email);
    expect(mail?.text).toContain(String(res.body.link));
    expect(mail?.subject).toBe('You are invited to the Robot Portal back office');

    const listed = await call('ListStaff', {}, admin1);
    const member = (listed.body.staff as { email: string }[]).find((s) => s.email === email);
    expect(member).toMatchObject({ role: 'support', passkeys: 0, invitation_expires_at: res.body.expires_at });

    // An existing account keeps its id: created false.
    const again = await call('InviteStaff', { email, role: 'finance' }, admin1);
    expect(again.body).toMatchObject({ created: false, role: 'finance', user_id: res.body.user_id });
  });

  it('InviteStaff refuses a bad address or role (400 naming the field), writing nothing', async () => {
    const admin1 = await staffSession('admin');
    const before = await changeEntries();
    const bad = await call('InviteStaff', { email: 'not-an-address', role: 'support' }, admin1);
    expect([bad.status, bad.body.error.Description]).toEqual([400, 'email: Email must be an email address']);
    const role = await call('InviteStaff', { email: uniqueEmail(), role: 'owner' }, admin1);
    expect(role.status).toBe(400);
    expect(role.body.error.Description).toMatch(/^role: /);
    expect(await changeEntries()).toBe(before);
  });

  it('SetStaffRole changes a role (one change entry); the last admin keeps theirs (409 naming role)', async () => {
    const admin1 = await staffSession('admin');
    const member = await staffSession('support');
    const before = await changeEntries();
    const res = await call('SetStaffRole', { user_id: member.id, role: 'finance' }, admin1);
    expect(res.status).toBe(200);
    expect((res.body.staff as { user_id: string; role: string }[]).find((s) => s.user_id === member.id)?.role).toBe(
      'finance',
    );
    expect(await changeEntries()).toBe(before + 1);

    // Demote every admin but admin1, then admin1 cannot lose the role.
    const listed = (await call('ListStaff', {}, admin1)).body.staff as { user_id: string; role: string }[];
    for (const s of listed.filter((s) => s.role === 'admin' && s.user_id !== admin1.id))
      expect((await call('SetStaffRole', { user_id: s.user_id, role: 'support' }, admin1)).status).toBe(200);
    const middle = await changeEntries();
    const last = await call('SetStaffRole', { user_id: admin1.id, role: 'finance' }, admin1);
    expect(last.status).toBe(409);
    expect(last.body.error.Description).toBe(
      `role: ${admin1.email} is the last admin and keeps the role admin; make another staff member admin first`,
    );
    expect((await call('SetStaffRole', { user_id: admin1.id, role: null }, admin1)).status).toBe(409);
    const missing = await call('SetStaffRole', { user_id: '00000000-0000-4000-8000-000000000000', role: null }, admin1);
    expect([missing.status, missing.body.error.Description]).toEqual([404, 'user_id: no account with this id']);
    expect(await changeEntries()).toBe(middle);
    // With a second admin, the first may step down.
    expect((await call('SetStaffRole', { user_id: member.id, role: 'admin' }, admin1)).status).toBe(200);
    expect((await call('SetStaffRole', { user_id: admin1.id, role: 'support' }, admin1)).status).toBe(200);
  });
});

describe('API keys', () => {
  it('CreateApiKey shows the secret once; the key calls; RevokeApiKey stops it; one change entry each', async () => {
    const admin1 = await staffSession('admin');
    let before = await changeEntries();
    const made = await call('CreateApiKey', { name: 'nightly export', role: 'finance' }, admin1);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(await changeEntries()).toBe(before + 1);
    const secret = String(made.body.secret);
    const key = made.body.key as { key_id: string; prefix: string; revoked_at: number };
    expect(secret.startsWith(`${key.prefix}_`)).toBe(true);
    expect(key.revoked_at).toBe(0);
    expect((await call('Me', {}, { key: secret })).body).toMatchObject({ name: 'nightly export', role: 'finance' });

    const list = await call('ListApiKeys', {}, admin1);
    expect(list.body.legacy_key_set).toBe(true);
    const listed = (list.body.keys as { key_id: string; last_used_at: number }[]).find((k) => k.key_id === key.key_id);
    expect(listed?.last_used_at).toBeGreaterThan(t.api.now().getTime() - 10_000);
    expect(JSON.stringify(list.body)).not.toContain(secret);

    before = await changeEntries();
    const revoked = await call('RevokeApiKey', { key_id: key.key_id }, admin1);
    expect(revoked.status).toBe(200);
    expect((revoked.body.key as { revoked_at: number }).revoked_at).toBeGreaterThan(t.api.now().getTime() - 10_000);
    expect(await changeEntries()).toBe(before + 1);
    expect((await call('Me', {}, { key: secret })).status).toBe(404);
    const twice = await call('RevokeApiKey', { key_id: key.key_id }, admin1);
    expect([twice.status, twice.body.error.Description]).toEqual([404, 'key_id: no live API key with this id']);
    expect(await changeEntries()).toBe(before + 1);
  });

  it('refuses a nameless key, the name "legacy" and a role that is none, writing nothing', async () => {
    const admin1 = await staffSession('admin');
    const before = await changeEntries();
    for (const body of [
      { name: '  ', role: 'support' },
      { name: 'Legacy', role: 'support' },
      { name: 'fine', role: 'root' },
    ]) {
      const res = await call('CreateApiKey', body, admin1);
      expect([res.status, res.body.error.Description.split(':')[0]]).toEqual([
        400,
        body.role === 'root' ? 'role' : 'name',
      ]);
    }
    expect(await changeEntries()).toBe(before);
  });
});

describe('the audit trail', () => {
  it('ListAudit filters by actor, customer, action and time, labels the actors and pages by before_seq', async () => {
    const admin1 = await staffSession('admin');
    const startedAt = t.api.now().getTime();
    t.clock.advance(1_000);
    const invited = uniqueEmail('audited');
    const inv = await call('InviteStaff', { email: invited, role: 'support' }, admin1);
    const key = await call('CreateApiKey', { name: `labelled-${nextIp()}`, role: 'admin' }, admin1);
    const keyName = (key.body.key as { name: string }).name;
    await call('SetStaffRole', { user_id: inv.body.user_id, role: 'finance' }, { key: String(key.body.secret) });

    const mine = await call('ListAudit', { actor: admin1.email }, admin1);
    expect((mine.body.entries as { action: string }[]).map((e) => e.action)).toEqual(['api_key.create', 'staff.add']);
    const [created, added] = mine.body.entries as { actor_label: string; subject_email: string; details: object }[];
    expect(added).toMatchObject({ actor_label: admin1.email, subject_email: invited, details: { email: invited } });
    expect(created?.actor_label).toBe(admin1.email);

    const byKey = await call('ListAudit', { actor: keyName }, admin1);
    expect(byKey.body.entries).toMatchObject([
      {
        action: 'staff.role_set',
        actor_kind: 'key',
        actor_label: keyName,
        subject_email: invited,
        fields: ['staff_role'],
      },
    ]);
    const about = await call('ListAudit', { customer: invited }, admin1);
    expect((about.body.entries as { action: string }[]).map((e) => e.action)).toEqual(['staff.role_set', 'staff.add']);
    const byId = await call('ListAudit', { customer: String(inv.body.user_id), audit_action: 'staff.' }, admin1);
    expect(byId.body.entries).toEqual(about.body.entries);
    const exact = await call('ListAudit', { customer: invited, audit_action: 'staff.add' }, admin1);
    expect((exact.body.entries as unknown[]).length).toBe(1);
    const none = await call('ListAudit', { actor: 'nobody-at-all@example.test' }, admin1);
    expect(none.body).toMatchObject({ entries: [], next_before_seq: 0 });
    const early = await call('ListAudit', { customer: invited, to: startedAt + 1_000 }, admin1);
    expect(early.body.entries).toEqual([]);
    const late = await call('ListAudit', { customer: invited, from: startedAt + 1_000 }, admin1);
    expect((late.body.entries as unknown[]).length).toBe(2);

    // Pages of one: the second starts where the first ended, the last says 0.
    const first = await call('ListAudit', { customer: invited, limit: 1 }, admin1);
    const second = await call(
      'ListAudit',
      { customer: invited, limit: 1, before_seq: first.body.next_before_seq },
      admin1,
    );
    expect((second.body.entries as { action: string }[]).map((e) => e.action)).toEqual(['staff.add']);
    expect(second.body.next_before_seq).toBe(0);

    const bad = await call('ListAudit', { limit: 1_000 }, admin1);
    expect([bad.status, bad.body.error.Description]).toEqual([400, 'limit: Limit must be at most 200']);

    const system = await call('ListAudit', { actor: 'system', limit: 200 }, admin1);
    expect((system.body.entries as { actor_label: string }[]).every((e) => e.actor_label === 'system')).toBe(true);
  });

  it('ExportAudit answers RFC 4180 CSV with a header and ISO times, safe for spreadsheets, and is a read entry', async () => {
    const admin1 = await staffSession('admin');
    const invited = `=cmd-${nextIp()}@example.test`;
    await call('InviteStaff', { email: invited, role: 'support' }, admin1);
    const res = await call('ExportAudit', { actor: admin1.email }, admin1);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ rows: 1, truncated: false });
    expect(String(res.body.filename)).toMatch(/^audit-.*\.csv$/);
    const lines = String(res.body.csv).split('\r\n');
    expect(lines[0]).toBe(
      'seq,at,actor_kind,actor_id,actor_label,subject_user_id,subject_email,kind,action,target,fields,changes,ip,user_agent,reason,details,anonymised',
    );
    expect(lines[1]).toMatch(
      new RegExp(`^\\d+,\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z,staff,${admin1.id},`),
    );
    expect(lines[1]).toContain(`,'${invited},change,staff.add,`);
    expect(lines[1]).toContain(',"{""staff_role"":{""after"":""support"",""before"":null}}",');
    expect(lines.at(-1)).toBe('');

    const [entry] = await services().audit.list({ action: 'audit.export', actorId: admin1.id, limit: 2 });
    expect(entry?.audit_entries.kind).toBe('read');
  });
});

describe('staff enrolment', () => {
  const enrolCall = (action: 'StaffEnrolmentOptions' | 'StaffEnrol', body: Record<string, unknown>) =>
    t.api.call(security, action, body, { ip: nextIp() });

  it('registers the passkey and signs in a staff session whose Me answers the role; the link works once', async () => {
    const admin1 = await staffSession('admin');
    const email = uniqueEmail('enrolling');
    const invited = await call('InviteStaff', { email, role: 'support' }, admin1);
    const token = new URL(String(invited.body.link)).searchParams.get('token') ?? '';

    const options = await enrolCall('StaffEnrolmentOptions', { enrolment_token: token });
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    expect(options.body).toMatchObject({ email, role: 'support' });
    const authenticator = new SoftwareAuthenticator();
    const before = await changeEntries();
    const enrolled = await enrolCall('StaffEnrol', {
      enrolment_token: token,
      name: 'Work laptop',
      credential: authenticator.register(options.body.options as never),
    });
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);
    expect(await changeEntries()).toBe(before + 1);
    const pair = enrolled.body.token_pair as { access_token: string };
    const me = await call('Me', {}, { bearer: pair.access_token });
    expect(me.body).toMatchObject({ email, role: 'support', user_id: invited.body.user_id });
    const [entry] = await services().audit.list({
      action: 'staff.enrol',
      actorId: String(invited.body.user_id),
      limit: 2,
    });
    expect(entry?.audit_entries.kind).toBe('change');
    const listed = (await call('ListStaff', {}, admin1)).body.staff as { email: string; passkeys: number }[];
    expect(listed.find((s) => s.email === email)).toMatchObject({ passkeys: 1, invitation_expires_at: 0 });

    // The passkey signs in again later: a passkey session, so the role applies; a password session would not.
    const signInOptions = await t.api.call(security, 'PasskeySignInOptions', {}, { ip: nextIp() });
    const again = await t.api.call(
      security,
      'PasskeySignIn',
      { credential: authenticator.authenticate(signInOptions.body.options as never), target: 'portal' },
      { ip: nextIp() },
    );
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const later = (again.body.token_pair as { access_token: string }).access_token;
    expect((await call('Me', {}, { bearer: later })).body).toMatchObject({ email, role: 'support' });

    // The link is used up: both actions answer 404 naming the token.
    for (const action of ['StaffEnrolmentOptions', 'StaffEnrol'] as const) {
      const again = await enrolCall(action, {
        enrolment_token: token,
        name: 'Second',
        credential: new SoftwareAuthenticator().register(options.body.options as never),
      });
      expect([again.status, again.body.error.Description.split(':')[0]]).toEqual([404, 'enrolment_token']);
    }
  });

  it('is rate-limited per address with the sign-ins (RATE_LOGIN_PER_ADDRESS)', async () => {
    const ip = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i <= t.config.RATE_LOGIN_PER_ADDRESS; i += 1)
      statuses.push(
        (await t.api.call(security, 'StaffEnrolmentOptions', { enrolment_token: 'B'.repeat(43) }, { ip })).status,
      );
    expect(statuses.at(-1)).toBe(429);
    expect(new Set(statuses.slice(0, -1))).toEqual(new Set([404]));
  });

  it('an unknown or expired link is 404 naming enrolment_token; a failed enrolment leaves the link usable', async () => {
    const unknown = await enrolCall('StaffEnrolmentOptions', { enrolment_token: 'A'.repeat(43) });
    expect([unknown.status, unknown.body.error.Description.split(':')[0]]).toEqual([404, 'enrolment_token']);

    const admin1 = await staffSession('admin');
    const invited = await call('InviteStaff', { email: uniqueEmail('slow'), role: 'finance' }, admin1);
    const token = new URL(String(invited.body.link)).searchParams.get('token') ?? '';
    const options = await enrolCall('StaffEnrolmentOptions', { enrolment_token: token });
    const before = await changeEntries();
    const forged = await enrolCall('StaffEnrol', {
      enrolment_token: token,
      name: 'Forged',
      credential: new SoftwareAuthenticator().register(options.body.options as never, {
        origin: 'https://evil.example',
      }),
    });
    expect(forged.status).toBe(400);
    expect(await changeEntries()).toBe(before);
    expect((await enrolCall('StaffEnrolmentOptions', { enrolment_token: token })).status).toBe(200);

    t.clock.advance(24 * 3_600_000 + 1);
    const expired = await enrolCall('StaffEnrolmentOptions', { enrolment_token: token });
    expect([expired.status, expired.body.error.Description.split(':')[0]]).toEqual([404, 'enrolment_token']);
  });
});
