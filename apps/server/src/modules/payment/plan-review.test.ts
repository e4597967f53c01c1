import { formatPrice, ONE_DAY_S, payment } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingIntents, fulfilments } from '../../db/schema.ts';
import { as, closeApp, relogin, roboticsConfig, type SignedIn, signIn } from '../../test/fixtures.ts';
import { freshDatabase, type TestApp, testApp } from '../../test/harness.ts';
import { type StandIn, stripeEvent } from '../../test/stripe-stand-in.ts';
import { billingPage, payments, planRow, tierName } from '../subscriptions/subscriptions.test-helpers.ts';
import {
  CANCEL,
  checkout,
  GOOD_FORM,
  line,
  openPage,
  openReview,
  PUBLIC,
  postForm,
  postReview,
  postSignedPayload,
  SUCCESS,
  sessionOf,
  startStripeApp,
} from './payment.test-helpers.ts';

/**
 * Upgrades are reviewed before they are charged (issue 31 finding 9, spec/001 §2: the click "creates a
 * checkout session, then redirects"): the session of a plan change is the server's own review page,
 * in both modes; nothing is charged before Confirm, Back charges nothing, Confirm twice charges once.
 */

type Session = { session_id: string; session_url: string; amount: number };

const intentsOf = (t: TestApp, user: SignedIn) =>
  t.app.deps.db.select().from(billingIntents).where(eq(billingIntents.userId, user.id));

