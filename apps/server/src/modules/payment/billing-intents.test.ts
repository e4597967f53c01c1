import { ONE_DAY_S } from '@portal/contract';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingIntents, checkoutSessions } from '../../db/schema.ts';
import type { SignedIn } from '../../test/fixtures.ts';
import { signIn } from '../../test/fixtures.ts';
import type { TestApp } from '../../test/harness.ts';
import type { StandIn } from '../../test/stripe-stand-in.ts';
import { planRow, tierName } from '../subscriptions/subscriptions.test-helpers.ts';
import { checkout, line, startStripeApp } from './payment.test-helpers.ts';

/**
 * Intents first, keys from intents (issue 31 finding 1, docs/decisions/066): on the Stripe stand-in,
 * which replays a key it has seen as Stripe does.
 */
const WEBHOOK_SECRET = 'whsec_intents0123456789';
const signer = new Stripe('sk_test_signer');

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

async function webhook(type: string, object: unknown) {
  const payload = JSON.stringify({
    id: `evt_${type}_${next()}`,
    object: 'event',
    type,
    created: nowS(),
    data: { object },
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    },
    payload,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A plan bought at Stripe Checkout: the stand-in's session completes with a subscription, the webhook fulfils. */
async function buyPlan(user: SignedIn, product: string, lookupKey: string) {
  const res = await checkout(t, user, [line(product, priceId(lookupKey))]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const { session_id } = res.body.session as { session_id: string };
  const subId = `sub_intents_${next()}`;
  standIn.subscriptions.set(subId, {
    object: 'subscription',
    id: subId,
    status: 'active',
    customer: null,
    cancel_at_period_end: false,
    cancellation_details: null,
    items: {
      object: 'list',
      data: [
        {
          object: 'subscription_item',
          id: `si_${subId}`,
          price: standIn.prices.get(priceId(lookupKey)),
          current_period_start: nowS(),
          current_period_end: nowS() + 30 * ONE_DAY_S,
        },
      ],
    },
  });
  const session = standIn.sessions.get(session_id) as Record<string, unknown>;
  Object.assign(session, {
    status: 'complete',
    payment_status: 'paid',
    subscription: subId,
    customer_details: { name: 'Grace Hopper', email: 'grace@example.test', address: null },
  });
  await webhook('checkout.session.completed', session);
  return { subId, sessionId: session_id };
}

/** The plan's price at the stand-in (what Stripe bills). */
const stripePrice = (subId: string) =>
  (standIn.subscriptions.get(subId) as { items: { data: { price: { id: string } }[] } }).items.data[0]?.price.id;

/** Upgrade Now on a plan card: HandlePurchase of the plan alone. */
async function upgrade(user: SignedIn, product: string, lookupKey: string) {
  const res = await checkout(t, user, [line(product, priceId(lookupKey))]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.session as { session_id: string; session_url: string; amount: number };
}

describe('intents first, keys from intents', () => {
  it('a checkout is an intent written first; the session links it and the intent is done', async () => {
    const user = await signIn(t);
    const res = await checkout(t, user, [line('prod_time_60', priceId('price_time_60_member_gbp'))]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { session_id } = res.body.session as { session_id: string };
    const db = t.app.deps.db;
    const [session] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, session_id));
    expect(session?.intentId).toBeTruthy();
    const [intent] = await db
      .select()
      .from(billingIntents)
      .where(eq(billingIntents.id, session?.intentId as string));
    expect(intent).toMatchObject({ kind: 'checkout', status: 'done', providerRef: session_id, userId: user.id });
  });

  it('a checkout Stripe refuses leaves its intent failed and no session', async () => {
    const user = await signIn(t);
    standIn.failing.add('/v1/checkout/sessions');
    try {
      const res = await checkout(t, user, [line('prod_time_60', priceId('price_time_60_member_gbp'))]);
      expect(res.status).toBeGreaterThanOrEqual(500);
    } finally {
      standIn.failing.delete('/v1/checkout/sessions');
    }
    const db = t.app.deps.db;
    const intents = await db.select().from(billingIntents).where(eq(billingIntents.userId, user.id));
    expect(intents.map((i) => [i.kind, i.status])).toEqual([['checkout', 'failed']]);
    expect(await db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id))).toHaveLength(0);
  });

  it('Standard -> Pro, a downgrade in Stripe’s portal, then Pro again within a minute: Stripe ends on Pro', async () => {
    const user = await signIn(t);
    const { subId } = await buyPlan(user, 'prod_standard', 'price_standard_monthly_gbp');
    const standard = priceId('price_standard_monthly_gbp');
    const pro = priceId('price_pro_monthly_gbp');

    await upgrade(user, 'prod_pro', 'price_pro_monthly_gbp');
    expect(stripePrice(subId)).toBe(pro);
    expect(await tierName(t, user)).toBe('Pro Subscription');

    // Stripe's billing portal downgrades: the item changes at Stripe, then its event arrives.
    t.clock.advance(20_000);
    const sub = standIn.subscriptions.get(subId) as { items: { data: { price: unknown }[] } };
    (sub.items.data[0] as { price: unknown }).price = standIn.prices.get(standard);
    await webhook('customer.subscription.updated', sub);
    expect(await tierName(t, user)).toBe('Standard Subscription');

    t.clock.advance(20_000);
    await upgrade(user, 'prod_pro', 'price_pro_monthly_gbp');
    // The second upgrade is an intent of its own, so its key is new: Stripe changes the price again.
    expect(stripePrice(subId)).toBe(pro);
    expect(await tierName(t, user)).toBe('Pro Subscription');
    expect((await planRow(t, user)).status).toBe('active');
    const intents = await t.app.deps.db.select().from(billingIntents).where(eq(billingIntents.userId, user.id));
    expect(intents.filter((i) => i.kind === 'plan_change').map((i) => i.status)).toEqual(['done', 'done']);
  });
});
