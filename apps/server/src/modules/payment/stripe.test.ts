import { payment } from '@portal/contract';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../cli.ts';
import { paymentCustomers } from '../../db/schema.ts';
import { as, expectFieldError, signIn } from '../../test/fixtures.ts';
import { type TestApp, testConfig } from '../../test/harness.ts';
import { type StandIn, startStripeStandIn } from '../../test/stripe-stand-in.ts';
import { loadCatalogue } from './catalogue.ts';
import {
  checkout,
  durableMinutes,
  line,
  postSignedPayload,
  robotLicensesOf,
  SUCCESS,
  startStripeApp,
} from './payment.test-helpers.ts';

/**
 * The Stripe provider through the official SDK, pointed at a local stand-in of Stripe's API, with
 * webhook signatures made by the SDK itself (docs/decisions/017).
 */
const WEBHOOK_SECRET = 'whsec_standinsecret0123456789';
const signer = new Stripe('sk_test_signer');

let standIn: StandIn;
let t: TestApp;
let priceId: (lookupKey: string) => string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ standIn, t, priceId, close } = await startStripeApp(WEBHOOK_SECRET, ['Pepper']));
});
afterAll(() => close());

function webhook(event: unknown, signature?: string) {
  const payload = JSON.stringify(event);
  return postSignedPayload(t, payload, WEBHOOK_SECRET, signature);
}

/** Stripe's session as it is once the customer paid. */
function paid(sessionId: string) {
  const session = standIn.sessions.get(sessionId) as Record<string, unknown>;
  Object.assign(session, {
    status: 'complete',
    payment_status: 'paid',
    subscription: 'sub_standin_1',
    customer_details: {
      name: 'Grace Hopper',
      email: 'grace@example.test',
      address: { line1: '2 Compiler Way', city: 'Arlington', postal_code: '22201', country: 'US' },
    },
  });
  return session;
}

const completed = (id: string, session: unknown) => ({
  id,
  object: 'event',
  type: 'checkout.session.completed',
  data: { object: session },
});

