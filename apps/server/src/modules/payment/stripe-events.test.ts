import { ONE_DAY_S, payment } from '@portal/contract';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, relogin, type SignedIn, signIn } from '../../test/fixtures.ts';
import type { TestApp } from '../../test/harness.ts';
import { type StandIn, stripeEvent } from '../../test/stripe-stand-in.ts';
import {
  listed,
  mails,
  ops,
  payments,
  planRow,
  tierName,
  userTime,
} from '../subscriptions/subscriptions.test-helpers.ts';
import {
  checkout,
  line,
  postSignedPayload,
  standInSubscription,
  startStripeApp,
  stripeCharge,
  stripeDispute,
  stripeInvoice,
} from './payment.test-helpers.ts';

/**
 * Stripe's events over HTTP (issue 31, docs/decisions/065): applied once however often and however
 * concurrently they come, in Stripe's order per subscription, and what the Stripe Dashboard does
 * (refunds, disputes) reaching the portal. The real SDK against the stand-in; events signed as
 * Stripe signs them.
 */
const WEBHOOK_SECRET = 'whsec_events0123456789';

let standIn: StandIn;
let t: TestApp;
let priceId: (lookupKey: string) => string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ standIn, t, priceId, close } = await startStripeApp(WEBHOOK_SECRET, ['Pepper']));
});
afterAll(() => close());

let counter = 0;
const next = () => ++counter;
const nowS = () => Math.floor(t.clock.now().getTime() / 1000);

/** An event as Stripe sends it (the published fixture's shape, on the pinned API version), signed. */
function post(type: string, object: unknown, id: string, created: number) {
  const payload = JSON.stringify(stripeEvent(type, object, { id, created }));
  return postSignedPayload(t, payload, WEBHOOK_SECRET);
}

async function webhook(type: string, object: unknown, opts: { id?: string; created?: number } = {}) {
  const res = await post(type, object, opts.id ?? `evt_${type}_${next()}`, opts.created ?? nowS());
  expect(res.statusCode, res.body).toBe(200);
}

const stripeSubscription = (id: string, lookupKey: string, periodEndS: number, extra: Record<string, unknown> = {}) =>
  standInSubscription(standIn, id, priceId(lookupKey), periodEndS, extra);

/** A plan bought through Stripe Checkout, its first invoice paid by PaymentIntent pi_first_<n>. */
async function buyPlan(user: SignedIn, product: string, lookupKey: string) {
  const res = await checkout(t, user, [line(product, priceId(lookupKey))]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const { session_id } = res.body.session as { session_id: string };
  const n = next();
  const subId = `sub_ev_${n}`;
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
  return { subId, paymentIntent: `pi_first_${n}` };
}

const invoice = (id: string, subId: string, extra: Record<string, unknown> = {}) =>
  stripeInvoice(id, subId, nowS() + 60 * ONE_DAY_S, extra);
const charge = (paymentIntent: string, refunds: { id: string; amount: number }[]) =>
  stripeCharge(paymentIntent, 4900, refunds);
const dispute = (paymentIntent: string, status: string) => stripeDispute(paymentIntent, 4900, status);

async function rows<R>(statement: ReturnType<typeof sql>): Promise<R[]> {
  const result = (await t.app.deps.db.execute(statement)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: R[] }).rows) as R[];
}

