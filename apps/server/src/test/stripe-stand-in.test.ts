import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../modules/payment/catalogue.ts';
import { stripeClient } from '../modules/payment/stripe.provider.ts';
import { parseForm, type StandIn, startStripeStandIn, stripeEvent } from './stripe-stand-in.ts';

/**
 * The stand-in enforces what Stripe enforces and the payment tests rely on; here through the real
 * SDK, as the portal calls it.
 */
let standIn: StandIn;
let stripe: Stripe;
beforeAll(async () => {
  standIn = await startStripeStandIn(loadCatalogue());
  stripe = stripeClient({ secretKey: 'sk_test_standin0123456789', apiBase: standIn.url });
});
afterAll(() => standIn.close());

const priceOf = (lookupKey: string) => {
  const price = [...standIn.prices.values()].find((p) => p.lookup_key === lookupKey);
  if (!price) throw new Error(lookupKey);
  return price.id as string;
};

const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return err as Stripe.errors.StripeError;
  }
  throw new Error('expected Stripe to refuse');
};

describe('parseForm', () => {
  it.each([
    [[['a', '1']], { a: '1' }],
    [[['metadata[k]', 'v']], { metadata: { k: 'v' } }],
    [
      [
        ['line_items[0][price]', 'p1'],
        ['line_items[1][price]', 'p2'],
      ],
      { line_items: [{ price: 'p1' }, { price: 'p2' }] },
    ],
    [
      [
        ['expand[]', 'x'],
        ['expand[]', 'y'],
      ],
      { expand: ['x', 'y'] },
    ],
  ] as [[string, string][], unknown][])('%j', (entries, expected) => {
    expect(parseForm(entries)).toEqual(expected);
  });
});

describe('the Stripe stand-in', () => {
  it('replays an idempotency key with the same parameters and refuses it with others', async () => {
    const first = await stripe.customers.create({ email: 'a@example.test' }, { idempotencyKey: 'k-customer-1' });
    const again = await stripe.customers.create({ email: 'a@example.test' }, { idempotencyKey: 'k-customer-1' });
    expect(again.id).toBe(first.id);
    expect([...standIn.customers.values()].filter((c) => c.email === 'a@example.test')).toHaveLength(1);
    const err = await failure(stripe.customers.create({ email: 'b@example.test' }, { idempotencyKey: 'k-customer-1' }));
    expect(err.type).toBe('StripeIdempotencyError');
    expect(err.statusCode).toBe(400);
  });

  it('forgets a key after 24 hours', async () => {
    const first = await stripe.customers.create({ email: 'c@example.test' }, { idempotencyKey: 'k-customer-2' });
    const real = standIn.now;
    standIn.now = () => real() + 24 * 60 * 60 * 1000 + 1;
    try {
      const later = await stripe.customers.create({ email: 'c@example.test' }, { idempotencyKey: 'k-customer-2' });
      expect(later.id).not.toBe(first.id);
    } finally {
      standIn.now = real;
    }
  });

  it('keeps one price per lookup key unless transfer_lookup_key moves it', async () => {
    const old = priceOf('price_time_60_member_gbp');
    const base = {
      product: 'prod_time_60',
      currency: 'gbp',
      unit_amount: 1300,
      lookup_key: 'price_time_60_member_gbp',
    };
    const err = await failure(stripe.prices.create(base));
    expect(err.message).toMatch(/already uses that lookup key/);
    const moved = await stripe.prices.create({ ...base, transfer_lookup_key: true });
    expect(moved.lookup_key).toBe('price_time_60_member_gbp');
    expect(standIn.prices.get(old)?.lookup_key).toBeNull();
    await stripe.prices.update(old, { active: false });
    const active = await stripe.prices.list({ active: true, limit: 100 }).autoPagingToArray({ limit: 1000 });
    const all = await stripe.prices.list({ limit: 100 }).autoPagingToArray({ limit: 1000 });
    expect(active.map((p) => p.id)).not.toContain(old);
    expect(all.map((p) => p.id)).toContain(old);
    // An archived price cannot be bought.
    const refused = await failure(
      stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [{ price: old, quantity: 1 }],
        success_url: 'https://example.test/ok',
      }),
    );
    expect(refused.message).toMatch(/inactive/);
    expect(refused.param).toBe('line_items[0][price]');
  });

  it('refuses recurring prices in payment mode', async () => {
    const err = await failure(
      stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [{ price: priceOf('price_standard_monthly_gbp'), quantity: 1 }],
        success_url: 'https://example.test/ok',
      }),
    );
    expect(err.message).toMatch(/`payment` mode but passed a recurring price/);
  });

  it("unsets a metadata key sent as '' and filters products on active", async () => {
    await stripe.products.update('prod_time_1200', { metadata: { EXTRA: 'x' } });
    await stripe.products.update('prod_time_1200', { metadata: { EXTRA: '' }, active: false });
    const product = await stripe.products.retrieve('prod_time_1200');
    expect(product.metadata).not.toHaveProperty('EXTRA');
    expect(product.metadata.BOW_MINUTES).toBe('1200');
    const active = await stripe.products.list({ active: true, limit: 100 });
    expect(active.data.map((p) => p.id)).not.toContain('prod_time_1200');
  });

  it('completes a subscription checkout with a subscription, a paid invoice and its payment intent', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: 'cus_x',
      line_items: [
        { price: priceOf('price_standard_monthly_gbp'), quantity: 1 },
        { price: priceOf('price_time_60_lite_gbp'), quantity: 1 },
      ],
      success_url: 'https://example.test/ok',
    });
    standIn.complete(session.id);
    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid' });
    const sub = await stripe.subscriptions.retrieve(done.subscription as string);
    expect(sub.items.data).toHaveLength(1);
    expect(sub.items.data[0]?.price.lookup_key).toBe('price_standard_monthly_gbp');
    const invoice = await stripe.invoices.retrieve(done.invoice as string);
    const pi = invoice.payments?.data[0]?.payment.payment_intent as string;
    expect(standIn.paymentIntents.get(pi)?.amount).toBe(done.amount_total);
  });

  it('answers 401 for a revoked key and never answers a hanging path', async () => {
    standIn.revokedKeys.add('sk_test_revoked0123456789');
    const revoked = stripeClient({ secretKey: 'sk_test_revoked0123456789', apiBase: standIn.url });
    const err = await failure(revoked.products.list());
    expect(err.type).toBe('StripeAuthenticationError');
    standIn.hanging.add('/v1/products');
    try {
      const impatient = new Stripe('sk_test_standin0123456789', {
        host: '127.0.0.1',
        port: new URL(standIn.url).port,
        protocol: 'http',
        timeout: 200,
        maxNetworkRetries: 0,
      });
      const stalled = await failure(impatient.products.list());
      expect(stalled.type).toBe('StripeConnectionError');
    } finally {
      standIn.hanging.delete('/v1/products');
    }
  });

  it('makes webhook events the SDK verifies, on the pinned API version', () => {
    const event = stripeEvent('charge.refunded', { object: 'charge', id: 'ch_1' });
    const payload = JSON.stringify(event);
    const secret = 'whsec_standin';
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret });
    const verified = stripe.webhooks.constructEvent(payload, header, secret);
    expect(verified).toMatchObject({
      type: 'charge.refunded',
      api_version: Stripe.API_VERSION,
      data: { object: { id: 'ch_1' } },
    });
  });
});
