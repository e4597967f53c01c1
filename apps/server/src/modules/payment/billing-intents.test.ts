import { ONE_DAY_S } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingIntents, checkoutSessions } from '../../db/schema.ts';
import { closeApp, expectFieldError, roboticsConfig, type SignedIn, signIn } from '../../test/fixtures.ts';
import { type TestApp, testApp } from '../../test/harness.ts';
import type { StandIn } from '../../test/stripe-stand-in.ts';
import { listed, ops, planRow, tierName } from '../subscriptions/subscriptions.test-helpers.ts';
import { cancelSubscriptionKey, OUTBOX_KINDS, Outbox, outboxBackoffMs } from './outbox.ts';
import {
  checkout,
  confirmReview,
  GOOD_FORM,
  line,
  openPage,
  postForm,
  postSignedPayload,
  sessionOf,
  startStripeApp,
} from './payment.test-helpers.ts';

/**
 * Intents first, keys from intents (issue 31 finding 1, docs/decisions/066): on the Stripe stand-in,
 * which replays a key it has seen as Stripe does.
 */
const WEBHOOK_SECRET = 'whsec_intents0123456789';

let standIn: StandIn;
let t: TestApp;
let priceId: (lookupKey: string) => string;
let close: () => Promise<void>;
let database: Awaited<ReturnType<typeof startStripeApp>>['database'];
beforeAll(async () => {
  ({ standIn, t, priceId, close, database } = await startStripeApp(WEBHOOK_SECRET, ['Pepper']));
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
  const res = await postSignedPayload(t, payload, WEBHOOK_SECRET);
  expect(res.statusCode, res.body).toBe(200);
}

/** A plan bought at Stripe Checkout: the stand-in's session completes with a subscription, the webhook fulfils. */
async function buyPlan(user: SignedIn, product: string, lookupKey: string) {
  return pay(await openCheckout(user, product, lookupKey), lookupKey);
}

async function openCheckout(user: SignedIn, product: string, lookupKey: string): Promise<string> {
  const res = await checkout(t, user, [line(product, priceId(lookupKey))]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.session as { session_id: string }).session_id;
}

/** The customer pays an open Checkout Session of a plan: Stripe makes its subscription and sends the event. */
async function pay(sessionId: string, lookupKey: string) {
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
  const session = standIn.sessions.get(sessionId) as Record<string, unknown>;
  Object.assign(session, {
    status: 'complete',
    payment_status: 'paid',
    subscription: subId,
    customer_details: { name: 'Grace Hopper', email: 'grace@example.test', address: null },
  });
  await webhook('checkout.session.completed', session);
  return { subId, sessionId };
}

/** The plan's price at the stand-in (what Stripe bills). */
const stripePrice = (subId: string) =>
  (standIn.subscriptions.get(subId) as { items: { data: { price: { id: string } }[] } }).items.data[0]?.price.id;

/** Upgrade Now on a plan card: HandlePurchase of the plan alone. */
async function upgrade(user: SignedIn, product: string, lookupKey: string) {
  const res = await checkout(t, user, [line(product, priceId(lookupKey))]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const session = res.body.session as { session_id: string; session_url: string; amount: number };
  await confirmReview(t, session.session_url);
  return session;
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

describe('the outbox: work after the commit, retried until it succeeds', () => {
  /** One series of the app's metrics as a scrape reads it (0 while absent). */
  async function series(name: string): Promise<number> {
    const found = (await t.app.metrics.scrape()).body.split('\n').find((l) => l.startsWith(`${name} `));
    return found ? Number(found.slice(name.length + 1)) : 0;
  }
  const outboxOf = async (key: string) => {
    const res = await ops(t)('ListOutbox', {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.outbox as { key: string; attempts: number; run_after: number; last_error: string }[]).find(
      (r) => r.key === key,
    );
  };
  const runOutbox = async () => {
    const res = await ops(t)('RunOutbox', {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { done, failed } = res.body as unknown as { done: number; failed: number };
    return { done, failed };
  };

  it('a replaced plan whose cancel fails at Stripe is cancelled by a retry: one plan left at Stripe', async () => {
    const user = await signIn(t);
    // Two checkouts opened before either was paid: the second plan paid replaces the first.
    const standard = await openCheckout(user, 'prod_standard', 'price_standard_monthly_gbp');
    const pro = await openCheckout(user, 'prod_pro', 'price_pro_monthly_gbp');
    const { subId: replaced } = await pay(standard, 'price_standard_monthly_gbp');
    standIn.failing.add(`/v1/subscriptions/${replaced}`);
    const { subId: kept } = await pay(pro, 'price_pro_monthly_gbp');
    // The cancel ran right after fulfilment's commit and failed; the customer has Pro here...
    expect(await tierName(t, user)).toBe('Pro Subscription');
    expect(standIn.requests).toContain(`DELETE /v1/subscriptions/${replaced}`);
    const key = `cancel-sub:${replaced}`;
    expect(await outboxOf(key)).toMatchObject({ attempts: 1, last_error: expect.stringMatching(/./) });
    // ...and still two plans at Stripe until the retry.
    const live = () =>
      [replaced, kept].filter((id) => (standIn.subscriptions.get(id) as { status: string }).status === 'active');
    expect(live()).toEqual([replaced, kept]);

    // Not before its backoff (a minute after the first failure), then at once; failures double the wait.
    expect(await runOutbox()).toEqual({ done: 0, failed: 0 });
    const waits = [60_000, 120_000, 240_000, 480_000];
    for (const wait of waits) {
      t.clock.advance(wait - 1000);
      expect((await runOutbox()).failed).toBe(0);
      t.clock.advance(1000);
      expect((await runOutbox()).failed).toBe(1);
    }
    // Five failures: operators see it (the gauge, ListOutbox with the error).
    expect(await outboxOf(key)).toMatchObject({ attempts: 5 });
    expect(await series('portal_outbox_failing')).toBe(1);

    standIn.failing.delete(`/v1/subscriptions/${replaced}`);
    t.clock.advance(960_000);
    expect(await runOutbox()).toEqual({ done: 1, failed: 0 });
    expect(live()).toEqual([kept]);
    expect(await outboxOf(key)).toBeUndefined();
    expect(await series('portal_outbox_failing')).toBe(0);
    // Done work is not done again.
    t.clock.advance(3_600_000);
    expect(await runOutbox()).toEqual({ done: 0, failed: 0 });
  });
});

describe('the outbox runner', () => {
  it('logs each failure at warn, and at error from the 5th attempt', async () => {
    const lines: [string, string, number][] = [];
    const log = {
      warn: (o: object, msg: string) => lines.push(['warn', msg, (o as { attempts: number }).attempts]),
      error: (o: object, msg: string) => lines.push(['error', msg, (o as { attempts: number }).attempts]),
    };
    const runner = new Outbox(t.app.deps.db, t.clock, t.app.services.payments.provider, log);
    const ref = `sub_logged_${next()}`;
    standIn.failing.add(`/v1/subscriptions/${ref}`);
    try {
      await runner.enqueue(t.app.deps.db, OUTBOX_KINDS.cancelSubscription, cancelSubscriptionKey(ref), {
        subscription_ref: ref,
        provider: 'stripe',
      });
      for (let attempt = 1; attempt <= 6; attempt++) {
        expect(await runner.run()).toMatchObject({ failed: 1 });
        t.clock.advance(outboxBackoffMs(attempt));
      }
    } finally {
      standIn.failing.delete(`/v1/subscriptions/${ref}`);
    }
    expect(lines.map(([level, , attempts]) => [level, attempts])).toEqual([
      ['warn', 1],
      ['warn', 2],
      ['warn', 3],
      ['warn', 4],
      ['error', 5],
      ['error', 6],
    ]);
    expect(lines.at(-1)?.[1]).toBe('outbox work keeps failing');
    // Stripe answers again: the next attempt succeeds and the row leaves the queue operators watch.
    standIn.subscriptions.set(ref, { object: 'subscription', id: ref, status: 'active', items: { data: [] } });
    t.clock.advance(outboxBackoffMs(7));
    expect(await runner.run()).toEqual({ done: 1, failed: 0 });
    expect(await runner.byKey(cancelSubscriptionKey(ref))).toMatchObject({ attempts: 7, lastError: null });
    // The schedule: 1, 2, 4, 8 ... minutes, at most an hour.
    expect([1, 2, 3, 4, 7, 8, 20].map(outboxBackoffMs)).toEqual([
      60_000, 120_000, 240_000, 480_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
  });
});

describe('plans are sold one at a time', () => {
  it('refuses a plan in quantity 2 and a cart of two plans, naming the field; charges nothing', async () => {
    const user = await signIn(t);
    const sessions = () => standIn.posts.filter((p) => p.path === '/v1/checkout/sessions').length;
    const before = sessions();
    expectFieldError(
      await checkout(t, user, [line('prod_standard', priceId('price_standard_monthly_gbp'), 5)]),
      400,
      'session.products.0.quantity',
    );
    expectFieldError(
      await checkout(t, user, [
        line('prod_time_60', priceId('price_time_60_member_gbp')),
        line('prod_standard', priceId('price_standard_monthly_gbp')),
        line('prod_pro', priceId('price_pro_monthly_gbp')),
      ]),
      400,
      'session.products.2.id',
    );
    expect(sessions()).toBe(before);
    // One plan, quantity 1, beside other lines, is a checkout as before.
    const res = await checkout(t, user, [
      line('prod_driver_pepper', priceId('price_driver_pepper_yearly_gbp'), 2),
      line('prod_standard', priceId('price_standard_yearly_gbp')),
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('a sandbox plan never blocks a Stripe purchase: a checkout, whose fulfilment ends the sandbox plan', async () => {
    // The same database served on the sandbox first (before the switch to Stripe).
    const sandbox = await testApp(database, roboticsConfig());
    sandbox.clock.set(t.clock.now());
    try {
      const user = await signIn(sandbox);
      const session = await sessionOf(sandbox, user, [line('prod_standard', 'price_standard_monthly_gbp')]);
      const { token } = await openPage(sandbox, session.session_id);
      expect((await postForm(sandbox, session.session_id, 'pay', { ...GOOD_FORM, token })).statusCode).toBe(303);
      const sandboxPlan = await planRow(t, user);
      expect(sandboxPlan.stripe_id).toMatch(/^sub_sandbox_/);

      // On Stripe now: Pro is a Checkout Session (not a change of the sandbox's subscription).
      const opened = await openCheckout(user, 'prod_pro', 'price_pro_monthly_gbp');
      expect(standIn.sessions.has(opened)).toBe(true);
      const { subId } = await pay(opened, 'price_pro_monthly_gbp');
      expect(await planRow(t, user)).toMatchObject({ stripe_id: subId, status: 'active' });
      expect(await tierName(t, user)).toBe('Pro Subscription');
      const rows = (await listed(t, user)).user_subscriptions;
      expect(rows.find((r) => r.stripe_id === sandboxPlan.stripe_id)?.status).toBe('cancelled');
      // Nothing to call for the sandbox's plan: no request about it reached Stripe, nothing queued.
      expect(standIn.requests.filter((r) => r.includes(sandboxPlan.stripe_id))).toEqual([]);
      const queued = (await ops(t)('ListOutbox', {})).body.outbox as { key: string }[];
      expect(queued.filter((r) => r.key.includes(sandboxPlan.stripe_id))).toEqual([]);
    } finally {
      await closeApp(sandbox);
    }
  });
});
