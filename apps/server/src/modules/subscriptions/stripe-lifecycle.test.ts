import { ONE_DAY_MS, ONE_DAY_S, payment, useraction } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, relogin, type SignedIn, signIn } from '../../test/fixtures.ts';
import { GOOD_PASSWORD, type TestApp } from '../../test/harness.ts';
import type { StandIn } from '../../test/stripe-stand-in.ts';
import {
  checkout,
  confirmReview,
  line,
  PUBLIC,
  postSignedPayload,
  SUCCESS,
  standInSubscription,
  startStripeApp,
  stripeInvoice,
} from '../payment/payment.test-helpers.ts';
import {
  fillSlots,
  listed,
  mails,
  ops,
  payments,
  planRow,
  slotAmount,
  tierName,
} from './subscriptions.test-helpers.ts';

/**
 * The subscription lifecycle in Stripe mode (docs/decisions/019): the real SDK against the local
 * stand-in, Stripe-shaped events with real signatures, the same lifecycle functions as the sandbox.
 */
const WEBHOOK_SECRET = 'whsec_lifecycle0123456789';

let standIn: StandIn;
let t: TestApp;
let priceId: (lookupKey: string) => string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ standIn, t, priceId, close } = await startStripeApp(WEBHOOK_SECRET, ['Pepper', 'Nao', 'Rhino']));
});
afterAll(() => close());

let counter = 0;
const next = () => ++counter;

