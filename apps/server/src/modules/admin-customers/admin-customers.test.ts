import {
  adminCustomers,
  type CustomerView,
  dataExport,
  OPERATOR_HEADER,
  PERMISSIONS,
  type Permission,
  roleCan,
  STAFF_ROLES,
  type StaffRole,
} from '@portal/contract';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, auditPersonal, payments, subscriptions, users } from '../../db/schema.ts';
import { grantLicense, hardwareHash, type SignedIn, signIn, useTestApp } from '../../test/fixtures.ts';
import { type Answer, seedUser } from '../../test/harness.ts';
import { CLI_ACTOR } from '../operator/operator.service.ts';
import { buy, PLAN } from '../subscriptions/subscriptions.test-helpers.ts';

/**
 * The console's customers over HTTP (issue 35, docs/decisions/075): search by each key, the customer
 * view of a seeded customer, every action with a reason (its success, its field errors, its one
 * audit entry with the reason, none on failure), the goodwill cap for support, and the role matrix
 * derived from PERMISSIONS with the unknown-route 404 for a customer and for no credential.
 */
const t = useTestApp();
const services = () => t.app.services;

type Credential = { bearer: string } | { key: string } | undefined;
type Action = keyof (typeof adminCustomers)['actions'] & string;

async function staffSession(role: StaffRole) {
  const user = await seedUser(t);
  await services().staff.setRole({ userId: user.id, role, by: { kind: 'cli' } });
  const pair = await services().sessions.start(t.app.deps.db, user, 'portal', undefined, 'passkey');
  return { ...user, bearer: pair.access_token };
}

async function staffKey(role: StaffRole) {
  const made = await services().staff.createKey({
    name: `customers-${role}-${Math.random()}`,
    role,
    by: { kind: 'cli' },
  });
  return { id: made.id, key: made.key };
}

/** One call; a 200 is checked against the contract. */
async function call(action: Action, body: Record<string, unknown>, as: Credential): Promise<Answer> {
  const headers: Record<string, string> = as && 'key' in as ? { [OPERATOR_HEADER]: as.key } : {};
  const res = await t.api.post(
    adminCustomers.path,
    { action, ...body },
    { headers, ...(as && 'bearer' in as ? { bearer: as.bearer } : {}) },
  );
  if (res.status === 200) {
    const parsed = adminCustomers.actions[action].response.safeParse(res.body);
    if (!parsed.success) throw new Error(`${action}: the answer breaks the contract: ${parsed.error.message}`);
  }
  return res;
}

/** Every audit entry after `seq`, with its personal side row. */
async function entriesAfter(seq: number) {
  const rows = await t.app.deps.db
    .select()
    .from(auditEntries)
    .leftJoin(auditPersonal, eq(auditPersonal.seq, auditEntries.seq))
    .where(sql`${auditEntries.seq} > ${seq}`)
    .orderBy(auditEntries.seq);
  return rows.map((r) => ({ ...r.audit_entries, data: (r.audit_personal?.data ?? {}) as Record<string, unknown> }));
}
const headSeq = async () =>
  (await t.app.deps.db.select({ n: sql<number>`coalesce(max(${auditEntries.seq}), 0)::int` }).from(auditEntries))[0]
    ?.n ?? 0;

async function registerRobot(customer: { id: string; email: string }, name = 'Unit 7') {
  return services().robots.register(
    { userId: customer.id, email: customer.email },
    { make: 'Softbank', model: 'Pepper', name, hardwareHash: hardwareHash() },
  );
}

async function pairedRobot(customer: { id: string; email: string }) {
  const robot = await registerRobot(customer);
  const { code } = await grantLicense(t, customer.id);
  await services().licenses.pair(
    { userId: customer.id, email: customer.email },
    { pairCode: code, robotId: robot.robot_id },
  );
  return robot;
}

async function supportRequest(customer: SignedIn | { id: string; email: string }, subject = 'Robot will not pair') {
  return services().support.submit(
    { userId: customer.id, email: customer.email, sessionId: '' },
    { category: 'technical', subject, message: 'It says the code is used.' },
    t.app.log,
  );
}