describe('the review on the sandbox', () => {
  let t: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const database = await freshDatabase();
    t = await testApp(database, roboticsConfig());
    close = async () => {
      await closeApp(t);
      await database.close();
    };
  });
  afterAll(() => close());

  async function standardCustomer() {
    const user = await signIn(t);
    const bought = await sessionOf(t, user, [line('prod_standard', 'price_standard_monthly_gbp')]);
    const { token } = await openPage(t, bought.session_id);
    expect((await postForm(t, bought.session_id, 'pay', { ...GOOD_FORM, token })).statusCode).toBe(303);
    return user;
  }
  const upgrade = (user: SignedIn) => sessionOf(t, user, [line('prod_pro', 'price_pro_monthly_gbp')]);

  it('shows the new plan, the prorated amount due today, the next renewal and the card; Back charges nothing', async () => {
    t.clock.advance(-10 * ONE_DAY_S * 1000);
    const user = await standardCustomer();
    t.clock.advance(10 * ONE_DAY_S * 1000);
    user.token = (await relogin(t, user)).token;
    const session = await upgrade(user);
    expect(session.session_url).toBe(`${PUBLIC}/billing/review/${session.session_id}`);
    // A third of the month is used: two thirds of the difference (4900 - 1500) is due today.
    expect(session.amount).toBe(Math.round(4900 * (20 / 30)) - Math.round(1500 * (20 / 30)));

    const { res, token } = await openReview(t, session.session_url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const text = res.body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('Review your plan change');
    expect(text).toContain('Sandbox — no real payment');
    expect(text).toContain('New plan Pro Subscription');
    expect(text).toContain(`Price ${formatPrice(4900, 'gbp')}/month`);
    expect(text).toContain(`Due today (prorated) ${formatPrice(session.amount, 'gbp')}`);
    expect(text).toMatch(
      new RegExp(`Next renewal \\d{1,2} \\w+ \\d{4}: ${formatPrice(4900, 'gbp').replace('.', '\\.')}`),
    );
    expect(text).toContain('Card Card ending 4242');
    expect(res.body).toContain('>Confirm</button>');
    expect(res.body).toContain('>Back</button>');
    // Nothing is charged before Confirm.
    expect((await payments(t, user)).map((p) => p.kind)).toEqual(['checkout']);
    expect(await tierName(t, user)).toBe('Standard Subscription');

    const back = await postReview(t, session.session_url, 'back', token);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(CANCEL);
    expect((await payments(t, user)).map((p) => p.kind)).toEqual(['checkout']);
    expect(await tierName(t, user)).toBe('Standard Subscription');
    expect((await intentsOf(t, user)).find((i) => i.kind === 'plan_change')?.status).toBe('cancelled');
    const after = await as(t, user, payment)('ConfirmPurchase', { session_id: session.session_id });
    expect(after.body.purchase).toMatchObject({ status: 'expired' });
    // A Confirm after Back charges nothing.
    expect((await postReview(t, session.session_url, 'confirm', token)).statusCode).toBe(409);
    expect((await payments(t, user)).map((p) => p.kind)).toEqual(['checkout']);
  });

  it('Confirm charges once however often it is sent; Payment Successful shows the amount charged', async () => {
    const user = await standardCustomer();
    const session = await upgrade(user);
    const { token } = await openReview(t, session.session_url);
    const sent = await Promise.all([1, 2, 3].map(() => postReview(t, session.session_url, 'confirm', token)));
    for (const res of sent) {
      expect(res.statusCode, res.body).toBe(303);
      expect(res.headers.location).toBe(`${SUCCESS}?session_id=${session.session_id}`);
    }
    const again = await postReview(t, session.session_url, 'confirm', token);
    expect(again.statusCode).toBe(303);
    const charged = (await payments(t, user)).filter((p) => p.kind === 'plan_change');
    expect(charged.map((p) => p.amount)).toEqual([session.amount]);
    expect(await tierName(t, user)).toBe('Pro Subscription');
    const purchase = (await as(t, user, payment)('ConfirmPurchase', { session_id: session.session_id })).body
      .purchase as { status: string; amount: number; reference: string };
    expect(purchase).toMatchObject({ status: 'paid', amount: session.amount });
    expect(purchase.reference).toMatch(/^RP-/);
    // Back after Confirm changes nothing.
    expect((await postReview(t, session.session_url, 'back', token)).statusCode).toBe(409);
    expect(await tierName(t, user)).toBe('Pro Subscription');
  });

  it('a declined card on file charges nothing and keeps the review; Confirm after a new card charges once', async () => {
    const user = await standardCustomer();
    const card = { card_number: '4000 0000 0000 0002', expiry: '12 / 40', cvc: '123' };
    expect((await (await billingPage(t, user)).post('card', card)).statusCode).toBe(303);
    const session = await upgrade(user);
    const { token } = await openReview(t, session.session_url);
    const declined = await postReview(t, session.session_url, 'confirm', token);
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('role="alert"');
    expect(declined.body).toContain('the card on file was declined');
    expect((await payments(t, user)).map((p) => p.kind)).toEqual(['checkout']);
    expect(await tierName(t, user)).toBe('Standard Subscription');

    const good = await (await billingPage(t, user)).post('card', { ...card, card_number: '4242 4242 4242 4242' });
    expect(good.statusCode).toBe(303);
    expect((await postReview(t, session.session_url, 'confirm', token)).statusCode).toBe(303);
    expect((await payments(t, user)).filter((p) => p.kind === 'plan_change').map((p) => p.amount)).toEqual([
      session.amount,
    ]);
    expect(await tierName(t, user)).toBe('Pro Subscription');
  });

  it('a Confirm that never finished (its claim left behind) is taken over by the next after a while', async () => {
    const user = await standardCustomer();
    const session = await upgrade(user);
    const { token } = await openReview(t, session.session_url);
    // The claim of a Confirm whose instance stopped mid-call, 6 minutes ago.
    await t.app.deps.db
      .insert(fulfilments)
      .values({ sessionId: session.session_id, fulfilledAt: new Date(t.clock.now().getTime() - 6 * 60_000) });
    expect((await postReview(t, session.session_url, 'confirm', token)).statusCode).toBe(303);
    expect((await payments(t, user)).filter((p) => p.kind === 'plan_change').map((p) => p.amount)).toEqual([
      session.amount,
    ]);
    expect(await tierName(t, user)).toBe('Pro Subscription');
  });

  it('refuses a post from elsewhere or without the page’s token, and is no checkout to pay', async () => {
    const user = await standardCustomer();
    const session = await upgrade(user);
    const { token } = await openReview(t, session.session_url);
    const foreign = await t.app.inject({
      method: 'POST',
      url: `${new URL(session.session_url).pathname}/confirm`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      payload: new URLSearchParams({ token }).toString(),
    });
    expect(foreign.statusCode).toBe(403);
    expect((await postReview(t, session.session_url, 'confirm', 'forged')).statusCode).toBe(403);
    // The sandbox's hosted checkout does not sell a plan change: only its review does.
    expect((await openPage(t, session.session_id)).res.statusCode).toBe(404);
    expect((await payments(t, user)).map((p) => p.kind)).toEqual(['checkout']);
    expect((await t.app.inject({ method: 'GET', url: '/billing/review/cs_change_nothing' })).statusCode).toBe(404);
  });
});

