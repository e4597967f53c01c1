import { DEFAULT_GRANT_DURATION_S, ONE_DAY_MS, ONE_DAY_S, operator, time, type UserTime } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  as,
  asOperator,
  closeApp,
  expectFieldError,
  JUNK_BODIES,
  OPERATOR_TOKEN,
  roboticsConfig,
  type SignedIn,
  signIn,
  useTestApp,
} from '../../test/fixtures.ts';
import { testApp } from '../../test/harness.ts';
import { subscriptionRepository } from '../subscriptions/subscriptions.repository.ts';

const t = useTestApp();

const ops = () => asOperator(t, operator);
const check = async (user: SignedIn) => {
  const res = await as(t, user, time)('CHECK_REMAINING_TIME', { user_id: user.id });
  expect(res.status).toBe(200);
  return res.body.user_time as UserTime;
};
const slots = async (user: SignedIn) =>
  (await as(t, user, time)('GET_SLOTS', { email: undefined, user_email: user.email })).body.user_slot_amount;

describe('GrantSubscription', () => {
  it('grants Pro, and the user then has infinite dial time', async () => {
    const user = await signIn(t);
    expect((await check(user)).has_infinite_time).toBe(false);

    const res = await ops()('GrantSubscription', {
      email: user.email.toUpperCase(),
      tier: 'Pro Subscription',
      override_kind: 0,
      duration_s: 30 * ONE_DAY_S,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const now = t.clock.now().getTime();
    expect(res.body.subscription).toMatchObject({
      user_email: user.email,
      tier: 'Pro',
      subscription_tier: 'Pro Subscription',
      override_kind: 0,
      duration: 30 * ONE_DAY_S,
    });
    const summary = res.body.subscription as { uuid: string; start_date: number; end_date: number };
    expect(summary.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Math.abs(summary.start_date - now)).toBeLessThan(5_000);
    expect(summary.end_date - summary.start_date).toBe(30 * ONE_DAY_MS);

    const userTime = await check(user);
    expect(userTime.has_infinite_time).toBe(true);
    expect(userTime.subscription_type).toMatch(/Pro/);
  });

  it('lasts a year by default, replaces the active subscription, and Lite ends it', async () => {
    const user = await signIn(t);
    const standard = await ops()('GrantSubscription', {
      email: user.email,
      tier: 'Standard Subscription',
      override_kind: 1,
    });
    expect(standard.status).toBe(200);
    const granted = standard.body.subscription as { start_date: number; end_date: number; duration: number };
    expect(granted.duration).toBe(DEFAULT_GRANT_DURATION_S);
    expect(granted.end_date - granted.start_date).toBe(DEFAULT_GRANT_DURATION_S * 1_000);

    const pro = await ops()('GrantSubscription', { email: user.email, tier: 'Pro Subscription', override_kind: 2 });
    expect(pro.body.subscription).toMatchObject({ tier: 'Pro', override_kind: 2 });
    const active = await subscriptionRepository.active(t.app.deps.db, user.id, t.clock.now());
    expect(active.map((s) => s.tier)).toEqual(['Pro Subscription']);

    const lite = await ops()('GrantSubscription', { email: user.email, tier: 'Lite Subscription', override_kind: 1 });
    expect(lite.status).toBe(200);
    expect(lite.body.subscription).toMatchObject({ tier: 'Lite', subscription_tier: 'Lite Subscription', uuid: '' });
    expect(await subscriptionRepository.active(t.app.deps.db, user.id, t.clock.now())).toEqual([]);
    expect((await check(user)).has_infinite_time).toBe(false);
  });

  it.each([
    ['a tier that does not exist', { tier: 'Gold Subscription' }, 'tier'],
    ['a short tier name', { tier: 'Pro' }, 'tier'],
    ['no tier', { tier: undefined }, 'tier'],
    ['override kind 99 (paid)', { override_kind: 99 }, 'override_kind'],
    ['no override kind', { override_kind: undefined }, 'override_kind'],
    ['a fractional duration', { duration_s: 1.5 }, 'duration_s'],
    ['a zero duration', { duration_s: 0 }, 'duration_s'],
    ['not an email', { email: 'nobody' }, 'email'],
  ])('refuses %s with a 400 naming the field', async (_name, patch, field) => {
    const user = await signIn(t);
    const res = await ops()('GrantSubscription', {
      email: user.email,
      tier: 'Pro Subscription',
      override_kind: 1,
      ...patch,
    });
    expectFieldError(res, 400, field);
    expect(await subscriptionRepository.active(t.app.deps.db, user.id, t.clock.now())).toEqual([]);
  });
});

describe('SetSlotAmount', () => {
  it("sets and clears the grant, answering the plan's count, the grant and the count in force", async () => {
    const user = await signIn(t);
    const res = await ops()('SetSlotAmount', { email: user.email, amount: 3 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ user_slot_amount: 3, plan_slot_amount: 0, granted_slot_amount: 3 });
    expect(await slots(user)).toBe(3);

    expect((await ops()('SetSlotAmount', { email: user.email, amount: 0 })).body).toMatchObject({
      user_slot_amount: 0,
      granted_slot_amount: 0,
    });
    expect(await slots(user)).toBe(0);

    // Under a plan: the larger of the two, and clearing leaves the plan's count (docs/decisions/061).
    await ops()('GrantSubscription', { email: user.email, tier: 'Pro Subscription', override_kind: 1 });
    expect((await ops()('SetSlotAmount', { email: user.email, amount: 2 })).body).toMatchObject({
      user_slot_amount: 3,
      plan_slot_amount: 3,
      granted_slot_amount: 2,
    });
    expect((await ops()('SetSlotAmount', { email: user.email, amount: null })).body).toMatchObject({
      user_slot_amount: 3,
      plan_slot_amount: 3,
      granted_slot_amount: null,
    });
    expect(await slots(user)).toBe(3);
  });

  it.each([
    ['more than 100', 101],
    ['a negative count', -1],
    ['a fraction', 1.5],
    ['a string', '3'],
    ['no amount at all', undefined],
  ])('refuses %s with a 400 naming amount', async (_name, amount) => {
    const user = await signIn(t);
    expectFieldError(await ops()('SetSlotAmount', { email: user.email, amount }), 400, 'amount');
    expect(await slots(user)).toBe(0);
  });
});

describe('operators only', () => {
  it.each([
    ['GrantSubscription', { tier: 'Pro Subscription', override_kind: 1 }],
    ['SetSlotAmount', { amount: 5 }],
  ] as const)('%s answers 404 naming email for an address without an account', async (action, body) => {
    const res = await ops()(action, { email: 'nobody-here@example.test', ...body });
    expectFieldError(res, 404, 'email');
  });

  it.each([
    ['GrantSubscription', { tier: 'Pro Subscription', override_kind: 1 }],
    ['SetSlotAmount', { amount: 5 }],
  ] as const)('%s refuses a wrong, missing or portal credential with 403', async (action, body) => {
    const user = await signIn(t);
    const wrong = await asOperator(t, operator, `${OPERATOR_TOKEN}x`)(action, { email: user.email, ...body });
    expectFieldError(wrong, 403, 'x-operator-token');
    const missing = await t.api.post(operator.path, { action, email: user.email, ...body });
    expectFieldError(missing, 403, 'x-operator-token');
    // A signed-in portal user is not an operator, even for their own account.
    const portal = await as(t, user, operator)(action, body);
    expectFieldError(portal, 403, 'x-operator-token');

    expect((await check(user)).has_infinite_time).toBe(false);
    expect(await slots(user)).toBe(0);
  });

  it('answers 403 to the old token when the server has no OPERATOR_TOKEN (named API keys only, decision 070)', async () => {
    const bare = await testApp(t.database, roboticsConfig({ OPERATOR_TOKEN: '' }));
    try {
      const res = await asOperator(bare, operator)('SetSlotAmount', { email: 'x@example.test', amount: 1 });
      expectFieldError(res, 403, 'x-operator-token');
      expect(res.body.error.Description).toMatch(/missing, wrong or revoked/);
    } finally {
      await closeApp(bare);
    }
  });

  // RunLifecycle, ListOutbox, RunOutbox and the reconciliation's actions take no input, so no body is junk to them.
  const withInput = Object.keys(operator.actions).filter(
    (a) => !['RunLifecycle', 'ListOutbox', 'RunOutbox', 'RunReconciliation', 'GetReconciliation'].includes(a),
  );
  it.each(withInput)('%s answers junk with a 4xx naming what is wrong', async (action) => {
    for (const body of JUNK_BODIES) {
      const res = await ops()(action as keyof typeof operator.actions, body);
      expect(res.status, `${action} ${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(
        400,
      );
      expect(res.status).toBeLessThan(500);
      expect(res.body.error.Description).toMatch(/^[\w.[\]-]+: /);
    }
  });
});