/** A customer who bought 60 minutes through the sandbox: answers the paid payment's id. */
async function paidCustomer() {
  const customer = await signIn(t);
  await buy(t, customer, [PLAN.time60]);
  const [paid] = await services().billing.paymentsOf(customer.id);
  if (!paid) throw new Error('no payment');
  return { customer, paymentId: paid.id };
}

let admin: Awaited<ReturnType<typeof staffSession>>;
let support: Awaited<ReturnType<typeof staffSession>>;
let finance: Awaited<ReturnType<typeof staffSession>>;

beforeAll(async () => {
  admin = await staffSession('admin');
  support = await staffSession('support');
  finance = await staffSession('finance');
});

describe('SearchCustomers', () => {
  it('finds a customer by each key, by prefix and whatever the case, saying what matched', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const customer = await seedUser(t, { email: `zq-${tag}@example.test`, name: `Zebulon ${tag} Quayle` });
    await t.app.deps.db
      .update(users)
      .set({ company: `Quokka${tag} Robotics` })
      .where(eq(users.id, customer.id));
    const robot = await registerRobot(customer);
    const { code } = await grantLicense(t, customer.id);
    const ticket = await supportRequest(customer);
    const { customer: payer, paymentId } = await paidCustomer();
    await t.app.deps.db
      .update(payments)
      .set({ paymentIntentId: `pi_3Zq${tag}Intent` })
      .where(eq(payments.id, paymentId));

    const cases: [string, string, string][] = [
      ['email', `ZQ-${tag}@EXAMPLE`, customer.id],
      ['name', `zebulon ${tag}`, customer.id],
      ['company', `quokka${tag}`, customer.id],
      ['robot_id', robot.robot_id.slice(0, 13).toUpperCase(), customer.id],
      ['pairing_code', code.toLowerCase(), customer.id],
      ['ticket_id', ticket.slice(0, 7).toLowerCase(), customer.id],
      ['payment_id', paymentId.slice(0, 8), payer.id],
      ['payment_id', `PI_3ZQ${tag}`, payer.id],
    ];
    for (const [key, query, userId] of cases) {
      const res = await call('SearchCustomers', { query, limit: 10 }, support);
      expect(res.status, `${key} ${JSON.stringify(res.body)}`).toBe(200);
      const hit = (res.body.customers as { user_id: string; matched: string[] }[]).find((c) => c.user_id === userId);
      expect(hit, `${key}: ${query}`).toBeDefined();
      expect(hit?.matched).toContain(key);
    }
    const res = await call('SearchCustomers', { query: `zq-${tag}`, limit: 10 }, support);
    expect(res.body.customers).toEqual([
      {
        user_id: customer.id,
        email: customer.email,
        name: `Zebulon ${tag} Quayle`,
        company: `Quokka${tag} Robotics`,
        tier: 'Lite',
        matched: ['email'],
        matched_value: '',
      },
    ]);
    // Not a prefix, not a match: the middle of an email finds nothing.
    const none = await call('SearchCustomers', { query: `${tag}@example`, limit: 10 }, support);
    expect(none.body.customers).toEqual([]);
  });

  it('answers at most `limit`, and refuses a short query or a bad limit naming the field', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    for (let i = 0; i < 3; i++) await seedUser(t, { email: `lim${tag}-${i}@example.test` });
    const res = await call('SearchCustomers', { query: `lim${tag}`, limit: 2 }, support);
    expect((res.body.customers as unknown[]).length).toBe(2);
    const short = await call('SearchCustomers', { query: 'a' }, support);
    expect(short.status).toBe(400);
    expect(short.body.error.Description).toMatch(/query: Query must be at least 2 characters/);
    const big = await call('SearchCustomers', { query: 'abc', limit: 51 }, support);
    expect(big.status).toBe(400);
    expect(big.body.error.Description).toMatch(/limit: Limit must be at most 50/);
  });
});

