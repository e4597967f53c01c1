import { isPlannedAction, ONE_DAY_MS, ONE_DAY_S, operator, security, useraction } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CommandFailed, runCli } from '../../cli.ts';
import { rowsOf } from '../../db/client.ts';
import { asOperator, type SignedIn, signIn, useTestApp } from '../../test/fixtures.ts';
import { GOOD_PASSWORD, seedUser, type TestApp } from '../../test/harness.ts';
import { SoftwareAuthenticator } from '../../test/software-authenticator.ts';
import { type StandIn, stripeEvent } from '../../test/stripe-stand-in.ts';
import {
  checkout,
  line,
  postSignedPayload,
  standInSubscription,
  startStripeApp,
  stripeCharge,
  stripeDispute,
  stripeInvoice,
} from '../payment/payment.test-helpers.ts';
import { buy, PLAN, payments, planRow } from '../subscriptions/subscriptions.test-helpers.ts';

/**
 * Issue 34's "Done when": every state-changing operator, command-line, webhook and security action
 * writes exactly one change (or security) entry, by the right actor, in the transaction of its
 * outcome (docs/decisions/072). Over HTTP on a freshly migrated database (PGlite, and PostgreSQL
 * through scripts/with-postgres.ts); the trail still verifies after all of it.
 */

type Entry = {
  seq: number;
  actorKind: string;
  actorId: string;
  subjectUserId: string | null;
  kind: string;
  action: string;
  target: string;
};

/** What an action should leave: one entry like this. */
interface Expected {
  kind: 'change' | 'security';
  action: string;
  actor: { kind: string; id: string };
  subject?: string | null;
  target?: string;
}

const head = async (t: TestApp) => (await t.app.services.audit.list({ limit: 1 }))[0]?.audit_entries.seq ?? 0;
/** The entries after `seq`, oldest first. */
async function since(t: TestApp, seq: number): Promise<Entry[]> {
  const rows = await t.app.services.audit.list({ limit: 500 });
  return rows
    .map((r) => r.audit_entries as Entry)
    .filter((e) => e.seq > seq)
    .reverse();
}
const shape = (e: Entry) => ({
  kind: e.kind,
  action: e.action,
  actor: { kind: e.actorKind, id: e.actorId },
  subject: e.subjectUserId,
  target: e.target,
});
function expectOne(entries: Entry[], want: Expected) {
  expect(entries.map(shape)).toEqual([
    expect.objectContaining({
      kind: want.kind,
      action: want.action,
      actor: want.actor,
      ...(want.subject !== undefined ? { subject: want.subject } : {}),
      ...(want.target !== undefined ? { target: want.target } : {}),
    }),
  ]);
}

/** Runs a portal-admin command against the app's database; answers what it printed. */
async function cli(t: TestApp, ...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runCli(argv, { db: t.app.deps.db, config: t.config, clock: t.clock, out: (l) => lines.push(l) });
  return lines;
}

async function verifies(t: TestApp) {
  const lines: string[] = [];
  try {
    await runCli(['audit:verify'], { db: t.app.deps.db, config: t.config, clock: t.clock, out: (l) => lines.push(l) });
  } catch (err) {
    if (err instanceof CommandFailed) throw new Error(`audit:verify failed: ${lines.join('\n')}\n${err.message}`);
    throw err;
  }
  expect(lines.at(-1)).toMatch(/^audit trail verified: \d+ entries/);
}

// ---- the sandbox portal: operator actions, the command line, customers' security events -------

