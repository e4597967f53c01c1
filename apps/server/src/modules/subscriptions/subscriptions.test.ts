import { license, ONE_DAY_MS, ONE_DAY_S, payment, robots, time, useraction } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { robotLicenses } from '../../db/schema.ts';
import {
  as,
  driverAsset,
  expectFieldError,
  hardwareHash,
  nextIp,
  relogin,
  type SignedIn,
  signIn,
  useTestApp,
} from '../../test/fixtures.ts';
import { GOOD_PASSWORD } from '../../test/harness.ts';
import {
  confirmReview,
  durableMinutes,
  line,
  PUBLIC,
  robotLicensesOf,
  SUCCESS,
} from '../payment/payment.test-helpers.ts';
import {
  active,
  billingPage,
  buy,
  endPeriod,
  fillSlots,
  listed,
  mails,
  ops,
  PLAN,
  payments,
  planRow,
  runLifecycle,
  slotAmount,
  tierName,
  userTime,
} from './subscriptions.test-helpers.ts';

/**
 * The subscription lifecycle through the sandbox (docs/decisions/019): its checkout, its billing
 * page and its clock (EndSubscriptionPeriod, RunLifecycle) call the same lifecycle functions as
 * Stripe's webhook (stripe-lifecycle.test.ts). Every test seeds its own account.
 */
const t = useTestApp();

beforeAll(async () => {
  for (const model of ['Pepper', 'Nao', 'Rhino']) await driverAsset(t, model);
});

/** Moves the clock on; the access token has expired by then, so the user signs in again. */
async function later(user: SignedIn, ms: number): Promise<SignedIn> {
  t.clock.advance(ms);
  return relogin(t, user);
}