describe('GetCustomer', () => {
  it("says when the customer was last active: its sessions' last use", async () => {
    const customer = await signIn(t);
    const fresh = await call('GetCustomer', { user_id: customer.id }, support);
    const view = fresh.body.customer as CustomerView;
    expect(view.sessions.length).toBeGreaterThan(0);
    expect(view.profile.last_active_at).toBe(Math.max(...view.sessions.map((s) => s.last_used_at)));
    expect(view.profile.last_active_at).toBeGreaterThan(0);
  });

  it('shows the seeded customer whole: plan, past-due, slots (the larger of plan and grant), ledger, robots, requests', async () => {
    const customer = await signIn(t);
    await buy(t, customer, [PLAN.standardMonthly]);
    const failedAt = new Date(t.clock.now().getTime() - 3_600_000);
    await t.app.deps.db
      .update(subscriptions)
      .set({ paymentFailedAt: failedAt })
      .where(eq(subscriptions.userId, customer.id));
    const account = { id: customer.id, email: customer.email };
    const planSlots = await services().subscriptions.slotsOfTier('Standard Subscription');
    await services().operators.setSlotGrant(account, planSlots + 2, CLI_ACTOR);
    await services().operators.addTime(account, 45, 'outage on the 3rd', CLI_ACTOR);
    const robot = await pairedRobot(customer);
    const ticket = await supportRequest(customer);

    const before = await headSeq();
    const res = await call('GetCustomer', { user_id: customer.id }, finance);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const view = res.body.customer as CustomerView;
    expect(view.profile).toMatchObject({
      user_id: customer.id,
      email: customer.email,
      email_verified: true,
      disabled_at: 0,
    });
    expect(view.tier).toBe('Standard');
    expect(view.subscriptions).toEqual([
      expect.objectContaining({
        subscription_tier: 'Standard Subscription',
        status: 'active',
        payment_failed_at: failedAt.getTime(),
      }),
    ]);
    expect(view.slots).toEqual({ plan: planSlots, granted: planSlots + 2, effective: planSlots + 2 });
    expect(view.ledger[0]).toMatchObject({ kind: 'grant', minutes: 45, durable: 45, reason: 'outage on the 3rd' });
    expect(view.time.total_durable_time).toBeGreaterThanOrEqual(45);
    expect(view.robots).toEqual([
      expect.objectContaining({ robot_id: robot.robot_id, robot_state: expect.objectContaining({ available: false }) }),
    ]);
    expect(view.licenses.robot_licenses.map((l) => l.robot_id)).toContain(robot.robot_id);
    expect(view.support_requests).toEqual([
      expect.objectContaining({ ticket_id: ticket, subject: 'Robot will not pair', status: 'new' }),
    ]);
    expect(view.payments_visible).toBe(true);
    expect(view.payments).toEqual([expect.objectContaining({ status: 'paid', refunds: [], dispute_status: '' })]);
    expect(view.sessions.length).toBeGreaterThan(0);
    expect(view.audit.map((e) => e.action)).toEqual(expect.arrayContaining(['slots.set', 'time.grant']));
    // Opening it is one read entry, by the staff member.
    const written = await entriesAfter(before);
    expect(written.map((e) => [e.kind, e.action, e.actorKind, e.actorId, e.subjectUserId])).toEqual([
      ['read', 'customer.view', 'staff', finance.id, customer.id],
    ]);
    // A grant below the plan's count: the plan's count is in force.
    await services().operators.setSlotGrant(account, 0, CLI_ACTOR);
    const again = await call('GetCustomer', { user_id: customer.id }, finance);
    expect((again.body.customer as CustomerView).slots).toEqual({ plan: planSlots, granted: 0, effective: planSlots });
  });

  it('shows support no payments (payments_visible false)', async () => {
    const { customer } = await paidCustomer();
    const res = await call('GetCustomer', { user_id: customer.id }, support);
    expect(res.status).toBe(200);
    expect((res.body.customer as CustomerView).payments_visible).toBe(false);
    expect((res.body.customer as CustomerView).payments).toEqual([]);
  });

  it('shows a disputed payment as disputed, with its refunds', async () => {
    const { customer, paymentId } = await paidCustomer();
    await t.app.deps.db
      .update(payments)
      .set({ disputeStatus: 'open', disputeId: 'dp_1' })
      .where(eq(payments.id, paymentId));
    const res = await call('GetCustomer', { user_id: customer.id }, finance);
    expect((res.body.customer as CustomerView).payments).toEqual([
      expect.objectContaining({ payment_id: paymentId, dispute_status: 'open', refunds: [] }),
    ]);
  });

  it('answers 404 naming user_id for no such account, and writes no entry', async () => {
    const before = await headSeq();
    const res = await call('GetCustomer', { user_id: crypto.randomUUID() }, support);
    expect(res.status).toBe(404);
    expect(res.body.error.Description).toMatch(/^user_id: /);
    expect(await entriesAfter(before)).toEqual([]);
    const bad = await call('GetCustomer', { user_id: 'not-a-uuid' }, support);
    expect(bad.status).toBe(400);
    expect(bad.body.error.Description).toMatch(/user_id: User id must be a UUID/);
  });
});

