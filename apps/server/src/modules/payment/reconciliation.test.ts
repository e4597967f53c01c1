import { ONE_DAY_S, operator } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOperator, type SignedIn, signIn } from '../../test/fixtures.ts';
import type { TestApp } from '../../test/harness.ts';
import type { StandIn } from '../../test/stripe-stand-in.ts';
import { listed, payments, tierName } from '../subscriptions/subscriptions.test-helpers.ts';
import { checkout, line, postSignedPayload, standInSubscription, startStripeApp } from './payment.test-helpers.ts';

/**
 * The nightly reconciliation with Stripe (issue 31, docs/decisions/065): webhooks dropped on the
 * way (the stand-in changes; no event is posted) are repaired by the next run, through the
 * webhook's own code; what nothing explains is counted for operators.
 */
const WEBHOOK_SECRET = 'whsec_reconcile0123456789';

let standIn: StandIn;
let t: TestApp;
let priceId: (lookupKey: string) => string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ standIn, t, priceId, close } = await startStripeApp(WEBHOOK_SECRET, []));
});
afterAll(() => close());

let counter = 0;
const next = () => ++counter;
const nowS = () => Math.floor(t.clock.now().getTime() / 1000);
const ops = () => asOperator(t, operator);

async function webhook(type: string, object: unknown) {
  const payload = JSON.stringify({
    id: `evt_${type}_${next()}`,
    object: 'event',
    type,
    created: nowS(),
    data: { object },
  });
  const res = await postSignedPayload(t, payload, WEBHOOK_SECRET);
  expect(res.statusCode, res.body).toBe(200);
}

/** A plan bought through Stripe Checkout (its webhook delivered); Stripe's subscription held by the stand-in. */
async function buyPlan(user: SignedIn, product: string, lookupKey: string) {
  const res = await checkout(t, user, [line(product, priceId(lookupKey))]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const { session_id } = res.body.session as { session_id: string };
  const n = next();
  const subId = `sub_rec_${n}`;
  const sub = standInSubscription(standIn, subId, priceId(lookupKey), nowS() + 30 * ONE_DAY_S, { created: nowS() });
  standIn.invoices.set(`in_first_${n}`, {
    object: 'invoice',
    id: `in_first_${n}`,
    created: nowS(),
    status: 'paid',
    billing_reason: 'subscription_create',
    parent: { type: 'subscription_details', subscription_details: { subscription: subId } },
    lines: { object: 'list', data: [] },
    payments: { object: 'list', data: [{ payment: { type: 'payment_intent', payment_intent: `pi_first_${n}` } }] },
  });
  const session = standIn.sessions.get(session_id) as Record<string, unknown>;
  Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subId, invoice: `in_first_${n}` });
  await webhook('checkout.session.completed', session);
  return { sub, paymentIntent: `pi_first_${n}` };
}

async function reconcile() {
  const res = await ops()('RunReconciliation', {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.run as { skipped: boolean; repaired: number; unexplained: number; details: string[] };
}

describe('the nightly reconciliation', () => {
  it('repairs what dropped webhooks left and counts what nothing explains; a second run changes nothing', async () => {
    const renewing = await signIn(t);
    const refunded = await signIn(t);
    const cancelled = await signIn(t);
    const disputed = await signIn(t);
    const a = await buyPlan(renewing, 'prod_standard', 'price_standard_monthly_gbp');
    const b = await buyPlan(refunded, 'prod_pro', 'price_pro_monthly_gbp');
    const c = await buyPlan(cancelled, 'prod_standard', 'price_standard_monthly_gbp');
    const d = await buyPlan(disputed, 'prod_standard', 'price_standard_monthly_gbp');
    // Nothing differs yet.
    expect(await reconcile()).toMatchObject({ skipped: false, repaired: 0, unexplained: 0 });

    // At Stripe, with every webhook lost: a renewal paid, a whole refund in the Dashboard, a
    // subscription cancelled, a dispute opened, and a refund of a payment the portal never saw.
    const renewalEnd = nowS() + 60 * ONE_DAY_S;
    standIn.invoices.set('in_renewal_lost', {
      object: 'invoice',
      id: 'in_renewal_lost',
      created: nowS(),
      status: 'paid',
      billing_reason: 'subscription_cycle',
      amount_paid: 1500,
      currency: 'gbp',
      parent: { type: 'subscription_details', subscription_details: { subscription: a.sub.id } },
      lines: {
        object: 'list',
        data: [{ description: 'Standard Subscription', quantity: 1, amount: 1500, period: { end: renewalEnd } }],
      },
      payments: { object: 'list', data: [{ payment: { type: 'payment_intent', payment_intent: 'pi_renewal_lost' } }] },
    });
    a.sub.items.data[0]!.current_period_end = renewalEnd;
    standIn.refunds.set('re_lost', {
      object: 'refund',
      id: 're_lost',
      created: nowS(),
      amount: 4900,
      status: 'succeeded',
      payment_intent: b.paymentIntent,
      charge: `ch_${b.paymentIntent}`,
    });
    Object.assign(c.sub, { status: 'canceled', cancellation_details: { reason: 'cancellation_requested' } });
    standIn.disputes.set('dp_lost', {
      object: 'dispute',
      id: 'dp_lost',
      created: nowS(),
      amount: 1500,
      status: 'needs_response',
      payment_intent: d.paymentIntent,
      charge: `ch_${d.paymentIntent}`,
    });
    standIn.refunds.set('re_stranger', {
      object: 'refund',
      id: 're_stranger',
      created: nowS(),
      amount: 100,
      status: 'succeeded',
      payment_intent: 'pi_not_ours',
    });

    const run = await reconcile();
    expect(run).toMatchObject({ skipped: false, repaired: 4, unexplained: 1 });
    expect(run.details).toContain('unexplained: refund re_stranger of a payment the portal does not know');

    const renewals = (await payments(t, renewing)).filter((p) => p.kind === 'renewal');
    expect(renewals).toHaveLength(1);
    const plan = (await listed(t, renewing)).user_subscriptions[0];
    expect(Math.abs((plan?.created_at ?? 0) + (plan?.duration ?? 0) * 1000 - renewalEnd * 1000)).toBeLessThan(1000);

    expect((await payments(t, refunded))[0]).toMatchObject({ refunded_amount: 4900, revoked: true });
    expect(await tierName(t, refunded)).toBe('Lite Subscription');
    expect((await listed(t, cancelled)).user_subscriptions[0]?.status).toBe('cancelled');
    expect((await listed(t, disputed)).user_subscriptions[0]?.status).toBe('inactive');

    // What was repaired is not repaired again; what nothing explains is still counted.
    expect(await reconcile()).toMatchObject({ repaired: 0, unexplained: 1 });
    const status = await ops()('GetReconciliation', {});
    expect(status.body.run).toMatchObject({ repaired: 0, unexplained: 1, started_at: expect.any(Number) });
    expect((status.body.run as { finished_at: number }).finished_at).toBeGreaterThan(0);
    // The count operators alert on.
    expect(await t.app.metrics.registry.metrics()).toMatch(/^portal_reconciliation_unexplained 1$/m);
  });
});
