import { DATA_EXPORT_FORMAT_VERSION, type DataExport, ErrorCodes, privacy, robots, support } from '@portal/contract';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEntries } from '../../db/schema.ts';
import { as, grantLicense, hardwareHash, type SignedIn, signIn, useTestApp } from '../../test/fixtures.ts';
import { buy, PLAN, payments } from '../subscriptions/subscriptions.test-helpers.ts';

/** The data export (issue 35 item 5): every section, the caller's own data only, audited. */

const t = useTestApp();
const log = { warn: () => {}, info: () => {} } as never;

/** A customer with something in every section: a robot, a licence, a plan (payment, refund, ledger), a thread. */
async function busyCustomer(label: string) {
  const user = await signIn(t);
  const robot = await as(
    t,
    user,
    robots,
  )('REGISTERSIM', {
    make: 'Pepper',
    model: 'Pepper',
    name: `${label} Pepper`,
    hardware_hash: hardwareHash(),
  });
  expect(robot.status).toBe(200);
  const robotId = (robot.body.robot as { robot_id: string }).robot_id;
  const license = await grantLicense(t, user.id, 'Nao');
  await buy(t, user, [PLAN.standardMonthly]);
  const [paid] = await payments(t, user);
  await t.app.services.billing.refund(paid?.payment_id ?? '', 100, { kind: 'system', id: 'test' });
  await t.app.services.time.credit(user.id, { kind: 'grant', minutes: 60, reason: `goodwill for ${label}` });
  const sent = await as(
    t,
    user,
    support,
  )('SubmitSupportRequest', {
    category: 'billing',
    subject: `${label} invoice`,
    message: `Where is the invoice of ${label}?`,
  });
  const ticket = sent.body.ticket_id as string;
  await t.app.services.supportInbox.reply(ticket, `Here is the invoice, ${label}.`, { kind: 'cli' }, log);
  return { user, robotId, licenseId: license.licenseId, ticket, paymentId: paid?.payment_id ?? '' };
}

const exportOf = (user: SignedIn) => as(t, user, privacy)('ExportMyData', {});

describe('ExportMyData', () => {
  it('holds every section of the account, and nothing of another', async () => {
    const a = await busyCustomer('Ada');
    const b = await busyCustomer('Bob');
    const res = await exportOf(a.user);
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    const filename = res.body.filename as string;
    expect(filename).toBe(`robot-portal-data-${t.clock.now().toISOString().slice(0, 10)}.json`);
    const data = res.body.data as DataExport;

    expect(data.format_version).toBe(DATA_EXPORT_FORMAT_VERSION);
    expect(Date.parse(data.exported_at)).toBeGreaterThan(0);
    expect(data.account).toMatchObject({ user_id: a.user.id, email: a.user.email, name: 'Test User', disabled: false });
    expect(data.robots.map((r) => r.robot_id)).toEqual([a.robotId]);
    expect(data.licenses.robot_licenses.map((l) => l.robot_model)).toContain('Nao');
    expect(data.subscriptions.user_subscriptions.map((s) => s.subscription_tier)).toContain('Standard Subscription');
    expect(data.dial_time.balance.subscription_type).toBeTruthy();
    expect(data.dial_time.ledger.length).toBeGreaterThan(0);
    expect(data.dial_time.ledger).toContainEqual(
      expect.objectContaining({ kind: 'grant', minutes: 60, durable: 60, reason: 'goodwill for Ada' }),
    );
    expect(data.payments).toHaveLength(1);
    expect(data.payments[0]).toMatchObject({ payment_id: a.paymentId, refunded_amount: 100 });
    expect(data.payments[0]?.refunds).toEqual([{ amount: 100, at: expect.any(Number), source: 'portal' }]);
    expect(data.support_requests).toHaveLength(1);
    expect(data.support_requests[0]).toMatchObject({
      ticket_id: a.ticket,
      subject: 'Ada invoice',
      status: 'waiting',
      thread: [
        { author: 'customer', body: 'Where is the invoice of Ada?' },
        { author: 'staff', body: 'Here is the invoice, Ada.' },
      ],
    });
    const signIn = data.security_events.find((e) => e.action === 'auth.sign_in');
    expect(signIn).toMatchObject({ kind: 'security', actor: 'customer', anonymised: false });
    expect(signIn?.details).toMatchObject({ method: 'password' });
    expect(data.security_events.map((e) => e.action)).toContain('support.reply');

    // Nothing of B's: not its address, robot, licence, ticket or payment.
    const text = JSON.stringify(data);
    for (const foreign of [b.user.email, b.user.id, b.robotId, b.licenseId, b.ticket, b.paymentId])
      expect(text).not.toContain(foreign);
  });

  it('is a read entry of the audit trail, by the customer', async () => {
    const user = await signIn(t);
    expect((await exportOf(user)).status).toBe(200);
    const entries = await t.app.deps.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.subjectUserId, user.id), eq(auditEntries.action, 'data.export')));
    expect(entries.map((e) => [e.kind, e.actorKind, e.actorId])).toEqual([['read', 'customer', user.id]]);
    // An account with nothing yet exports its empty sections, not an error.
    const again = await exportOf(user);
    const data = again.body.data as DataExport;
    expect([data.robots, data.payments, data.support_requests]).toEqual([[], [], []]);
  });

  it('refuses a caller without a session, and records nothing', async () => {
    const before = (await t.app.deps.db.select().from(auditEntries).where(eq(auditEntries.action, 'data.export')))
      .length;
    const res = await t.api.call(privacy, 'ExportMyData', {});
    expect(res.status).toBe(401);
    expect(res.body.error.Code).toBe(ErrorCodes.UNAUTHENTICATED.code);
    const after = (await t.app.deps.db.select().from(auditEntries).where(eq(auditEntries.action, 'data.export')))
      .length;
    expect(after).toBe(before);
  });
});

describe('security events hold the account its own data, not its staff', () => {
  const entry = (actorKind: 'customer' | 'staff', actorId: string) =>
    ({ at: new Date(1_000), kind: 'change', action: 'x', actorKind, actorId }) as never;
  const side = (data: Record<string, unknown>) => ({ seq: 1, data, anonymisedAt: null }) as never;
  const account = { userId: 'u-1', email: 'ada@example.test' };

  it.each([
    [
      "the account's own sign-in: its address, browser and details",
      entry('customer', 'u-1'),
      { ip: '203.0.113.1', userAgent: 'Firefox', method: 'password' },
      { ip: '203.0.113.1', user_agent: 'Firefox', details: { method: 'password' }, changes: {} },
    ],
    [
      "a staff member's change: not the staff member's address, browser or details",
      entry('staff', 's-1'),
      { ip: '198.51.100.7', userAgent: 'Chrome', reason: 'goodwill', message_id: 'm-1' },
      { ip: '', user_agent: '', details: {}, reason: 'goodwill', changes: {} },
    ],
    [
      "an assignment: the staff members' addresses left out, the account's own kept",
      entry('staff', 's-1'),
      {
        changes: {
          assignee: { before: null, after: 'agent@example.test' },
          email: { before: 'ada@example.test', after: 'x' },
        },
      },
      {
        changes: {
          assignee: { before: null, after: 'someone else' },
          email: { before: 'ada@example.test', after: 'x' },
        },
      },
    ],
  ])('%s', async (_label, e, data, expected) => {
    const { securityEvent } = await import('./privacy.service.ts');
    expect(securityEvent(e, side(data), account)).toMatchObject(expected);
  });
});