/** Each action with a reason: how to make it succeed, the entry it writes, and a way to make it fail. */
interface ActionCase {
  prepare(): Promise<{ body: Record<string, unknown>; subject: string }>;
  entry: { kind: 'change' | 'security' | 'read'; action: string };
  /** the system's own entry the path writes besides (a deletion anonymises the customer's side rows) */
  system?: string;
  /** a body of the same action that fails after validation (404, 409, …) */
  failing?: () => Promise<{ body: Record<string, unknown>; status: number; field: string }>;
  check?: (res: Answer, subject: string) => Promise<void> | void;
}

const userBody = async (opts: { verified?: boolean } = {}) => {
  const u = await seedUser(t, opts);
  return { body: { user_id: u.id }, subject: u.id };
};
const missing = () => crypto.randomUUID();

const CASES: Record<Exclude<Action, 'SearchCustomers' | 'GetCustomer'>, ActionCase> = {
  VerifyEmail: {
    prepare: () => userBody({ verified: false }),
    entry: { kind: 'change', action: 'account.verify' },
    failing: async () => ({ body: (await userBody()).body, status: 409, field: 'user_id' }),
    check: (res) => expect((res.body.customer as CustomerView).profile.email_verified).toBe(true),
  },
  DisableAccount: {
    prepare: userBody,
    entry: { kind: 'security', action: 'account.disable' },
    failing: async () => ({ body: { user_id: missing() }, status: 404, field: 'user_id' }),
    check: (res) => expect((res.body.customer as CustomerView).profile.disabled_at).toBeGreaterThan(0),
  },
  EnableAccount: {
    async prepare() {
      const u = await seedUser(t);
      await services().operators.setDisabled({ id: u.id, email: u.email }, true, CLI_ACTOR);
      return { body: { user_id: u.id }, subject: u.id };
    },
    entry: { kind: 'security', action: 'account.enable' },
    failing: async () => ({ body: (await userBody()).body, status: 409, field: 'user_id' }),
    check: (res) => expect((res.body.customer as CustomerView).profile.disabled_at).toBe(0),
  },
  RevokeSessions: {
    async prepare() {
      const c = await signIn(t);
      return { body: { user_id: c.id }, subject: c.id };
    },
    entry: { kind: 'security', action: 'sessions.revoke' },
    failing: async () => ({ body: { user_id: missing() }, status: 404, field: 'user_id' }),
    check: (res) => expect((res.body.customer as CustomerView).sessions).toEqual([]),
  },
  ResendVerification: {
    prepare: () => userBody({ verified: false }),
    entry: { kind: 'change', action: 'verification.resend' },
    failing: async () => ({ body: (await userBody()).body, status: 409, field: 'user_id' }),
  },
  GrantDialTime: {
    async prepare() {
      const u = await seedUser(t);
      return { body: { user_id: u.id, minutes: 60 }, subject: u.id };
    },
    entry: { kind: 'change', action: 'time.grant' },
    failing: async () => ({ body: { user_id: missing(), minutes: 60 }, status: 404, field: 'user_id' }),
    check: (res) => expect((res.body.customer as CustomerView).ledger[0]).toMatchObject({ kind: 'grant', minutes: 60 }),
  },
  GrantLicense: {
    async prepare() {
      const u = await seedUser(t);
      return { body: { user_id: u.id, model: 'Nao' }, subject: u.id };
    },
    entry: { kind: 'change', action: 'license.grant' },
    failing: async () => ({ body: { user_id: missing(), model: 'Nao' }, status: 404, field: 'user_id' }),
    check: (res) => {
      expect(res.body.pair_code).toMatch(/^[A-Z0-9]{4,}/);
      expect((res.body.customer as CustomerView).licenses.robot_licenses).toHaveLength(1);
    },
  },
  GrantSubscription: {
    async prepare() {
      const u = await seedUser(t);
      return { body: { user_id: u.id, tier: 'Pro Subscription', override_kind: 0, duration_s: 86_400 }, subject: u.id };
    },
    entry: { kind: 'change', action: 'subscription.grant' },
    failing: async () => ({
      body: { user_id: missing(), tier: 'Pro Subscription', override_kind: 0 },
      status: 404,
      field: 'user_id',
    }),
    check: (res) => expect((res.body.customer as CustomerView).tier).toBe('Pro'),
  },
  EndSubscription: {
    async prepare() {
      const u = await seedUser(t);
      await services().operators.grantSubscription(
        { id: u.id, email: u.email },
        { tier: 'Pro Subscription', overrideKind: 1, durationS: 86_400 },
        CLI_ACTOR,
      );
      return { body: { user_id: u.id }, subject: u.id };
    },
    entry: { kind: 'change', action: 'subscription.grant' },
    failing: async () => ({ body: (await userBody()).body, status: 409, field: 'user_id' }),
    check: (res) => expect((res.body.customer as CustomerView).tier).toBe('Lite'),
  },
  SetSlotGrant: {
    async prepare() {
      const u = await seedUser(t);
      return { body: { user_id: u.id, amount: 3 }, subject: u.id };
    },
    entry: { kind: 'change', action: 'slots.set' },
    failing: async () => ({ body: { user_id: missing(), amount: 3 }, status: 404, field: 'user_id' }),
    check: (res) => expect((res.body.customer as CustomerView).slots).toEqual({ plan: 0, granted: 3, effective: 3 }),
  },
  RefundPayment: {
    async prepare() {
      const { customer, paymentId } = await paidCustomer();
      return { body: { user_id: customer.id, payment_id: paymentId, amount: 100 }, subject: customer.id };
    },
    entry: { kind: 'change', action: 'payment.refund' },
    failing: async () => {
      // Another customer's payment is not this customer's: 404, nothing refunded.
      const { paymentId } = await paidCustomer();
      return { body: { ...(await userBody()).body, payment_id: paymentId }, status: 404, field: 'payment_id' };
    },
    check: (res) => {
      expect(res.body.payment).toMatchObject({ refunded_amount: 100 });
      expect((res.body.customer as CustomerView).payments[0]?.refunds).toEqual([
        expect.objectContaining({ amount: 100, source: 'portal' }),
      ]);
    },
  },
  UnpairRobot: {
    async prepare() {
      const c = await seedUser(t);
      const robot = await pairedRobot(c);
      return { body: { user_id: c.id, robot_id: robot.robot_id }, subject: c.id };
    },
    entry: { kind: 'change', action: 'robot.unpair' },
    failing: async () => {
      const c = await seedUser(t);
      const robot = await registerRobot(c);
      return { body: { user_id: c.id, robot_id: robot.robot_id }, status: 409, field: 'robot_id' };
    },
    check: (res) =>
      expect((res.body.customer as CustomerView).licenses.robot_licenses.every((l) => l.robot_id === '')).toBe(true),
  },
  DeleteAccount: {
    prepare: userBody,
    entry: { kind: 'security', action: 'account.delete' },
    system: 'audit.anonymise',
    failing: async () => {
      const s = await staffSession('support');
      return { body: { user_id: s.id }, status: 409, field: 'user_id' };
    },
    check: async (res, subject) => {
      expect(res.body.deleted).toBe(true);
      expect(await services().accounts.row(subject)).toBeUndefined();
    },
  },
  ExportCustomerData: {
    async prepare() {
      const c = await signIn(t);
      await supportRequest(c, 'Export me');
      return { body: { user_id: c.id }, subject: c.id };
    },
    entry: { kind: 'read', action: 'data.export' },
    failing: async () => ({ body: { user_id: missing() }, status: 404, field: 'user_id' }),
    check: (res, subject) => {
      // The document the customer downloads from their profile (ExportMyData), not one of our own.
      const parsed = dataExport.safeParse(res.body.data);
      expect(parsed.success, parsed.error?.message).toBe(true);
      const data = res.body.data as Record<string, unknown> & { account: { user_id: string } };
      expect(data.account.user_id).toBe(subject);
      expect(data.support_requests).toEqual([expect.objectContaining({ subject: 'Export me' })]);
      expect(data.security_events).toEqual(
        expect.arrayContaining([expect.objectContaining({ action: 'auth.sign_in' })]),
      );
      expect(res.body.filename).toMatch(/^robot-portal-data-.*\.json$/);
    },
  },
};