describe('the review on Stripe', () => {
  const WEBHOOK_SECRET = 'whsec_review0123456789';
  let standIn: StandIn;
  let t: TestApp;
  let priceId: (lookupKey: string) => string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ standIn, t, priceId, close } = await startStripeApp(WEBHOOK_SECRET, []));
  });
  afterAll(() => close());
  const nowS = () => Math.floor(t.clock.now().getTime() / 1000);

  /** A Standard plan bought at Stripe Checkout, its subscription charging a Visa ending 4242. */
  async function standardCustomer() {
    const user = await signIn(t);
    const res = await checkout(t, user, [line('prod_standard', priceId('price_standard_monthly_gbp'))]);
    const { session_id } = res.body.session as Session;
    const subId = `sub_review_${session_id}`;
    standIn.subscriptions.set(subId, {
      object: 'subscription',
      id: subId,
      status: 'active',
      customer: null,
      cancel_at_period_end: false,
      cancellation_details: null,
      default_payment_method: { object: 'payment_method', id: 'pm_review', card: { brand: 'visa', last4: '4242' } },
      items: {
        object: 'list',
        data: [
          {
            object: 'subscription_item',
            id: `si_${subId}`,
            price: standIn.prices.get(priceId('price_standard_monthly_gbp')),
            current_period_start: nowS(),
            current_period_end: nowS() + 30 * ONE_DAY_S,
          },
        ],
      },
    });
    const session = standIn.sessions.get(session_id) as Record<string, unknown>;
    Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subId });
    const payload = JSON.stringify({
      id: `evt_${session_id}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: nowS(),
      data: { object: session },
    });
    const hook = await postSignedPayload(t, payload, WEBHOOK_SECRET);
    expect(hook.statusCode, hook.body).toBe(200);
    return { user, subId };
  }
  const updates = (subId: string) =>
    standIn.posts.filter((p) => p.path === `/v1/subscriptions/${subId}` && p.params['items[0][price]']);

  it('shows Stripe’s preview; Confirm sends the update at the pinned proration date, once', async () => {
    const { user: buyer, subId } = await standardCustomer();
    t.clock.advance(6 * ONE_DAY_S * 1000);
    const user = await relogin(t, buyer);
    const res = await checkout(t, user, [line('prod_pro', priceId('price_pro_monthly_gbp'))]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const session = res.body.session as Session;
    expect(session.session_url).toBe(`${PUBLIC}/billing/review/${session.session_id}`);
    const preview = standIn.posts.filter((p) => p.path === '/v1/invoices/create_preview').at(-1)?.params ?? {};
    expect(preview).toMatchObject({
      subscription: subId,
      'subscription_details[items][0][id]': `si_${subId}`,
      'subscription_details[items][0][price]': priceId('price_pro_monthly_gbp'),
      'subscription_details[proration_behavior]': 'always_invoice',
      'subscription_details[proration_date]': String(nowS()),
    });
    // Stripe's figure: 24 of 30 days left of the difference.
    expect(session.amount).toBe(Math.round(4900 * 0.8) - Math.round(1500 * 0.8));

    const { res: page, token } = await openReview(t, session.session_url);
    const text = page.body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain(`Due today (prorated) ${formatPrice(session.amount, 'gbp')}`);
    expect(text).toContain('Card Visa ending 4242');
    expect(text).not.toContain('Sandbox');
    // Nothing is charged before Confirm, even when the customer takes their time.
    t.clock.advance(120_000);
    expect(updates(subId)).toHaveLength(0);
    expect(await tierName(t, user)).toBe('Standard Subscription');

    const [first, second] = await Promise.all([
      postReview(t, session.session_url, 'confirm', token),
      postReview(t, session.session_url, 'confirm', token),
    ]);
    expect(first?.statusCode, first?.body).toBe(303);
    expect(second?.statusCode, second?.body).toBe(303);
    expect((await postReview(t, session.session_url, 'confirm', token)).statusCode).toBe(303);
    // One update: the second Confirm waited for the first's outcome instead of calling Stripe.
    const sent = updates(subId);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.params).toMatchObject({
      'items[0][price]': priceId('price_pro_monthly_gbp'),
      proration_behavior: 'always_invoice',
      proration_date: preview['subscription_details[proration_date]'],
    });
    // What Stripe invoiced is what the review showed, and what Payment Successful shows.
    const latest = (standIn.subscriptions.get(subId) as { latest_invoice: string }).latest_invoice;
    expect((standIn.invoices.get(latest) as { amount_paid: number }).amount_paid).toBe(session.amount);
    const purchase = (await as(t, user, payment)('ConfirmPurchase', { session_id: session.session_id })).body.purchase;
    expect(purchase).toMatchObject({ status: 'paid', amount: session.amount, reference: '' });
    // Stripe's invoice.paid for the change links its charge to the session: the receipt's reference.
    const invoice = standIn.invoices.get(latest);
    const payload = JSON.stringify(stripeEvent('invoice.paid', invoice, { id: `evt_paid_${latest}`, created: nowS() }));
    expect((await postSignedPayload(t, payload, WEBHOOK_SECRET)).statusCode).toBe(200);
    const receipt = (await as(t, user, payment)('ConfirmPurchase', { session_id: session.session_id })).body.purchase;
    expect(receipt).toMatchObject({ amount: session.amount, reference: expect.stringMatching(/^RP-[0-9A-F]{8}$/) });
    expect(await tierName(t, user)).toBe('Pro Subscription');
    const intents = (await intentsOf(t, user)).filter((i) => i.kind === 'plan_change');
    expect(intents.map((i) => [i.status, i.providerRef])).toEqual([['done', subId]]);
  });

  it('Back goes to Payment Cancelled and sends nothing to Stripe', async () => {
    const { user, subId } = await standardCustomer();
    const session = (await checkout(t, user, [line('prod_pro', priceId('price_pro_yearly_gbp'))])).body
      .session as Session;
    const { token } = await openReview(t, session.session_url);
    const back = await postReview(t, session.session_url, 'back', token);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(CANCEL);
    expect(updates(subId)).toHaveLength(0);
    expect((await planRow(t, user)).subscription_tier).toBe('Standard Subscription');
    expect((await intentsOf(t, user)).find((i) => i.kind === 'plan_change')?.status).toBe('cancelled');
  });
});
