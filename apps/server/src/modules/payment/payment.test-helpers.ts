import { license, payment, time } from '@portal/contract';
import Stripe from 'stripe';
import { expect } from 'vitest';
import { as, closeApp, driverAsset, roboticsConfig, type SignedIn } from '../../test/fixtures.ts';
import { freshDatabase, type TestApp, testApp } from '../../test/harness.ts';
import { type StandIn, startStripeStandIn } from '../../test/stripe-stand-in.ts';
import { loadCatalogue } from './catalogue.ts';

/** Shared by the payment tests: a cart, a checkout, the sandbox's form posts. */

export const PUBLIC = 'http://localhost:3999';
export const SUCCESS = `${PUBLIC}/dashboard/cart/success`;
export const CANCEL = `${PUBLIC}/dashboard/cart/cancel`;

export const line = (id: string, price: string, quantity = 1, extra: Record<string, unknown> = {}) => ({
  id,
  selected_price_id: price,
  quantity,
  ...extra,
});

export function checkout(
  t: TestApp,
  user: SignedIn,
  products: unknown[],
  urls: { success?: string; cancel?: string } = {},
) {
  return as(
    t,
    user,
    payment,
  )('HandlePurchase', {
    session: { products, success_url: urls.success ?? SUCCESS, cancel_url: urls.cancel ?? CANCEL },
  });
}

export async function sessionOf(t: TestApp, user: SignedIn, products: unknown[]) {
  const res = await checkout(t, user, products);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as unknown as { session: { session_id: string; session_url: string; amount: number } }).session;
}

export const GOOD_FORM = {
  name: 'Ada Lovelace',
  email: 'ada@example.test',
  line1: '1 Analytical Row',
  city: 'London',
  postcode: 'N1 9GU',
  country: 'United Kingdom',
  card_number: '4242 4242 4242 4242',
  expiry: '12 / 40',
  cvc: '123',
};

/** The hosted page of a sandbox session and its form token. */
export async function openPage(t: TestApp, sessionId: string) {
  const res = await t.app.inject({ method: 'GET', url: `/sandbox/checkout/${sessionId}` });
  const token = /name="token" value="([^"]+)"/.exec(res.body)?.[1] ?? '';
  return { res, token };
}

/** A form post to the sandbox as the browser sends it from the page. */
export async function postForm(
  t: TestApp,
  sessionId: string,
  what: 'pay' | 'cancel',
  form: Record<string, string>,
  headers: Record<string, string> = { origin: PUBLIC },
) {
  return t.app.inject({
    method: 'POST',
    url: `/sandbox/checkout/${sessionId}/${what}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(form).toString(),
  });
}

export async function robotLicensesOf(t: TestApp, user: SignedIn) {
  const res = await as(t, user, license)('GetLicenses', {});
  return (
    (
      res.body as unknown as {
        user_licenses?: {
          robot_licenses: {
            pair_code: string;
            paired_status: boolean;
            robot_license: { license_id: string; duration: number };
          }[];
        };
      }
    ).user_licenses?.robot_licenses ?? []
  );
}

export async function durableMinutes(t: TestApp, user: SignedIn): Promise<number> {
  const res = await as(t, user, time)('CHECK_REMAINING_TIME', {});
  return (res.body as unknown as { user_time: { total_durable_time: number } }).user_time.total_durable_time;
}

/**
 * A portal in Stripe mode on a fresh database, its Stripe SDK pointed at a local stand-in of
 * Stripe's API (docs/decisions/017), with the driver assets of `models`. `close` ends all three.
 */
export async function startStripeApp(webhookSecret: string, models: readonly string[]) {
  const standIn = await startStripeStandIn(loadCatalogue());
  const database = await freshDatabase();
  const t = await testApp(
    database,
    roboticsConfig({
      STRIPE_SECRET_KEY: 'sk_test_standin0123456789',
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: standIn.url,
    }),
  );
  for (const model of models) await driverAsset(t, model);
  return {
    standIn,
    database,
    t,
    /** Stripe's price id of a catalogue price (its lookup key). */
    priceId(lookupKey: string): string {
      const price = [...standIn.prices.values()].find((p) => p.lookup_key === lookupKey);
      if (!price) throw new Error(`no stand-in price ${lookupKey}`);
      return price.id as string;
    },
    async close() {
      await closeApp(t);
      await database.close();
      await standIn.close();
    },
  };
}

/** The review page of a plan change (issue 31): its answer and form token, from the session's URL. */
export async function openReview(t: TestApp, sessionUrl: string) {
  const res = await t.app.inject({ method: 'GET', url: new URL(sessionUrl).pathname });
  const token = /name="token" value="([^"]+)"/.exec(res.body)?.[1] ?? '';
  return { res, token };
}

/** Confirm or Back on the review page, as the browser posts it from the page. */
export async function postReview(t: TestApp, sessionUrl: string, what: 'confirm' | 'back', token: string) {
  return t.app.inject({
    method: 'POST',
    url: `${new URL(sessionUrl).pathname}/${what}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC },
    payload: new URLSearchParams({ token }).toString(),
  });
}