const DECLINING_CARD = '4000000000000002';
const GOOD_CARD = { card_number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' };

/** The user's robot licenses as stored, ended ones included (GetLicenses lists only live ones). */
const ownLicenseRows = (userId: string) =>
  t.app.deps.db.select().from(robotLicenses).where(eq(robotLicenses.userId, userId));

describe('a plan purchase', () => {
  it('creates the user subscription with the tier and slot count the plan grants', async () => {
    const user = await signIn(t);
    expect(await tierName(t, user)).toBe('Lite Subscription');
    await buy(t, user, [PLAN.standardMonthly]);
    expect(await tierName(t, user)).toBe('Standard Subscription');
    expect(await slotAmount(t, user)).toBe(1);
    const plan = await planRow(t, user);
    expect(plan).toMatchObject({
      status: 'active',
      subscription_tier: 'Standard Subscription',
      asset_id: 'prod_standard',
    });
    expect(plan.stripe_id).toMatch(/^sub_sandbox_/);
    // 30 days of the monthly price: created_at + duration is the period's end (spec/001 §9).
    expect(plan.duration).toBe(30 * ONE_DAY_S);
    expect(await active(t, user)).toMatchObject({ user_subscriptions: [{ uuid: plan.uuid }], overrideReason: 99 });
    const one = await as(t, user, payment)('GetSubscription', { subscription_id: plan.stripe_id });
    expect(one.body.subscription).toMatchObject({ subscription_id: plan.stripe_id, status: 'active' });
  });
});

describe('upgrade and downgrade', () => {
  it('an upgrade changes the existing subscription: exactly one plan, Pro, infinite time, three slots', async () => {
    const user = await signIn(t);
    await buy(t, user, [PLAN.standardMonthly]);
    const before = await planRow(t, user);
    const res = await as(
      t,
      user,
      payment,
    )('HandlePurchase', {
      session: { products: [PLAN.proMonthly], success_url: SUCCESS, cancel_url: `${PUBLIC}/dashboard/cart/cancel` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const session = res.body.session as { session_id: string; session_url: string; amount: number };
    // Reviewed before it is charged (issue 31): the session is the server's review page, and
    // nothing changes until its Confirm, which goes to the success page showing the amount charged.
    expect(session.session_url).toBe(`${PUBLIC}/billing/review/${session.session_id}`);
    expect((await payments(t, user)).map((p) => p.kind)).toEqual(['checkout']);
    expect((await planRow(t, user)).subscription_tier).toBe('Standard Subscription');
    const redirected = await confirmReview(t, session.session_url);
    expect(redirected.headers.location).toBe(`${SUCCESS}?session_id=${session.session_id}`);
    const confirmed = await as(t, user, payment)('ConfirmPurchase', { session_id: session.session_id });
    expect(confirmed.body.purchase).toMatchObject({ status: 'paid', amount: session.amount });

    const after = await planRow(t, user);
    expect(after).toMatchObject({
      uuid: before.uuid,
      stripe_id: before.stripe_id,
      subscription_tier: 'Pro Subscription',
    });
    expect((await listed(t, user)).user_subscriptions).toHaveLength(1);
    expect((await userTime(t, user)).has_infinite_time).toBe(true);
    expect(await slotAmount(t, user)).toBe(3);
    // Prorated: most of a month of the difference (4900 - 1500) was charged at once.
    expect(session.amount).toBeGreaterThan(3000);
    expect(session.amount).toBeLessThanOrEqual(3400);
    expect((await payments(t, user)).map((p) => p.kind)).toEqual(['plan_change', 'checkout']);
  });

  it('a plan cannot be changed together with other lines', async () => {
    const user = await signIn(t);
    await buy(t, user, [PLAN.standardMonthly]);
    const res = await as(
      t,
      user,
      payment,
    )('HandlePurchase', {
      session: {
        products: [PLAN.pepper, line('prod_pro', 'price_pro_yearly_gbp')],
        success_url: SUCCESS,
        cancel_url: SUCCESS,
      },
    });
    expectFieldError(res, 400, 'session.products.1.id');
    expect((await planRow(t, user)).subscription_tier).toBe('Standard Subscription');
  });

  it('a downgrade empties the highest-numbered slots, their licences stop working, and the customer is told', async () => {
    const user = await signIn(t);
    await buy(t, user, [PLAN.proMonthly]);
    expect(await slotAmount(t, user)).toBe(3);
    const saved = await fillSlots(t, user, ['driver-pepper', 'driver-nao', 'driver-rhino']);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await robotLicensesOf(t, user)).length).toBe(3);

    const billing = await billingPage(t, user);
    const res = await billing.post('plan', { price_id: 'price_standard_monthly_gbp' });
    expect(res.statusCode, res.body).toBe(303);

    expect(await tierName(t, user)).toBe('Standard Subscription');
    const slots = await as(t, user, time)('GET_SLOTS', { email: undefined, user_email: user.email });
    expect(slots.body).toMatchObject({ user_slot_amount: 1, user_slots: [{ slot_id: 0, robot_id: 'driver-pepper' }] });
    // Slots 2 and 3 were emptied: their flexible licences are gone, Pepper's stays.
    const licenses = await robotLicensesOf(t, user);
    expect(licenses).toHaveLength(1);
    const [mail] = mails(t, user, /flexible license slots were reduced/);
    expect(mail?.text).toContain('slot 2 (Nao), slot 3 (Rhino)');
    expect(mails(t, user, /Your plan is now Standard Subscription/)).toHaveLength(1);
    expect((await listed(t, user)).user_subscriptions).toHaveLength(1);
  });
});

describe('renewal, payment failure, cancellation and expiry', () => {
  it('renews when the period ends, charging once however often the job runs', async () => {
    let user = await signIn(t);
    await buy(t, user, [PLAN.standardMonthly]);
    const plan = await planRow(t, user);
    user = await later(user, 31 * ONE_DAY_MS);
    expect(await tierName(t, user)).toBe('Lite Subscription');
    const first = await runLifecycle(t);
    expect(first.renewed).toBeGreaterThanOrEqual(1);
    await runLifecycle(t);
    const renewed = await planRow(t, user);
    expect(renewed.status).toBe('active');
    expect(renewed.duration).toBe(60 * ONE_DAY_S);
    expect(await tierName(t, user)).toBe('Standard Subscription');
    expect((await payments(t, user)).filter((p) => p.kind === 'renewal')).toHaveLength(1);
    expect(renewed.uuid).toBe(plan.uuid);
  });

  it('a failed renewal keeps the plan and its tier, flagged, and asks for a new card once; a working card renews it', async () => {
    const user = await signIn(t);
    await buy(t, user, [PLAN.standardMonthly]);
    const plan = await planRow(t, user);
    const billing = await billingPage(t, user);
    expect((await billing.post('card', { ...GOOD_CARD, card_number: DECLINING_CARD })).statusCode).toBe(303);

    const ended = await endPeriod(t, plan.stripe_id);
    expect(ended).toMatchObject({ run: { payment_failed: 1 }, statuses: ['active'] });
    expect((await planRow(t, user)).payment_failed_at).toBeGreaterThan(0);
    expect(await tierName(t, user)).toBe('Standard Subscription');
    expect(await slotAmount(t, user)).toBe(1);
    expect(mails(t, user, /Your payment failed/)).toHaveLength(1);
    expect((await payments(t, user))[0]).toMatchObject({ kind: 'renewal', status: 'failed' });
    // Plan changes wait for the payment.
    const change = await billing.post('plan', { price_id: 'price_pro_monthly_gbp' });
    expect(change.body + (change.headers.location ?? '')).toMatch(/payment|failed|card/i);
    expect(await tierName(t, user)).toBe('Standard Subscription');

    expect((await billing.post('card', GOOD_CARD)).statusCode).toBe(303);
    expect(await planRow(t, user)).toMatchObject({ status: 'active', payment_failed_at: 0 });
    expect(await tierName(t, user)).toBe('Standard Subscription');
    expect(await slotAmount(t, user)).toBe(1);
    expect((await payments(t, user)).filter((p) => p.kind === 'renewal' && p.status === 'paid')).toHaveLength(1);
  });

  it('the sandbox has nothing to reconcile with Stripe', async () => {
    const res = await ops(t)('RunReconciliation', {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.run).toMatchObject({ skipped: true, repaired: 0, unexplained: 0 });
  });

  it('the billing clock retries a failed renewal on days 1, 3 and 5, then the plan expires', async () => {
    let user = await signIn(t);
    await buy(t, user, [PLAN.standardMonthly]);
    const plan = await planRow(t, user);
    const billing = await billingPage(t, user);
    await billing.post('card', { ...GOOD_CARD, card_number: DECLINING_CARD });
    await endPeriod(t, plan.stripe_id);
    const failedRenewals = async () =>
      (await payments(t, user)).filter((p) => p.kind === 'renewal' && p.status === 'failed').length;
    expect(await failedRenewals()).toBe(1);

    // Half a day on: no retry yet. Each retry day: one more attempt, the plan still working.
    for (const [hours, attempts] of [
      [12, 1],
      [12, 2],
      [24, 2],
      [24, 3],
      [24, 3],
      [24, 4],
    ] as const) {
      user = await later(user, hours * 3600 * 1000);
      await runLifecycle(t);
      await runLifecycle(t);
      expect(await failedRenewals(), `after ${hours} more hours`).toBe(attempts);
      if (attempts < 4) {
        expect((await planRow(t, user)).status).toBe('active');
        expect(await tierName(t, user)).toBe('Standard Subscription');
      }
    }
    const row = (await listed(t, user)).user_subscriptions.find((s) => s.uuid === plan.uuid);
    expect(row?.status).toBe('expired');
    expect(await tierName(t, user)).toBe('Lite Subscription');
    expect(mails(t, user, /Your payment failed/)).toHaveLength(1);
    expect(mails(t, user, /stopped working/)).toHaveLength(1);
  });

  it('cancel at period end keeps the plan working until its end, then it is Cancelled; resume undoes it', async () => {
    const user = await signIn(t);
    await buy(t, user, [PLAN.standardMonthly]);
    const plan = await planRow(t, user);
    const billing = await billingPage(t, user);
    expect((await billing.post('cancel', { subscription: plan.stripe_id })).statusCode).toBe(303);
    expect(await planRow(t, user)).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect(await tierName(t, user)).toBe('Standard Subscription');
    const page = await t.app.inject({ method: 'GET', url: billing.path });
    expect(page.body).toContain('Active, cancels at period end');

    expect((await billing.post('resume', { subscription: plan.stripe_id })).statusCode).toBe(303);
    expect((await planRow(t, user)).cancel_at_period_end).toBe(false);
    expect((await billing.post('cancel', { subscription: plan.stripe_id })).statusCode).toBe(303);

    expect(await endPeriod(t, plan.stripe_id)).toMatchObject({ run: { ended: 1 }, statuses: ['cancelled'] });
    const row = (await listed(t, user)).user_subscriptions.find((s) => s.uuid === plan.uuid);
    expect(row).toMatchObject({ status: 'cancelled', cancel_at_period_end: false });
    expect(await tierName(t, user)).toBe('Lite Subscription');
    expect((await payments(t, user)).filter((p) => p.kind === 'renewal')).toEqual([]);
    expect(mails(t, user, /stopped working/)[0]?.text).toContain('your Standard Subscription');
  });

  it('a driver licence cancelled at period end stops working at its end date', async () => {
    let user = await signIn(t);
    await buy(t, user, [PLAN.pepper]);
    const [driver] = (await listed(t, user)).robot_driver_subscriptions;
    expect(driver).toMatchObject({ status: 'active', duration: 365 * ONE_DAY_S });
    const billing = await billingPage(t, user);
    expect((await billing.post('cancel', { subscription: driver?.stripe_id ?? '' })).statusCode).toBe(303);
    user = await later(user, 366 * ONE_DAY_MS);
    expect((await runLifecycle(t)).ended).toBeGreaterThanOrEqual(1);
    const [after] = (await listed(t, user)).robot_driver_subscriptions;
    expect(after?.status).toBe('cancelled');
    // The licence ended with its subscription (created_at + duration), so the Robot Manager no
    // longer lists it.
    const [lic] = await ownLicenseRows(user.id);
    expect(lic?.endsAt.getTime()).toBe((driver?.created_at ?? 0) + 365 * ONE_DAY_MS);
    expect(await robotLicensesOf(t, user)).toEqual([]);
    expect(mails(t, user, /stopped working/)[0]?.text).toContain('Pepper driver licence');
  });

  it("an operator's grant wins over a paid plan while it lasts, and expires at its end", async () => {
    let user = await signIn(t);
    await buy(t, user, [PLAN.proMonthly]);
    const grant = await ops(t)('GrantSubscription', {
      email: user.email,
      tier: 'Standard Subscription',
      override_kind: 0,
      duration_s: ONE_DAY_S,
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    expect(await tierName(t, user)).toBe('Standard Subscription');
    expect(await slotAmount(t, user)).toBe(1);
    const activeNow = await active(t, user);
    expect(activeNow.overrideReason).toBe(0);
    expect(activeNow.user_subscriptions.map((s) => s.subscription_tier)).toEqual(['Standard Subscription']);

    user = await later(user, 2 * ONE_DAY_MS);
    await runLifecycle(t);
    const rows = (await listed(t, user)).user_subscriptions;
    expect(rows.find((s) => s.overrideReason === 0)?.status).toBe('expired');
    // The paid Pro plan (its period still running) decides again.
    expect(await tierName(t, user)).toBe('Pro Subscription');
    expect(await slotAmount(t, user)).toBe(3);
  });
});

describe('reminders', () => {
  it('go out 30 and 7 days before a yearly plan renews, once per period', async () => {
    const user = await signIn(t);
    await buy(t, user, [PLAN.standardYearly]);
    const reminders = () => mails(t, user, /renews on/);
    t.clock.advance(336 * ONE_DAY_MS);
    await runLifecycle(t);
    await runLifecycle(t);
    expect(reminders()).toHaveLength(1);
    expect(reminders()[0]?.text).toContain('in 30 days');
    t.clock.advance(23 * ONE_DAY_MS);
    await runLifecycle(t);
    await runLifecycle(t);
    expect(reminders()).toHaveLength(2);
    expect(reminders()[1]?.text).toContain('in 7 days');
    // The next period gets its own reminders.
    t.clock.advance(7 * ONE_DAY_MS);
    await runLifecycle(t);
    t.clock.advance(336 * ONE_DAY_MS);
    await runLifecycle(t);
    expect(reminders()).toHaveLength(3);
  });

  it('say "ends" for a driver licence cancelled at period end, and nothing for a monthly plan', async () => {
    const user = await signIn(t);
    await buy(t, user, [PLAN.pepper]);
    await buy(t, user, [PLAN.standardMonthly]);
    const [driver] = (await listed(t, user)).robot_driver_subscriptions;
    await (await billingPage(t, user)).post('cancel', { subscription: driver?.stripe_id ?? '' });
    t.clock.advance(360 * ONE_DAY_MS);
    await runLifecycle(t);
    const ends = mails(t, user, /driver licence ends on/);
    expect(ends).toHaveLength(1);
    expect(ends[0]?.text).toContain('in 7 days');
    expect(mails(t, user, /Standard Subscription (renews|ends)/)).toEqual([]);
  });
});

describe('refunds', () => {
  it('a partial refund takes nothing back; the refund that completes it revokes the grant, once', async () => {
    const user = await signIn(t);
    await buy(t, user, [PLAN.pepper, PLAN.time60]);
    expect(await durableMinutes(t, user)).toBe(60);
    const [paid] = await payments(t, user);
    expect(paid).toMatchObject({ kind: 'checkout', amount: 14_900 + 1200, refunded_amount: 0 });

    const part = await ops(t)('RefundPayment', { payment_id: paid?.payment_id, refund_amount: 1000 });
    expect(part.status, JSON.stringify(part.body)).toBe(200);
    expect(part.body.payment).toMatchObject({ refunded_amount: 1000, revoked: false });
    expect((await listed(t, user)).robot_driver_subscriptions[0]?.status).toBe('active');

    expectFieldError(
      await ops(t)('RefundPayment', { payment_id: paid?.payment_id, refund_amount: 99_999 }),
      400,
      'refund_amount',
    );
    const [rest, again] = await Promise.all([
      ops(t)('RefundPayment', { payment_id: paid?.payment_id }),
      ops(t)('RefundPayment', { payment_id: paid?.payment_id }),
    ]);
    const statuses = [rest.status, again.status].sort();
    expect(statuses).toEqual([200, 409]);
    const done = (rest.status === 200 ? rest : again).body.payment;
    expect(done).toMatchObject({ refunded_amount: 16_100, revoked: true });

    expect((await listed(t, user)).robot_driver_subscriptions[0]?.status).toBe('cancelled');
    expect(await durableMinutes(t, user)).toBe(0);
    const [lic] = await ownLicenseRows(user.id);
    expect(lic?.endsAt.getTime()).toBeLessThanOrEqual(t.clock.now().getTime());
    expect(await robotLicensesOf(t, user)).toEqual([]);
    expect(mails(t, user, /Your refund of/)).toHaveLength(2);
    expectFieldError(await ops(t)('RefundPayment', { payment_id: paid?.payment_id }), 409, 'payment_id');
  });

  it('a refunded plan ends now and the tier drops', async () => {
    const user = await signIn(t);
    await buy(t, user, [PLAN.proMonthly]);
    const [paid] = await payments(t, user);
    expect((await ops(t)('RefundPayment', { payment_id: paid?.payment_id })).status).toBe(200);
    expect(await tierName(t, user)).toBe('Lite Subscription');
    expect((await listed(t, user)).user_subscriptions[0]?.status).toBe('cancelled');
  });
});

describe('account deletion', () => {
  it('cancels live subscriptions first, ends the shares, then deletes', async () => {
    const owner = await signIn(t);
    const friend = await signIn(t);
    await buy(t, owner, [PLAN.pepper]);
    await buy(t, owner, [PLAN.standardMonthly]);
    const [lic] = await robotLicensesOf(t, owner);
    const robot = await as(
      t,
      owner,
      robots,
    )('REGISTERSIM', {
      make: 'Pepper',
      model: 'Pepper',
      name: 'Shared Pepper',
      hardware_hash: hardwareHash(),
    });
    const paired = await as(
      t,
      owner,
      license,
      nextIp(),
    )('PAIRROBOT', {
      pair_code: lic?.pair_code,
      robot_id: (robot.body.robot as { robot_id: string }).robot_id,
    });
    expect(paired.status, JSON.stringify(paired.body)).toBe(200);
    const shared = await as(
      t,
      owner,
      license,
    )('SHARELICENSE', {
      license_id: lic?.robot_license.license_id,
      recipient_email: friend.email,
      duration: ONE_DAY_S,
    });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    const seen = async () =>
      (await as(t, friend, license)('GetLicenses', {})).body.user_licenses as
        | { shared_robot_licenses: unknown[] }
        | undefined;
    expect((await seen())?.shared_robot_licenses).toHaveLength(1);

    const deleted = await t.api.call(useraction, 'UserDelete', {
      token: owner.token,
      user: { email: owner.email, password: GOOD_PASSWORD },
    });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect((await seen())?.shared_robot_licenses ?? []).toEqual([]);
    expect(await payments(t, friend)).toEqual([]);
    const gone = await ops(t)('ListPayments', { email: owner.email });
    expectFieldError(gone, 404, 'email');
  });
});

describe('the billing portal', () => {
  it('answers the sandbox billing page; it shows the card, payments and receipts with company and VAT', async () => {
    const user = await signIn(t);
    await buy(t, user, [PLAN.standardMonthly]);
    const billing = await billingPage(t, user);
    expect(billing.url).toMatch(new RegExp(`^${PUBLIC}/sandbox/billing/bps_sandbox_[0-9a-f]{32}$`));
    expect(billing.page.statusCode).toBe(200);
    expect(billing.page.body).toContain('Sandbox — no real payment');
    expect(billing.page.body).toContain('Card ending 4242');
    expect(billing.page.body).not.toContain('<script');
    const saved = await billing.post('details', {
      company: 'Acme Robots Ltd',
      vat_number: 'gb 123 456 789',
      name: 'Ada Lovelace',
      line1: '1 Analytical Row',
      city: 'London',
      postcode: 'N1 9GU',
      country: 'United Kingdom',
    });
    expect(saved.statusCode, saved.body).toBe(303);
    // A later payment's receipt shows them.
    await buy(t, user, [PLAN.time60]);
    const page = await t.app.inject({ method: 'GET', url: billing.path });
    const receipts = [...page.body.matchAll(/href="([^"]+\/receipts\/[^"]+)"/g)].map((m) => m[1] as string);
    expect(receipts).toHaveLength(2);
    const receipt = await t.app.inject({ method: 'GET', url: receipts[0] as string });
    expect(receipt.statusCode).toBe(200);
    expect(receipt.body).toContain('Acme Robots Ltd');
    expect(receipt.body).toContain('VAT GB123456789');
  });

  it('refuses posts from elsewhere, with a wrong token, or after the link expired; a bad VAT number names the field', async () => {
    const user = await signIn(t);
    await buy(t, user, [PLAN.standardMonthly]);
    const plan = await planRow(t, user);
    const billing = await billingPage(t, user);
    expect(
      (await billing.post('cancel', { subscription: plan.stripe_id }, { origin: 'https://evil.example' })).statusCode,
    ).toBe(403);
    const forged = await t.app.inject({
      method: 'POST',
      url: `${billing.path}/cancel`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC },
      payload: new URLSearchParams({ token: 'forged', subscription: plan.stripe_id }).toString(),
    });
    expect(forged.statusCode).toBe(403);
    const vat = await billing.post('details', {
      vat_number: '12',
      name: 'A',
      line1: 'B',
      city: 'C',
      postcode: 'D',
      country: 'E',
    });
    expect(vat.statusCode).toBe(400);
    expect(vat.body).toContain('VAT number: ');
    expect((await planRow(t, user)).cancel_at_period_end).toBe(false);
    t.clock.advance(2 * 60 * 60 * 1000);
    expect((await t.app.inject({ method: 'GET', url: billing.path })).statusCode).toBe(404);
  });

  it('refuses a return_url off the portal and another account’s customer id', async () => {
    const user = await signIn(t);
    expectFieldError(
      await as(t, user, payment)('CreateBillingPortalSession', { return_url: 'https://evil.example/back' }),
      400,
      'return_url',
    );
    expectFieldError(
      await as(
        t,
        user,
        payment,
      )('CreateBillingPortalSession', {
        return_url: `${PUBLIC}/dashboard`,
        customer_id: 'cus_sandbox_someone_else',
      }),
      403,
      'customer_id',
    );
  });
});