describe('dedupe and order (findings 5b, 6)', () => {
  it('one event delivered 10 times at once is applied once', async () => {
    const user = await signIn(t);
    const { subId } = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    const failed = invoice(`in_fail_${next()}`, subId);
    const id = `evt_concurrent_${next()}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post('invoice.payment_failed', failed, id, nowS())),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const [row] = await rows<{ payment_attempts: number }>(
      sql`select payment_attempts from subscriptions where stripe_id = ${subId}`,
    );
    expect(row?.payment_attempts).toBe(1);
    expect(mails(t, user, /Your payment failed/)).toHaveLength(1);
  });

  it('a late, older customer.subscription.updated changes nothing', async () => {
    const user = await signIn(t);
    const { subId } = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    const end = nowS() + 30 * ONE_DAY_S;
    // Stripe sent the upgrade (newer) and, before it, a state still on Standard that arrives last.
    await webhook('customer.subscription.updated', stripeSubscription(subId, 'price_pro_monthly_gbp', end), {
      created: nowS() + 5,
    });
    expect(await tierName(t, user)).toBe('Pro Subscription');
    await webhook(
      'customer.subscription.updated',
      { ...stripeSubscription(subId, 'price_standard_monthly_gbp', end), cancel_at_period_end: true },
      { created: nowS() + 1 },
    );
    expect(await tierName(t, user)).toBe('Pro Subscription');
    expect((await planRow(t, user)).cancel_at_period_end).toBe(false);
  });

  it("reads an older API version's period end on the subscription itself", async () => {
    const user = await signIn(t);
    const { subId } = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    const end = nowS() + 90 * ONE_DAY_S;
    const sub = stripeSubscription(subId, 'price_standard_monthly_gbp', 0, { current_period_end: end });
    const items = (sub.items.data as Record<string, unknown>[]).map(({ current_period_end: _, ...rest }) => rest);
    await webhook('customer.subscription.updated', { ...sub, items: { object: 'list', data: items } });
    const plan = await planRow(t, user);
    expect(Math.abs(plan.created_at + plan.duration * 1000 - end * 1000)).toBeLessThan(1000);
  });
});

describe('renewals that retry (finding 5a)', () => {
  it('a failed renewal keeps the plan and the tier until Stripe gives up, then it expires', async () => {
    const user = await signIn(t);
    const { subId } = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    await webhook('invoice.payment_failed', invoice(`in_f1_${next()}`, subId));
    await webhook('customer.subscription.updated', {
      ...stripeSubscription(subId, 'price_standard_monthly_gbp', nowS() + 30 * ONE_DAY_S),
      status: 'past_due',
    });
    await webhook('invoice.payment_failed', invoice(`in_f2_${next()}`, subId));
    expect(await planRow(t, user)).toMatchObject({ status: 'active', payment_failed_at: expect.any(Number) });
    expect((await planRow(t, user)).payment_failed_at).toBeGreaterThan(0);
    expect(await tierName(t, user)).toBe('Standard Subscription');
    // What the dashboard's banner reads, with the dial time it reads anyway.
    expect((await userTime(t, user)).payment_failed_at).toBeGreaterThan(0);
    // One mail per failure, however many retries.
    expect(mails(t, user, /Your payment failed/)).toHaveLength(1);
    expect(mails(t, user, /Your payment failed/)[0]?.text).toContain('Update Payment Info');

    await webhook('customer.subscription.updated', {
      ...stripeSubscription(subId, 'price_standard_monthly_gbp', nowS() + 30 * ONE_DAY_S),
      status: 'unpaid',
    });
    expect((await listed(t, user)).user_subscriptions[0]?.status).toBe('expired');
    expect(await tierName(t, user)).toBe('Lite Subscription');
  });

  it('a subscription Stripe cancels after the retries, with no reason given, is expired', async () => {
    const user = await signIn(t);
    const { subId } = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    await webhook('invoice.payment_failed', invoice(`in_f_${next()}`, subId));
    await webhook('customer.subscription.deleted', {
      ...stripeSubscription(subId, 'price_standard_monthly_gbp', nowS()),
      status: 'canceled',
    });
    expect((await listed(t, user)).user_subscriptions[0]?.status).toBe('expired');
  });
});

describe('the Stripe Dashboard (finding 4)', () => {
  it('stores the PaymentIntent of a subscription checkout', async () => {
    const user = await signIn(t);
    const { paymentIntent } = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    const [row] = await rows<{ payment_intent_id: string }>(
      sql`select payment_intent_id from payments p join users u on u.id = p.user_id where u.email = ${user.email}`,
    );
    expect(row?.payment_intent_id).toBe(paymentIntent);
  });

  it('stores the PaymentIntent when the success page fulfilled the checkout before the webhook came', async () => {
    const user = await signIn(t);
    const res = await checkout(t, user, [line('prod_standard', priceId('price_standard_monthly_gbp'))]);
    const { session_id } = res.body.session as { session_id: string };
    const session = standIn.complete(session_id);
    const confirmed = await as(t, user, payment)('ConfirmPurchase', { email: user.email, session_id });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(await tierName(t, user)).toBe('Standard Subscription');
    await webhook('checkout.session.completed', session);
    const invoice = standIn.invoices.get(session.invoice as string) as {
      payments: { data: { payment: { payment_intent: string } }[] };
    };
    const [row] = await rows<{ payment_intent_id: string }>(
      sql`select payment_intent_id from payments p join users u on u.id = p.user_id where u.email = ${user.email}`,
    );
    expect(row?.payment_intent_id).toBe(invoice.payments.data[0]?.payment.payment_intent);
  });

  it('a partial refund in the Dashboard is recorded; the one that completes it revokes the plan, once', async () => {
    const user = await signIn(t);
    const { subId, paymentIntent } = await buyPlan(user, 'prod_pro', 'price_pro_monthly_gbp');
    await webhook('charge.refunded', charge(paymentIntent, [{ id: `re_dash_a_${subId}`, amount: 900 }]));
    // The same refund again (a second event of the charge) counts once.
    await webhook('charge.refunded', charge(paymentIntent, [{ id: `re_dash_a_${subId}`, amount: 900 }]));
    expect((await payments(t, user))[0]).toMatchObject({ refunded_amount: 900, revoked: false });
    expect(await tierName(t, user)).toBe('Pro Subscription');
    expect(standIn.requests).not.toContain(`DELETE /v1/subscriptions/${subId}`);

    await webhook(
      'charge.refunded',
      charge(paymentIntent, [
        { id: `re_dash_a_${subId}`, amount: 900 },
        { id: `re_dash_b_${subId}`, amount: 4000 },
      ]),
    );
    expect((await payments(t, user))[0]).toMatchObject({ refunded_amount: 4900, revoked: true });
    expect(await tierName(t, user)).toBe('Lite Subscription');
    expect((await listed(t, user)).user_subscriptions[0]?.status).toBe('cancelled');
    expect(standIn.requests).toContain(`DELETE /v1/subscriptions/${subId}`);
    expect(mails(t, user, /refund/i).length).toBeGreaterThanOrEqual(2);
  });

  it("on Stripe's own shapes: a Dashboard refund of a paid checkout, its charge without the refunds list", async () => {
    const user = await signIn(t);
    const res = await checkout(t, user, [line('prod_standard', priceId('price_standard_monthly_gbp'))]);
    const { session_id } = res.body.session as { session_id: string };
    const session = standIn.complete(session_id);
    await webhook('checkout.session.completed', session);
    expect(await tierName(t, user)).toBe('Standard Subscription');
    const invoice = standIn.invoices.get(session.invoice as string) as {
      payments: { data: { payment: { payment_intent: string } }[] };
    };
    const paymentIntent = invoice.payments.data[0]?.payment.payment_intent as string;
    // The refund is made at Stripe (its Dashboard): the portal hears of it only through the event,
    // whose charge carries no refunds list in the pinned API version.
    const refund = await new Stripe('sk_test_dashboard', {
      host: new URL(standIn.url).hostname,
      port: new URL(standIn.url).port,
      protocol: 'http',
    }).refunds.create({ payment_intent: paymentIntent });
    const chargeId = (standIn.paymentIntents.get(paymentIntent) as { latest_charge: string }).latest_charge;
    const stripeCharge = { ...(standIn.charges.get(chargeId) as Record<string, unknown>), refunds: undefined };
    await webhook('charge.refunded', stripeCharge);
    expect((await payments(t, user))[0]).toMatchObject({ refunded_amount: refund.amount, revoked: true });
    expect(await tierName(t, user)).toBe('Lite Subscription');
  });

  it('a whole refund in the Dashboard revokes as the portal’s refund does', async () => {
    const user = await signIn(t);
    const { paymentIntent } = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    await webhook('charge.refunded', charge(paymentIntent, [{ id: `re_whole_${paymentIntent}`, amount: 1500 }]));
    expect((await payments(t, user))[0]).toMatchObject({ refunded_amount: 1500, revoked: true });
    expect(await tierName(t, user)).toBe('Lite Subscription');
  });

  it("the portal's own refund is stored under Stripe's refund id: the charge.refunded it causes changes nothing", async () => {
    const user = await signIn(t);
    const { subId, paymentIntent } = await buyPlan(user, 'prod_pro', 'price_pro_monthly_gbp');
    const [paid] = await payments(t, user);
    const res = await ops(t)('RefundPayment', { payment_id: paid?.payment_id, refund_amount: 1000 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const refunds = await rows<{ provider_refund_id: string; source: string; amount: number }>(
      sql`select provider_refund_id, source, amount from payment_refunds where payment_id = ${paid?.payment_id as string}`,
    );
    expect(refunds).toEqual([{ provider_refund_id: expect.stringMatching(/^re_/), source: 'portal', amount: 1000 }]);
    // The key names the refund's intent, written before Stripe was called.
    const key = standIn.posts.filter((p) => p.path === '/v1/refunds').at(-1);
    expect(key?.params.payment_intent).toBe(paymentIntent);
    await webhook(
      'charge.refunded',
      charge(paymentIntent, [{ id: refunds[0]?.provider_refund_id as string, amount: 1000 }]),
    );
    expect((await payments(t, user))[0]).toMatchObject({ refunded_amount: 1000, revoked: false });
    expect(await tierName(t, user)).toBe('Pro Subscription');
    expect(standIn.requests).not.toContain(`DELETE /v1/subscriptions/${subId}`);
  });

  it('a dispute makes the plan inactive (the tier drops) and tells the customer; won, it is active again', async () => {
    const user = await signIn(t);
    const { paymentIntent } = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    await webhook('charge.dispute.created', dispute(paymentIntent, 'needs_response'));
    expect((await listed(t, user)).user_subscriptions[0]?.status).toBe('inactive');
    expect(await tierName(t, user)).toBe('Lite Subscription');
    expect(mails(t, user, /disputed/)).toHaveLength(1);
    await webhook('charge.dispute.closed', dispute(paymentIntent, 'won'));
    expect((await listed(t, await relogin(t, user))).user_subscriptions[0]?.status).toBe('active');
    expect(await tierName(t, user)).toBe('Standard Subscription');
    expect((await payments(t, user))[0]).toMatchObject({ revoked: false });
  });

  it('a dispute lost takes back what the payment granted, as a whole refund does', async () => {
    const user = await signIn(t);
    const { subId, paymentIntent } = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    await webhook('charge.dispute.created', dispute(paymentIntent, 'needs_response'));
    await webhook('charge.dispute.closed', dispute(paymentIntent, 'lost'));
    expect((await listed(t, user)).user_subscriptions[0]?.status).toBe('cancelled');
    expect(await tierName(t, user)).toBe('Lite Subscription');
    expect((await payments(t, user))[0]).toMatchObject({ revoked: true });
    expect(standIn.requests).toContain(`DELETE /v1/subscriptions/${subId}`);
    const [row] = await rows<{ dispute_status: string }>(
      sql`select dispute_status from payments where payment_intent_id = ${paymentIntent}`,
    );
    expect(row?.dispute_status).toBe('lost');
  });
});