/** A plan change reviewed and confirmed: the page, then Confirm, which redirects to the success URL. */
export async function confirmReview(t: TestApp, sessionUrl: string) {
  const { res, token } = await openReview(t, sessionUrl);
  expect(res.statusCode, res.body).toBe(200);
  const confirmed = await postReview(t, sessionUrl, 'confirm', token);
  expect(confirmed.statusCode, confirmed.body).toBe(303);
  return confirmed;
}

const signer = new Stripe('sk_test_signer');

/**
 * A webhook call as Stripe makes it: the payload signed with the endpoint's secret (the SDK's test
 * header), or with `signature` as given. Answers the raw answer.
 */
export function postSignedPayload(t: TestApp, payload: string, secret: string, signature?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signature ?? signer.webhooks.generateTestHeaderString({ payload, secret }),
    },
    payload,
  });
}

/**
 * A Stripe subscription of one plan item on `priceId`, held by the stand-in as Stripe would after a
 * checkout (its id `si_<id>` for the item), with `extra` fields over it.
 */
export function standInSubscription(
  standIn: StandIn,
  id: string,
  priceId: string,
  periodEndS: number,
  extra: Record<string, unknown> = {},
) {
  const sub = {
    object: 'subscription',
    id,
    status: 'active',
    cancel_at_period_end: false,
    cancellation_details: null,
    items: {
      object: 'list',
      data: [
        {
          object: 'subscription_item',
          id: `si_${id}`,
          price: standIn.prices.get(priceId),
          current_period_end: periodEndS,
        },
      ],
    },
    ...extra,
  };
  standIn.subscriptions.set(id, sub);
  return sub;
}

/**
 * Stripe objects as webhooks carry them, for the events tests: a renewal invoice of a subscription
 * (its period ending `periodEndS`), a charge with its refunds, a dispute on a payment.
 */
export const stripeInvoice = (id: string, subId: string, periodEndS: number, extra: Record<string, unknown> = {}) => ({
  object: 'invoice',
  id,
  billing_reason: 'subscription_cycle',
  amount_paid: 1500,
  currency: 'gbp',
  parent: { type: 'subscription_details', subscription_details: { subscription: subId } },
  lines: {
    object: 'list',
    data: [{ description: 'Standard Subscription', quantity: 1, amount: 1500, period: { end: periodEndS } }],
  },
  ...extra,
});

export const stripeCharge = (paymentIntent: string, amount: number, refunds: { id: string; amount: number }[]) => ({
  object: 'charge',
  id: `ch_${paymentIntent}`,
  payment_intent: paymentIntent,
  amount,
  amount_refunded: refunds.reduce((n, r) => n + r.amount, 0),
  refunds: {
    object: 'list',
    data: refunds.map((r) => ({ object: 'refund', status: 'succeeded', payment_intent: paymentIntent, ...r })),
  },
});

export const stripeDispute = (paymentIntent: string, amount: number, status: string) => ({
  object: 'dispute',
  id: `dp_${paymentIntent}`,
  charge: `ch_${paymentIntent}`,
  payment_intent: paymentIntent,
  amount,
  status,
});