async function webhook(type: string, object: unknown, id = `evt_${type}_${next()}`, created = nowS()) {
  const payload = JSON.stringify({ id, object: 'event', type, created, data: { object } });
  const res = await postSignedPayload(t, payload, WEBHOOK_SECRET);
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

const nowS = () => Math.floor(t.clock.now().getTime() / 1000);

/** Stripe's subscription as the customer's checkout created it, held by the stand-in. */
const stripeSubscription = (id: string, lookupKey: string, periodEndS: number) =>
  standInSubscription(standIn, id, priceId(lookupKey), periodEndS);

/** A plan bought through Stripe Checkout: the session completes and the webhook fulfils it. */
async function buyPlan(user: SignedIn, product: string, lookupKey: string) {
  const res = await checkout(t, user, [line(product, priceId(lookupKey))]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const { session_id } = res.body.session as { session_id: string };
  const n = next();
  const subId = `sub_life_${n}`;
  stripeSubscription(subId, lookupKey, nowS() + 30 * ONE_DAY_S);
  standIn.invoices.set(`in_first_${n}`, {
    object: 'invoice',
    id: `in_first_${n}`,
    payments: { object: 'list', data: [{ payment: { type: 'payment_intent', payment_intent: `pi_first_${n}` } }] },
  });
  const session = standIn.sessions.get(session_id) as Record<string, unknown>;
  Object.assign(session, {
    status: 'complete',
    payment_status: 'paid',
    subscription: subId,
    invoice: `in_first_${n}`,
    customer_details: {
      name: 'Grace Hopper',
      email: 'grace@example.test',
      address: { line1: '2 Compiler Way', city: 'Arlington', postal_code: '22201', country: 'US' },
    },
  });
  await webhook('checkout.session.completed', session);
  return subId;
}

const subObject = (id: string) => standIn.subscriptions.get(id) as Record<string, unknown>;

describe('Stripe lifecycle', () => {
  it('a plan bought at Checkout sets the tier and the slots', async () => {
    const user = await signIn(t);
    const subId = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    expect(await tierName(t, user)).toBe('Standard Subscription');
    expect(await slotAmount(t, user)).toBe(1);
    expect(await planRow(t, user)).toMatchObject({ stripe_id: subId, status: 'active' });
  });

  it('an upgrade updates the subscription item with proration: one plan, Pro', async () => {
    const user = await signIn(t);
    const subId = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    const checkouts = () => standIn.posts.filter((p) => p.path === '/v1/checkout/sessions').length;
    const before = checkouts();
    const res = await as(
      t,
      user,
      payment,
    )('HandlePurchase', {
      session: {
        products: [line('prod_pro', priceId('price_pro_monthly_gbp'))],
        success_url: SUCCESS,
        cancel_url: SUCCESS,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Reviewed first (issue 31): the update is sent at the review's Confirm.
    await confirmReview(t, (res.body.session as { session_url: string }).session_url);
    const update = standIn.posts.filter((p) => p.path === `/v1/subscriptions/${subId}`).at(-1)?.params ?? {};
    expect(update).toMatchObject({
      'items[0][id]': `si_${subId}`,
      'items[0][price]': priceId('price_pro_monthly_gbp'),
      proration_behavior: 'always_invoice',
    });
    expect(checkouts()).toBe(before);
    expect((await listed(t, user)).user_subscriptions).toHaveLength(1);
    expect(await tierName(t, user)).toBe('Pro Subscription');
    expect(await slotAmount(t, user)).toBe(3);
    // Stripe's own event about the same change changes nothing more.
    await webhook('customer.subscription.updated', subObject(subId));
    expect((await listed(t, user)).user_subscriptions).toHaveLength(1);
    expect(mails(t, user, /Your plan is now Pro Subscription/)).toHaveLength(1);
  });

  it('a downgrade in the Stripe portal trims the slots and tells the customer', async () => {
    const user = await signIn(t);
    const subId = await buyPlan(user, 'prod_pro', 'price_pro_monthly_gbp');
    await fillSlots(t, user, ['driver-pepper', 'driver-nao', 'driver-rhino']);
    const sub = stripeSubscription(subId, 'price_standard_monthly_gbp', nowS() + 30 * ONE_DAY_S);
    await webhook('customer.subscription.updated', sub);
    expect(await tierName(t, user)).toBe('Standard Subscription');
    expect(await slotAmount(t, user)).toBe(1);
    expect(mails(t, user, /flexible license slots were reduced/)[0]?.text).toContain('slot 3 (Rhino)');
  });

  it('a failed invoice keeps the plan with the payment-failed flag; a paid one renews it and clears the flag, recorded once however often it is sent', async () => {
    const user = await signIn(t);
    const subId = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    const invoice = (id: string, extra: Record<string, unknown> = {}) =>
      stripeInvoice(id, subId, nowS() + 60 * ONE_DAY_S, extra);
    await webhook('invoice.payment_failed', invoice('in_cycle_fail'));
    // Stripe retries the card for days: the plan keeps working, flagged for a new card.
    expect((await planRow(t, user)).status).toBe('active');
    expect((await planRow(t, user)).payment_failed_at).toBeGreaterThan(0);
    expect(await tierName(t, user)).toBe('Standard Subscription');
    expect(mails(t, user, /Your payment failed/)).toHaveLength(1);

    // One invoice sent twice: its period end is fixed when it is built, whatever time the calls take.
    const paid = invoice('in_cycle_paid');
    const periodEndS = paid.lines.data[0]?.period.end as number;
    await webhook('invoice.paid', paid);
    await webhook('invoice.paid', paid);
    const plan = await planRow(t, user);
    expect(plan).toMatchObject({ status: 'active', payment_failed_at: 0 });
    // The invoice's period end, to the second (durations are whole seconds).
    expect(Math.abs(plan.created_at + plan.duration * 1000 - periodEndS * 1000)).toBeLessThan(1000);
    expect(await tierName(t, user)).toBe('Standard Subscription');
    expect((await payments(t, user)).filter((p) => p.kind === 'renewal')).toHaveLength(1);
  });

  it('cancel at period end is kept until Stripe deletes the subscription, which ends the plan', async () => {
    const user = await signIn(t);
    const subId = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    await webhook('customer.subscription.updated', { ...subObject(subId), cancel_at_period_end: true });
    expect(await planRow(t, user)).toMatchObject({ status: 'active', cancel_at_period_end: true });
    await webhook('customer.subscription.deleted', {
      ...subObject(subId),
      status: 'canceled',
      cancellation_details: { reason: 'cancellation_requested' },
    });
    expect((await listed(t, user)).user_subscriptions[0]?.status).toBe('cancelled');
    expect(await tierName(t, user)).toBe('Lite Subscription');
  });

  it('a subscription Stripe ends for non-payment is expired', async () => {
    const user = await signIn(t);
    const subId = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    await webhook('customer.subscription.deleted', {
      ...subObject(subId),
      status: 'canceled',
      cancellation_details: { reason: 'payment_failed' },
    });
    expect((await listed(t, user)).user_subscriptions[0]?.status).toBe('expired');
  });

  it("answers Stripe's billing portal", async () => {
    const user = await signIn(t);
    const res = await as(t, user, payment)('CreateBillingPortalSession', { return_url: `${PUBLIC}/dashboard` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body.session as { session_url: string }).session_url).toMatch(
      /^https:\/\/billing\.stripe\.test\/p\/session\//,
    );
    expect(standIn.posts.filter((p) => p.path === '/v1/billing_portal/sessions').at(-1)?.params).toMatchObject({
      return_url: `${PUBLIC}/dashboard`,
    });
  });

  it('refunds through Stripe against the checkout’s payment, cancels the subscription, and revokes once', async () => {
    const user = await signIn(t);
    const subId = await buyPlan(user, 'prod_pro', 'price_pro_monthly_gbp');
    const [paid] = await payments(t, user);
    const res = await ops(t)('RefundPayment', { payment_id: paid?.payment_id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const refund = standIn.posts.filter((p) => p.path === '/v1/refunds').at(-1)?.params ?? {};
    expect(refund).toMatchObject({ amount: '4900' });
    expect(refund.payment_intent).toMatch(/^pi_first_/);
    expect(standIn.requests).toContain(`DELETE /v1/subscriptions/${subId}`);
    expect(await tierName(t, user)).toBe('Lite Subscription');
    expect((await ops(t)('RefundPayment', { payment_id: paid?.payment_id })).status).toBe(409);
  });

  it('deleting an account cancels its subscriptions at Stripe first; if Stripe fails, nothing is deleted', async () => {
    const user = await signIn(t);
    const subId = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    const del = () =>
      t.api.call(useraction, 'UserDelete', { token: user.token, user: { email: user.email, password: GOOD_PASSWORD } });
    standIn.failing.add(`/v1/subscriptions/${subId}`);
    const refused = await del();
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(await tierName(t, user)).toBe('Standard Subscription');
    standIn.failing.clear();

    const deleted = await del();
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(standIn.requests.filter((r) => r === `DELETE /v1/subscriptions/${subId}`).length).toBeGreaterThanOrEqual(1);
    expect((await ops(t)('ListPayments', { email: user.email })).status).toBe(404);
  });

  it('a subscription past its end with no event from Stripe expires after the grace', async () => {
    const user = await signIn(t);
    const subId = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    t.clock.advance(32 * ONE_DAY_MS);
    await ops(t)('RunLifecycle', {});
    const again = await relogin(t, user);
    expect((await planRow(t, again)).status).toBe('active');
    t.clock.advance(2 * ONE_DAY_MS);
    const run = await ops(t)('RunLifecycle', {});
    expect((run.body.run as { ended: number }).ended).toBeGreaterThanOrEqual(1);
    expect((await listed(t, await relogin(t, user))).user_subscriptions[0]?.status).toBe('expired');
    // Stripe bills on its own clock: the sandbox's hook refuses.
    expect((await ops(t)('EndSubscriptionPeriod', { subscription_id: subId })).status).toBe(400);
  });
});