async function newSession(user: Awaited<ReturnType<typeof signIn>>) {
  const res = await checkout(t, user, [
    line('prod_driver_pepper', priceId('price_driver_pepper_yearly_gbp')),
    line('prod_time_60', priceId('price_time_60_member_gbp')),
  ]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.session as { session_id: string; session_url: string; amount: number };
}

describe('catalogue:push', () => {
  it('creates the catalogue in an empty Stripe, then changes nothing', async () => {
    const empty = await startStripeStandIn();
    try {
      const config = testConfig({
        STRIPE_SECRET_KEY: 'sk_test_standin0123456789',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: empty.url,
      });
      const lines: string[] = [];
      const ctx = { db: t.app.deps.db, config, clock: t.clock, out: (l: string) => lines.push(l) };
      await runCli(['catalogue:push'], ctx);
      const catalogue = loadCatalogue();
      const priceCount = catalogue.products.reduce((n, p) => n + p.prices.length, 0);
      expect(empty.products.size).toBe(catalogue.products.length);
      expect(empty.prices.size).toBe(priceCount);
      expect(empty.products.get('prod_driver_pepper')?.metadata).toMatchObject({
        BOW_SORTING: 'driver',
        BOW_UUID: 'driver-pepper',
      });
      const posts = empty.posts.length;
      lines.length = 0;
      await runCli(['catalogue:push'], ctx);
      expect(empty.posts.length).toBe(posts);
      expect(lines.at(-1)).toBe(
        `catalogue pushed: Stripe already matched the catalogue, 0 created, 0 updated, 0 archived, ${catalogue.products.length + priceCount} unchanged`,
      );
    } finally {
      await empty.close();
    }
  });
});

describe('Stripe configuration', () => {
  it('needs both keys or neither', () => {
    expect(() => testConfig({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toThrow(/STRIPE_WEBHOOK_SECRET: set both/);
    expect(() => testConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toThrow(/STRIPE_SECRET_KEY: set both/);
    expect(() => testConfig({ STRIPE_SECRET_KEY: 'pk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toThrow(
      /STRIPE_SECRET_KEY: must be a Stripe secret key/,
    );
  });
});

describe('the Stripe provider', () => {
  it("answers Stripe's products with the catalogue's metadata", async () => {
    const user = await signIn(t);
    const res = await as(t, user, payment)('GetProducts', {});
    const products = res.body.products as { id: string; metadata: Record<string, string>; prices: { id: string }[] }[];
    const pepper = products.find((p) => p.id === 'prod_driver_pepper');
    expect(pepper?.metadata.BOW_UUID).toBe('driver-pepper');
    expect(pepper?.prices.map((p) => p.id)).toContain(priceId('price_driver_pepper_yearly_gbp'));
  });

  it('creates a Stripe customer once', async () => {
    const user = await signIn(t);
    const first = await as(t, user, payment)('GetCustomerID', {});
    const again = await as(t, user, payment)('GetCustomerID', {});
    expect(first.body.customer_id).toMatch(/^cus_/);
    expect(again.body.customer_id).toBe(first.body.customer_id);
  });

  it('replaces, once, a customer the sandbox made before the switch to Stripe', async () => {
    const user = await signIn(t);
    await t.app.deps.db
      .insert(paymentCustomers)
      .values({ userId: user.id, customerId: `cus_sandbox_${user.id}`, provider: 'sandbox' });
    const first = await as(t, user, payment)('GetCustomerID', {});
    const again = await as(t, user, payment)('GetCustomerID', {});
    expect(first.body.customer_id).toMatch(/^cus_(?!sandbox)/);
    expect(again.body.customer_id).toBe(first.body.customer_id);
    const [row] = await t.app.deps.db.select().from(paymentCustomers).where(eq(paymentCustomers.userId, user.id));
    expect(row).toMatchObject({ customerId: first.body.customer_id, provider: 'stripe' });
  });

  it('sells a driver and a time package as one subscription-mode Checkout Session at catalogue prices', async () => {
    const user = await signIn(t);
    const session = await newSession(user);
    // Lite pays the higher time-package price whatever price the cart named.
    expect(session.amount).toBe(14_900 + 1200);
    expect(session.session_url).toBe(`https://checkout.stripe.test/c/pay/${session.session_id}`);
    const sent = standIn.posts.filter((p) => p.path === '/v1/checkout/sessions').at(-1)?.params ?? {};
    expect(sent.mode).toBe('subscription');
    expect(sent['line_items[0][price]']).toBe(priceId('price_driver_pepper_yearly_gbp'));
    expect(sent['line_items[1][price]']).toBe(priceId('price_time_60_lite_gbp'));
    expect(sent.success_url).toBe(`${SUCCESS}?session_id={CHECKOUT_SESSION_ID}`);
  });

  it('a webhook replayed 10 times grants once', async () => {
    const user = await signIn(t);
    const session = await newSession(user);
    const event = completed(`evt_replay_${session.session_id}`, paid(session.session_id));
    for (let i = 0; i < 10; i++) {
      const res = await webhook(event);
      expect(res.statusCode, res.body).toBe(200);
    }
    const licenses = await robotLicensesOf(t, user);
    expect(licenses).toHaveLength(1);
    expect(licenses[0]?.pair_code).not.toBe('');
    expect(await durableMinutes(t, user)).toBe(60);
    const confirmed = await as(t, user, payment)('ConfirmPurchase', { session_id: session.session_id });
    expect(confirmed.body.purchase).toMatchObject({ status: 'paid' });
    expect(t.mailer.lastTo(user.email)?.text).toContain('Grace Hopper');
  });

  it('refuses a bad or missing signature and grants nothing', async () => {
    const user = await signIn(t);
    const session = await newSession(user);
    const event = completed(`evt_forged_${session.session_id}`, paid(session.session_id));
    const payload = JSON.stringify(event);
    const wrongSecret = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' });
    for (const res of [await webhook(event, wrongSecret), await webhook(event, 't=1,v1=00')]) {
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body).error.Description).toMatch(/^stripe-signature: /);
    }
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(none.statusCode).toBe(400);
    expect(await robotLicensesOf(t, user)).toHaveLength(0);
  });

  it('the success page and the webhook racing grant once', async () => {
    const user = await signIn(t);
    const session = await newSession(user);
    const event = completed(`evt_race_${session.session_id}`, paid(session.session_id));
    const [hook, page] = await Promise.all([
      webhook(event),
      as(t, user, payment)('ConfirmPurchase', { session_id: session.session_id }),
      webhook({ ...event, id: `${event.id}_b` }),
      as(t, user, payment)('ConfirmPurchase', { session_id: session.session_id }),
    ]);
    expect(hook?.statusCode).toBe(200);
    expect(page?.body.purchase).toMatchObject({ status: 'paid' });
    expect(await robotLicensesOf(t, user)).toHaveLength(1);
    expect(await durableMinutes(t, user)).toBe(60);
  });

  it('an unpaid success page grants nothing; an expired session grants nothing', async () => {
    const user = await signIn(t);
    const session = await newSession(user);
    const open = await as(t, user, payment)('ConfirmPurchase', { session_id: session.session_id });
    expect(open.body.purchase).toMatchObject({ status: 'open' });
    const expired = { ...(standIn.sessions.get(session.session_id) as object), status: 'expired' };
    const res = await webhook({
      id: `evt_exp_${session.session_id}`,
      object: 'event',
      type: 'checkout.session.expired',
      data: { object: expired },
    });
    expect(res.statusCode).toBe(200);
    const after = await as(t, user, payment)('ConfirmPurchase', { session_id: session.session_id });
    expect(after.body.purchase).toMatchObject({ status: 'expired' });
    expect(await robotLicensesOf(t, user)).toHaveLength(0);
  });

  it('still refuses a price the product does not have', async () => {
    const user = await signIn(t);
    expectFieldError(
      await checkout(t, user, [line('prod_driver_pepper', 'price_driver_pepper_yearly_gbp')]),
      400,
      'session.products.0.selected_price_id',
    );
  });
});

describe('metrics (issue 33 item 7)', () => {
  /** One series of the app's metrics as a scrape reads it (0 while absent). */
  async function series(name: string): Promise<number> {
    const line = (await t.app.metrics.scrape()).body.split('\n').find((l) => l.startsWith(`${name} `));
    return line ? Number(line.slice(name.length + 1)) : 0;
  }
  const webhookSeries = (type: string, outcome: string) =>
    `portal_webhook_events_total{type="${type}",outcome="${outcome}"}`;

  it('count webhook events by type and outcome', async () => {
    const user = await signIn(t);
    const session = await newSession(user);
    const completedOk = webhookSeries('checkout.session.completed', 'handled');
    const completedAgain = webhookSeries('checkout.session.completed', 'duplicate');
    const refused = webhookSeries('unverified', 'refused');
    const failed = webhookSeries('checkout.session.completed', 'failed');
    const other = webhookSeries('other', 'handled');
    const before = await Promise.all([completedOk, completedAgain, refused, failed, other].map(series));

    const event = completed(`evt_metrics_${session.session_id}`, paid(session.session_id));
    expect((await webhook(event)).statusCode).toBe(200);
    expect((await webhook(event)).statusCode).toBe(200);
    expect((await webhook(event, 't=1,v1=00')).statusCode).toBe(400);
    const fulfil = vi.spyOn(t.app.services.payments, 'fulfil').mockRejectedValueOnce(new Error('database gone'));
    try {
      const again = completed(`evt_metrics_failed_${session.session_id}`, paid(session.session_id));
      expect((await webhook(again)).statusCode).toBe(500);
    } finally {
      fulfil.mockRestore();
    }
    const unusual = {
      id: `evt_metrics_other_${session.session_id}`,
      object: 'event',
      type: 'customer.created',
      data: { object: {} },
    };
    expect((await webhook(unusual)).statusCode).toBe(200);

    const after = await Promise.all([completedOk, completedAgain, refused, failed, other].map(series));
    expect(after.map((n, i) => n - (before[i] as number))).toEqual([1, 1, 1, 1, 1]);
  });

  it('count calls to Stripe that fail', async () => {
    const user = await signIn(t);
    const name = 'portal_payment_provider_errors_total{provider="stripe",operation="createCheckoutSession"}';
    const before = await series(name);
    standIn.failing.add('/v1/checkout/sessions');
    try {
      const res = await checkout(t, user, [line('prod_time_60', priceId('price_time_60_member_gbp'))]);
      // Stripe's 500 is the provider's failure: 502 (docs/decisions/064).
      expect(res.status).toBe(502);
    } finally {
      standIn.failing.delete('/v1/checkout/sessions');
    }
    expect((await series(name)) - before).toBe(1);
  });
});