describe('actions with a reason', () => {
  it('every action of the service has a case', () => {
    const named = Object.keys(adminCustomers.actions).filter((a) => a !== 'SearchCustomers' && a !== 'GetCustomer');
    expect(named.sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.entries(CASES))(
    '%s writes exactly one entry with the reason, by the staff member',
    async (name, c) => {
      const { body, subject } = await c.prepare();
      const reason = `ticket SR-${name} asked for it`;
      const before = await headSeq();
      const res = await call(name as Action, { ...body, reason }, admin);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const all = await entriesAfter(before);
      expect(all.filter((e) => e.actorKind === 'system').map((e) => e.action)).toEqual(c.system ? [c.system] : []);
      const written = all.filter((e) => e.actorKind !== 'system');
      // ExportCustomerData reads; every other action is one change or security entry.
      expect(
        written.map((e) => ({
          kind: e.kind,
          action: e.action,
          actor: [e.actorKind, e.actorId],
          subject: e.subjectUserId,
        })),
      ).toEqual([{ ...c.entry, actor: ['staff', admin.id], subject }]);
      expect(written[0]?.data.reason).toBe(reason);
      await c.check?.(res, subject);
    },
  );

  it.each(Object.entries(CASES))(
    '%s refuses a missing or short reason naming it, and writes nothing',
    async (name, c) => {
      const { body } = await c.prepare();
      const before = await headSeq();
      const none = await call(name as Action, body, admin);
      expect(none.status).toBe(400);
      expect(none.body.error.Description).toMatch(/reason: Reason is required/);
      const short = await call(name as Action, { ...body, reason: ' ab ' }, admin);
      expect(short.status).toBe(400);
      expect(short.body.error.Description).toMatch(/reason: Reason must be at least 3 characters/);
      const long = await call(name as Action, { ...body, reason: 'x'.repeat(501) }, admin);
      expect(long.status).toBe(400);
      expect(long.body.error.Description).toMatch(/reason: Reason must be at most 500 characters/);
      expect(await entriesAfter(before)).toEqual([]);
    },
  );

  it.each(Object.entries(CASES).filter(([, c]) => c.failing))(
    '%s fails cleanly (naming the field) and writes no entry',
    async (name, c) => {
      const failing = await (c.failing as NonNullable<ActionCase['failing']>)();
      const before = await headSeq();
      const res = await call(name as Action, { ...failing.body, reason: 'should not be recorded' }, admin);
      expect(res.status, JSON.stringify(res.body)).toBe(failing.status);
      expect(res.body.error.Description).toMatch(new RegExp(`^${failing.field}: `));
      expect(await entriesAfter(before)).toEqual([]);
    },
  );

  it('two disables of one account at once: one changes it (one entry), the other is a 409', async () => {
    const u = await seedUser(t);
    const before = await headSeq();
    const answers = await Promise.all(
      [admin, admin].map((as) => call('DisableAccount', { user_id: u.id, reason: 'fraud report' }, as)),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await entriesAfter(before)).map((e) => e.action)).toEqual(['account.disable']);
  });

  it('a key acts as itself: the entry names the key', async () => {
    const key = await staffKey('support');
    const u = await seedUser(t);
    const before = await headSeq();
    const res = await call('RevokeSessions', { user_id: u.id, reason: 'lost phone' }, key);
    expect(res.status).toBe(200);
    const written = await entriesAfter(before);
    expect(written.map((e) => [e.actorKind, e.actorId, e.data.reason])).toEqual([['key', key.id, 'lost phone']]);
  });

  it('SetSlotGrant and GrantDialTime name their field when out of range', async () => {
    const u = await seedUser(t);
    const slots = await call('SetSlotGrant', { user_id: u.id, amount: 101, reason: 'too many' }, admin);
    expect(slots.status).toBe(400);
    expect(slots.body.error.Description).toMatch(/amount: Amount must be at most 100/);
    const minutes = await call('GrantDialTime', { user_id: u.id, minutes: 0, reason: 'nothing' }, admin);
    expect(minutes.status).toBe(400);
    expect(minutes.body.error.Description).toMatch(/minutes: Minutes must be at least 1/);
  });
});

describe('the goodwill cap', () => {
  it('support grants up to STAFF_GOODWILL_MAX_MINUTES at once; more is refused (403, no entry); finance grants more', async () => {
    const cap = t.config.STAFF_GOODWILL_MAX_MINUTES;
    const u = await seedUser(t);
    const before = await headSeq();
    const over = await call('GrantDialTime', { user_id: u.id, minutes: cap + 1, reason: 'big outage' }, support);
    expect(over.status).toBe(403);
    expect(over.body.error.Description).toBe(
      `minutes: support grants at most ${cap} goodwill minutes at once; a larger grant needs the finance role`,
    );
    expect(await entriesAfter(before)).toEqual([]);
    expect((await call('GrantDialTime', { user_id: u.id, minutes: cap, reason: 'outage' }, support)).status).toBe(200);
    const big = await call('GrantDialTime', { user_id: u.id, minutes: cap * 10, reason: 'contract credit' }, finance);
    expect(big.status).toBe(200);
    expect((big.body.customer as CustomerView).time.total_durable_time).toBe(cap * 11);
  });
});

describe('the role matrix of adminCustomers', () => {
  const actions = Object.keys(adminCustomers.actions) as Action[];
  /** A body the action succeeds with, fresh per call. */
  const succeeding = async (action: Action): Promise<Record<string, unknown>> => {
    if (action === 'SearchCustomers') return { query: 'zz-nobody' };
    if (action === 'GetCustomer') return (await userBody()).body;
    const c = CASES[action];
    return { ...(await c.prepare()).body, reason: 'role matrix' };
  };

  it.each(actions)('%s: 200 for the roles PERMISSIONS gives it, 403 naming the role for the others', async (action) => {
    const permission = adminCustomers.actions[action].permission as Permission;
    expect(permission in PERMISSIONS).toBe(true);
    const seen: [string, number][] = [];
    const expected: [string, number][] = [];
    for (const role of STAFF_ROLES) {
      for (const [label, credential] of [
        [`${role} session`, await staffSession(role)],
        [`${role} key`, await staffKey(role)],
      ] as const) {
        const res = await call(action, await succeeding(action), credential);
        seen.push([label, res.status]);
        expected.push([label, roleCan(role, permission) ? 200 : 403]);
        if (res.status === 403)
          expect(res.body.error.Description).toMatch(new RegExp(`it needs the role ${PERMISSIONS[permission]}$`));
      }
    }
    expect(seen).toEqual(expected);
  });

  it.each(actions)(
    "%s: a customer, an admin's password session, a revoked key and no credential get the unknown route, byte for byte",
    async (action) => {
      const customer = await signIn(t);
      const admin = await seedUser(t);
      await services().staff.setRole({ userId: admin.id, role: 'admin', by: { kind: 'cli' } });
      const password = await services().sessions.start(t.app.deps.db, admin, 'portal', undefined, 'password');
      const revoked = await staffKey('admin');
      await services().staff.revokeKey({ id: revoked.id, by: { kind: 'cli' } });
      const unknown = await t.api.post('/api/no-such-service', { action }, {});
      const expected = JSON.stringify(unknown.body).replace('/api/no-such-service', adminCustomers.path);
      for (const credential of [{ bearer: customer.token }, { bearer: password.access_token }, revoked, undefined]) {
        const res = await call(action, { user_id: customer.id, reason: 'not staff', query: 'abc' }, credential);
        expect(res.status).toBe(404);
        expect(JSON.stringify(res.body)).toBe(expected);
      }
    },
  );
});