describe('on the sandbox portal', () => {
  const t = useTestApp();
  let key: { id: string; key: string };
  let support: { id: string; key: string };
  const ops = () => asOperator(t, operator, key.key);
  const KEY = () => ({ kind: 'key', id: key.id });
  const CLI = { kind: 'system', id: 'cli' };

  beforeAll(async () => {
    key = await t.app.services.staff.createKey({ name: 'coverage', role: 'admin', by: { kind: 'cli' } });
    support = await t.app.services.staff.createKey({ name: 'coverage-support', role: 'support', by: { kind: 'cli' } });
  });

  /** Each action of /api/operator: what it is called with, and the entry it writes (null: a read, none). */
  interface OperatorCase {
    /** makes what the call needs; answers the call's input and the entry expected */
    prepare(): Promise<{
      input: Record<string, unknown>;
      expected: Omit<Expected, 'actor'>;
      /** what the entry's personal side row holds: the before and after of the changed fields */
      data?: Record<string, unknown>;
    }>;
    /** a job: other actors' entries (its own changes) may follow; exactly one is the key's */
    job?: boolean;
  }
  const OPERATOR_CASES: Record<keyof (typeof operator)['actions'], OperatorCase | null> = {
    GrantSubscription: {
      async prepare() {
        const user = await signIn(t);
        return {
          input: { email: user.email, tier: 'Pro Subscription', override_kind: 1, duration_s: 30 * ONE_DAY_S },
          expected: { kind: 'change', action: 'subscription.grant', subject: user.id },
          data: { changes: { tier: { before: 'Lite', after: 'Pro' }, ends_at: expect.anything() } },
        };
      },
    },
    SetSlotAmount: {
      async prepare() {
        const user = await signIn(t);
        return {
          input: { email: user.email, amount: 4 },
          expected: { kind: 'change', action: 'slots.set', subject: user.id },
          data: { changes: expect.objectContaining({ slot_grant: { before: null, after: 4 } }) },
        };
      },
    },
    ListPayments: null,
    RefundPayment: {
      async prepare() {
        const user = await signIn(t);
        await buy(t, user, [PLAN.time60]);
        const [paid] = await payments(t, user);
        return {
          input: { payment_id: paid?.payment_id, refund_amount: 100 },
          expected: { kind: 'change', action: 'payment.refund', subject: user.id, target: paid?.payment_id },
          data: { changes: { refunded_amount: { before: 0, after: 100 } } },
        };
      },
    },
    EndSubscriptionPeriod: {
      async prepare() {
        const user = await signIn(t);
        await buy(t, user, [PLAN.standardMonthly]);
        const plan = await planRow(t, user);
        return {
          input: { subscription_id: plan.stripe_id },
          expected: { kind: 'change', action: 'subscription.renew', subject: user.id, target: plan.stripe_id },
        };
      },
    },
    RunReconciliation: {
      job: true,
      async prepare() {
        return { input: {}, expected: { kind: 'change', action: 'job.reconciliation', subject: null } };
      },
    },
    GetReconciliation: null,
    RunLifecycle: {
      job: true,
      async prepare() {
        return { input: {}, expected: { kind: 'change', action: 'job.lifecycle', subject: null } };
      },
    },
    ListOutbox: null,
    RunOutbox: {
      job: true,
      async prepare() {
        return { input: {}, expected: { kind: 'change', action: 'job.outbox', subject: null } };
      },
    },
  };

  it('the table names every live action of /api/operator (a new action must say what it records)', () => {
    const live = Object.entries(operator.actions)
      .filter(([, def]) => !isPlannedAction(def))
      .map(([name]) => name);
    expect(Object.keys(OPERATOR_CASES).sort()).toEqual(live.sort());
  });

  for (const [name, c] of Object.entries(OPERATOR_CASES))
    it(`${name}: ${c ? 'one change entry by the calling API key' : 'a read, no entry'}`, async () => {
      const prepared = c
        ? await c.prepare()
        : { input: name === 'ListPayments' ? { email: (await signIn(t)).email } : {} };
      const before = await head(t);
      const res = await ops()(name as never, prepared.input as never);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const entries = await since(t, before);
      if (!c || !('expected' in prepared)) {
        expect(entries).toEqual([]);
        return;
      }
      const mine = entries.filter((e) => e.actorKind === 'key');
      expectOne(c.job ? mine : entries, { ...prepared.expected, actor: KEY() });
      if (prepared.data) {
        const [row] = await t.app.services.audit.list({ action: prepared.expected.action, limit: 1 });
        expect(row?.audit_personal?.data).toMatchObject(prepared.data);
      }
      // A job's own changes are its own actor's (the lifecycle, the reconciliation), never the key's.
      for (const e of entries.filter((x) => x.actorKind !== 'key')) expect(e.actorKind).toBe('system');
    });

  it('a refused or failed operator action writes no change entry', async () => {
    const user = await signIn(t);
    await buy(t, user, [PLAN.time60]);
    const [paid] = await payments(t, user);
    const before = await head(t);
    // Unknown payment (404), more than is left (400), a grant out of range (400): nothing changed.
    expect((await ops()('RefundPayment', { payment_id: crypto.randomUUID(), refund_amount: 100 })).status).toBe(404);
    expect((await ops()('RefundPayment', { payment_id: paid?.payment_id, refund_amount: 10_000_000 })).status).toBe(
      400,
    );
    expect((await ops()('SetSlotAmount', { email: user.email, amount: 101 })).status).toBe(400);
    // A key without the role: refused, which is a security entry, and no change.
    const refused = await asOperator(
      t,
      operator,
      support.key,
    )('RefundPayment', { payment_id: paid?.payment_id, refund_amount: 100 });
    expect(refused.status).toBe(403);
    const entries = await since(t, before);
    expect(entries.filter((e) => e.kind === 'change')).toEqual([]);
    expect(entries.map((e) => [e.kind, e.actorId])).toEqual([['security', support.id]]);
    // The same grant as the one in force changes nothing: no entry either.
    expect((await ops()('SetSlotAmount', { email: user.email, amount: 2 })).status).toBe(200);
    const set = await head(t);
    expect((await ops()('SetSlotAmount', { email: user.email, amount: 2 })).status).toBe(200);
    expect(await since(t, set)).toEqual([]);
  });

  it('the entry is in the action’s transaction: a failure after it leaves neither the change nor the entry', async () => {
    const user = await signIn(t);
    const audit = t.app.services.audit;
    const record = audit.record.bind(audit);
    const spy = vi.spyOn(audit, 'record').mockImplementationOnce(async (tx, input) => {
      await record(tx, input);
      throw new Error('forced failure after the entry was written');
    });
    const before = await head(t);
    try {
      const res = await ops()('GrantSubscription', {
        email: user.email,
        tier: 'Pro Subscription',
        override_kind: 1,
        duration_s: 30 * ONE_DAY_S,
      });
      expect(res.status).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect(await since(t, before)).toEqual([]);
    // The grant was rolled back with its entry: still Lite, nothing granted.
    expect((await t.app.services.subscriptions.tierNow(user.id))?.tier ?? 'Lite').toBe('Lite');
  });

  /** The state-changing commands of portal-admin that touch the database: one entry each, by the command line. */
  it('the command line: one entry per state-changing command, by system cli, through the same services', async () => {
    const user = await signIn(t);
    await buy(t, user, [PLAN.time60]);
    const [paid] = await payments(t, user);
    const fresh = await seedUser(t, { verified: false });
    const cases: [string[], Omit<Expected, 'actor'>][] = [
      [
        ['grant-subscription', user.email, 'Standard', '--days', '30'],
        { kind: 'change', action: 'subscription.grant', subject: user.id },
      ],
      [['slots:set', user.email, '5'], { kind: 'change', action: 'slots.set', subject: user.id }],
      [['refund', paid?.payment_id as string, '100'], { kind: 'change', action: 'payment.refund', subject: user.id }],
      [['grant-license', user.email, 'Pepper'], { kind: 'change', action: 'license.grant', subject: user.id }],
      [
        ['add-time', user.email, '30', 'goodwill', 'after', 'an', 'outage'],
        { kind: 'change', action: 'time.grant', subject: user.id },
      ],
      [['sessions:revoke', user.email], { kind: 'security', action: 'sessions.revoke', subject: user.id }],
      [['users:disable', user.email], { kind: 'security', action: 'account.disable', subject: user.id }],
      [['users:enable', user.email], { kind: 'security', action: 'account.enable', subject: user.id }],
      [['lifecycle:run'], { kind: 'change', action: 'job.lifecycle', subject: null }],
      [['reconcile:run'], { kind: 'change', action: 'job.reconciliation', subject: null }],
    ];
    for (const [argv, expected] of cases) {
      const before = await head(t);
      await cli(t, ...argv);
      const entries = await since(t, before);
      const jobs = argv[0] === 'lifecycle:run' || argv[0] === 'reconcile:run';
      expectOne(jobs ? entries.filter((e) => e.actorId === 'cli') : entries, { ...expected, actor: CLI });
    }
    // The reason given is on the record, with the minutes before and after.
    const [credited] = await t.app.services.audit.list({ subjectUserId: user.id, action: 'time.grant', limit: 1 });
    expect(credited?.audit_personal?.data).toMatchObject({
      reason: 'goodwill after an outage',
      minutes: 30,
      changes: { durable_minutes: { before: 60, after: 90 } },
    });
    // users:verify of an unverified account: one entry; of a verified one, nothing changed and nothing recorded.
    let before = await head(t);
    await cli(t, 'users:verify', fresh.email);
    expectOne(await since(t, before), { kind: 'change', action: 'account.verify', actor: CLI, subject: fresh.id });
    before = await head(t);
    await cli(t, 'users:verify', fresh.email);
    expect(await since(t, before)).toEqual([]);
    // Disabling a disabled account changes nothing: no entry.
    await cli(t, 'users:disable', user.email);
    before = await head(t);
    await cli(t, 'users:disable', user.email);
    expect(await since(t, before)).toEqual([]);
  });

  it('the sandbox lifecycle: a renewal is one entry by system lifecycle; the run one by whoever ran it', async () => {
    const user = await signIn(t);
    await buy(t, user, [PLAN.standardMonthly]);
    const plan = await planRow(t, user);
    t.clock.advance(31 * ONE_DAY_MS);
    const before = await head(t);
    expect((await ops()('RunLifecycle', {})).status).toBe(200);
    const entries = await since(t, before);
    const renewal = entries.filter((e) => e.target === plan.stripe_id);
    expect(renewal.map(shape)).toEqual([
      expect.objectContaining({
        action: 'subscription.renew',
        actor: { kind: 'system', id: 'lifecycle' },
        subject: user.id,
      }),
    ]);
    expect(entries.filter((e) => e.actorKind === 'key').map((e) => e.action)).toEqual(['job.lifecycle']);
  });

  describe("customers' security events, over HTTP", () => {
    const ip = '198.51.100.77';
    const login = (email: string, password = GOOD_PASSWORD, ua?: string) =>
      t.api.post(
        '/api/useraction',
        { action: 'login', user: { email, password } },
        { ip, ...(ua ? { headers: { 'user-agent': ua } } : {}) },
      );
    const tokenOf = (res: { body: Record<string, unknown> }) =>
      (res.body.token_pair as { access_token: string }).access_token;
    const as = (user: { id: string }) => ({ kind: 'customer', id: user.id });

    it('sign-in, lock, password change and reset, sessions revoked, passkey added and removed, deletion', async () => {
      const user = await seedUser(t);
      let before = await head(t);
      const first = await login(user.email);
      expect(first.status).toBe(200);
      const token = tokenOf(first);
      expectOne(await since(t, before), {
        kind: 'security',
        action: 'auth.sign_in',
        actor: as(user),
        subject: user.id,
      });

      // Another session, then "sign out everywhere else".
      await login(user.email, GOOD_PASSWORD, 'Another Browser/1.0');
      before = await head(t);
      expect((await t.api.call(security, 'RevokeOtherSessions', {}, { ip, bearer: token })).status).toBe(200);
      expectOne(await since(t, before), { kind: 'security', action: 'sessions.revoke', actor: as(user) });

      // A passkey added, then removed.
      const authenticator = new SoftwareAuthenticator();
      const options = await t.api.call(security, 'PasskeyRegistrationOptions', {}, { bearer: token });
      before = await head(t);
      const added = await t.api.call(
        security,
        'AddPasskey',
        { name: 'Laptop', credential: authenticator.register(options.body.options as never) },
        { bearer: token },
      );
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expectOne(await since(t, before), { kind: 'security', action: 'passkey.add', actor: as(user) });
      before = await head(t);
      const passkeyId = (added.body.passkey as { passkey_id: string }).passkey_id;
      expect((await t.api.call(security, 'RemovePasskey', { passkey_id: passkeyId }, { bearer: token })).status).toBe(
        200,
      );
      expectOne(await since(t, before), { kind: 'security', action: 'passkey.remove', actor: as(user) });

      // A password change; a wrong current password is refused and records nothing.
      const change = (current: string, next: string, bearer: string) =>
        t.api.call(
          useraction,
          'UserUpdatePassword',
          { token: bearer, tokentype: 1, user: { email: user.email, password: current }, password: next },
          { ip },
        );
      before = await head(t);
      expect((await change('Wrong-Pass-00%', 'Another-Pass-88%', token)).status).toBe(400);
      expect(await since(t, before)).toEqual([]);
      expect((await change(GOOD_PASSWORD, 'Another-Pass-88%', token)).status).toBe(200);
      expectOne(await since(t, before), { kind: 'security', action: 'auth.password_change', actor: as(user) });

      // A reset through the mailed link.
      await t.api.call(useraction, 'UserForgotPassword', { user: { email: user.email } });
      const link = t.mailer.lastTo(user.email)?.link;
      const resetToken = decodeURIComponent(String(link).split('/').at(-1) ?? '');
      before = await head(t);
      const reset = await t.api.call(useraction, 'UserChangePassword', {
        user: { email: user.email },
        token: resetToken,
        tokentype: 2,
        password: 'Brand-New-Pass-7?',
      });
      expect(reset.status, JSON.stringify(reset.body)).toBe(200);
      expectOne(await since(t, before), { kind: 'security', action: 'auth.password_reset', actor: as(user) });

      // Wrong passwords until the account locks: the lock is the one entry.
      before = await head(t);
      for (let i = 0; i < t.config.LOGIN_MAX_FAILURES; i++) await login(user.email, 'Wrong-Pass-00%');
      expectOne(await since(t, before), { kind: 'security', action: 'auth.lock', actor: as(user) });
    });

    it('an account deleted: its one entry by the customer (and the anonymisation it causes, by the system)', async () => {
      const user = await seedUser(t);
      const token = tokenOf(await login(user.email));
      const before = await head(t);
      const res = await t.api.call(useraction, 'UserDelete', {
        token,
        user: { email: user.email, password: GOOD_PASSWORD },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const entries = await since(t, before);
      expectOne(
        entries.filter((e) => e.actorKind === 'customer'),
        { kind: 'security', action: 'account.delete', actor: as(user), subject: user.id },
      );
      expect(entries.filter((e) => e.actorKind !== 'customer').map((e) => e.action)).toEqual(['audit.anonymise']);
    });
  });

  it('portal-admin audit:verify passes after all of it', async () => {
    await verifies(t);
  });
});

// ---- the Stripe portal: signed webhooks and the reconciliation -----------------------------------

describe('on the Stripe portal: signed webhooks', () => {
  const SECRET = 'whsec_coverage0123456789';
  let standIn: StandIn;
  let t: TestApp;
  let priceId: (lookupKey: string) => string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ standIn, t, priceId, close } = await startStripeApp(SECRET, ['Pepper']));
  });
  afterAll(() => close());

  let counter = 0;
  const next = () => ++counter;
  const nowS = () => Math.floor(t.clock.now().getTime() / 1000);
  const stripe = (id: string) => ({ kind: 'stripe', id });

  async function deliver(type: string, object: unknown, id = `evt_cov_${next()}`, created = nowS()) {
    const res = await postSignedPayload(t, JSON.stringify(stripeEvent(type, object, { id, created })), SECRET);
    return { res, id };
  }

  /** A plan bought through Stripe Checkout, fulfilled by its webhook; answers its ids. */
  async function buyPlan(user: SignedIn, lookupKey = 'price_standard_monthly_gbp', product = 'prod_standard') {
    const res = await checkout(t, user, [line(product, priceId(lookupKey))]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { session_id } = res.body.session as { session_id: string };
    const n = next();
    const subId = `sub_cov_${n}`;
    standInSubscription(standIn, subId, priceId(lookupKey), nowS() + 30 * ONE_DAY_S, { created: nowS() });
    standIn.invoices.set(`in_cov_${n}`, {
      object: 'invoice',
      id: `in_cov_${n}`,
      payments: { object: 'list', data: [{ payment: { type: 'payment_intent', payment_intent: `pi_cov_${n}` } }] },
    });
    const session = standIn.sessions.get(session_id) as Record<string, unknown>;
    Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subId, invoice: `in_cov_${n}` });
    const before = await head(t);
    const { res: delivered, id } = await deliver('checkout.session.completed', session);
    expect(delivered.statusCode, delivered.body).toBe(200);
    return { subId, paymentIntent: `pi_cov_${n}`, sessionId: session_id, session, before, eventId: id };
  }

  const invoice = (id: string, subId: string, extra: Record<string, unknown> = {}) =>
    stripeInvoice(id, subId, nowS() + 60 * ONE_DAY_S, extra);
  const charge = (paymentIntent: string, refunds: { id: string; amount: number }[]) =>
    stripeCharge(paymentIntent, 1500, refunds);
  const dispute = (paymentIntent: string, status: string) => stripeDispute(paymentIntent, 1500, status);

  /** Each event that changes state: how to make it, and the entry it writes. */
  const EVENTS: {
    type: string;
    action: string;
    make(user: SignedIn): Promise<{ object: unknown; target: string }>;
  }[] = [
    {
      type: 'customer.subscription.updated',
      action: 'subscription.update',
      async make(user) {
        const { subId } = await buyPlan(user);
        const sub = standIn.subscriptions.get(subId) as Record<string, unknown>;
        return { object: { ...sub, cancel_at_period_end: true }, target: subId };
      },
    },
    {
      type: 'customer.subscription.created',
      action: 'subscription.update',
      async make(user) {
        const { subId } = await buyPlan(user);
        return { object: standIn.subscriptions.get(subId), target: subId };
      },
    },
    {
      type: 'customer.subscription.deleted',
      action: 'subscription.end',
      async make(user) {
        const { subId } = await buyPlan(user);
        const sub = standIn.subscriptions.get(subId) as Record<string, unknown>;
        return { object: { ...sub, status: 'canceled' }, target: subId };
      },
    },
    {
      type: 'invoice.paid',
      action: 'subscription.renew',
      async make(user) {
        const { subId } = await buyPlan(user);
        return { object: invoice(`in_renew_${next()}`, subId), target: subId };
      },
    },
    {
      type: 'invoice.payment_failed',
      action: 'subscription.payment_failed',
      async make(user) {
        const { subId } = await buyPlan(user);
        return { object: invoice(`in_fail_${next()}`, subId), target: subId };
      },
    },
    {
      type: 'charge.refunded',
      action: 'payment.refund',
      async make(user) {
        const { paymentIntent } = await buyPlan(user);
        const [paid] = await payments(t, user);
        return {
          object: charge(paymentIntent, [{ id: `re_cov_${next()}`, amount: 500 }]),
          target: paid?.payment_id as string,
        };
      },
    },
    {
      type: 'charge.dispute.created',
      action: 'payment.dispute_open',
      async make(user) {
        const { paymentIntent } = await buyPlan(user);
        const [paid] = await payments(t, user);
        return { object: dispute(paymentIntent, 'needs_response'), target: paid?.payment_id as string };
      },
    },
    {
      type: 'charge.dispute.closed',
      action: 'payment.dispute_lost',
      async make(user) {
        const { paymentIntent } = await buyPlan(user);
        const [paid] = await payments(t, user);
        await deliver('charge.dispute.created', dispute(paymentIntent, 'needs_response'));
        return { object: dispute(paymentIntent, 'lost'), target: paid?.payment_id as string };
      },
    },
    {
      type: 'charge.dispute.closed',
      action: 'payment.dispute_won',
      async make(user) {
        const { paymentIntent } = await buyPlan(user);
        const [paid] = await payments(t, user);
        await deliver('charge.dispute.created', dispute(paymentIntent, 'needs_response'));
        return { object: dispute(paymentIntent, 'won'), target: paid?.payment_id as string };
      },
    },
    {
      type: 'checkout.session.expired',
      action: 'checkout.expire',
      async make(user) {
        const res = await checkout(t, user, [line('prod_standard', priceId('price_standard_monthly_gbp'))]);
        const { session_id } = res.body.session as { session_id: string };
        const session = standIn.sessions.get(session_id) as Record<string, unknown>;
        return { object: { ...session, status: 'expired' }, target: session_id };
      },
    },
  ];

  it('checkout.session.completed: one change entry by the event, the fulfilment', async () => {
    const user = await signIn(t);
    const bought = await buyPlan(user);
    expectOne(await since(t, bought.before), {
      kind: 'change',
      action: 'checkout.fulfil',
      actor: stripe(bought.eventId),
      subject: user.id,
      target: bought.sessionId,
    });
    // Delivered again (a new event id for the same session, as a retry of the success page's race would be): nothing.
    const again = await head(t);
    expect((await deliver('checkout.session.completed', bought.session)).res.statusCode).toBe(200);
    expect(await since(t, again)).toEqual([]);
  });

  for (const e of EVENTS)
    it(`${e.type} (${e.action}): one change entry by the event; the same delivery again writes none`, async () => {
      const user = await signIn(t);
      const { object, target } = await e.make(user);
      const before = await head(t);
      const id = `evt_cov_${next()}`;
      const { res } = await deliver(e.type, object, id);
      expect(res.statusCode, res.body).toBe(200);
      expectOne(await since(t, before), {
        kind: 'change',
        action: e.action,
        actor: stripe(id),
        subject: user.id,
        target,
      });
      const again = await head(t);
      expect((await deliver(e.type, object, id)).res.statusCode).toBe(200);
      expect(await since(t, again)).toEqual([]);
    });

  it('an event that changes nothing records nothing: out of order, our own refund echoed back, an unknown payment', async () => {
    const user = await signIn(t);
    const { subId, paymentIntent } = await buyPlan(user);
    const sub = standIn.subscriptions.get(subId) as Record<string, unknown>;
    expect((await deliver('customer.subscription.updated', sub, `evt_new_${next()}`, nowS() + 10)).res.statusCode).toBe(
      200,
    );
    const before = await head(t);
    // Older than the state applied: stale.
    expect((await deliver('customer.subscription.updated', sub, `evt_old_${next()}`, nowS() - 10)).res.statusCode).toBe(
      200,
    );
    expect(await since(t, before)).toEqual([]);

    // The portal's refund: one entry by the key; its charge.refunded echo, none.
    const [paid] = await payments(t, user);
    const refunded = await head(t);
    const res = await asOperator(t, operator)('RefundPayment', { payment_id: paid?.payment_id, refund_amount: 200 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectOne(await since(t, refunded), {
      kind: 'change',
      action: 'payment.refund',
      actor: { kind: 'key', id: 'legacy' },
      subject: user.id,
      target: paid?.payment_id as string,
    });
    const [refund] = rowsOf(
      await t.app.deps.db.execute(
        sql`select provider_refund_id from payment_refunds where payment_id = ${paid?.payment_id as string}`,
      ),
    ) as { provider_refund_id: string }[];
    const echoed = await head(t);
    expect(refund?.provider_refund_id).toMatch(/^re_/);
    await deliver(
      'charge.refunded',
      charge(paymentIntent, [{ id: refund?.provider_refund_id as string, amount: 200 }]),
    );
    await deliver('charge.refunded', charge('pi_nobody_knows', [{ id: `re_stranger_${next()}`, amount: 200 }]));
    expect(await since(t, echoed)).toEqual([]);
  });

  it('a refund Stripe refuses writes no change entry (the provider is called before the transaction)', async () => {
    const user = await signIn(t);
    await buyPlan(user);
    const [paid] = await payments(t, user);
    standIn.failing.add('/v1/refunds');
    const before = await head(t);
    try {
      const res = await asOperator(t, operator)('RefundPayment', { payment_id: paid?.payment_id, refund_amount: 200 });
      expect(res.status).toBeGreaterThanOrEqual(500);
    } finally {
      standIn.failing.delete('/v1/refunds');
    }
    expect(await since(t, before)).toEqual([]);
    expect((await payments(t, user))[0]).toMatchObject({ refunded_amount: 0 });
  });

  it('the entry is in the event’s transaction: a failure after it rolls both back, and Stripe’s retry applies once', async () => {
    const user = await signIn(t);
    const { subId } = await buyPlan(user);
    const audit = t.app.services.audit;
    const record = audit.record.bind(audit);
    const spy = vi.spyOn(audit, 'record').mockImplementationOnce(async (tx, input) => {
      await record(tx, input);
      throw new Error('forced failure after the entry was written');
    });
    const failed = invoice(`in_forced_${next()}`, subId);
    const id = `evt_forced_${next()}`;
    const before = await head(t);
    try {
      expect((await deliver('invoice.payment_failed', failed, id)).res.statusCode).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect(await since(t, before)).toEqual([]);
    expect((await deliver('invoice.payment_failed', failed, id)).res.statusCode).toBe(200);
    expectOne(await since(t, before), {
      kind: 'change',
      action: 'subscription.payment_failed',
      actor: stripe(id),
      subject: user.id,
    });
  });

  it('the reconciliation: one entry per repair by system reconciliation, and one for the run by the key', async () => {
    const user = await signIn(t);
    const { subId } = await buyPlan(user);
    // Cancelled at Stripe, the webhook lost.
    Object.assign(standIn.subscriptions.get(subId) as Record<string, unknown>, {
      status: 'canceled',
      cancellation_details: { reason: 'cancellation_requested' },
    });
    const before = await head(t);
    const res = await asOperator(t, operator)('RunReconciliation', {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const entries = await since(t, before);
    const repairs = entries.filter((e) => e.actorKind === 'system');
    expect(repairs.map(shape)).toContainEqual(
      expect.objectContaining({
        actor: { kind: 'system', id: 'reconciliation' },
        action: 'subscription.end',
        subject: user.id,
        target: subId,
      }),
    );
    expect(repairs).toHaveLength((res.body.run as { repaired: number }).repaired);
    expect(entries.filter((e) => e.actorKind === 'key').map((e) => e.action)).toEqual(['job.reconciliation']);
  });

  it('portal-admin audit:verify passes after all of it', async () => {
    await verifies(t);
  });
});
