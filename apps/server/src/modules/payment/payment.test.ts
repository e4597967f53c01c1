import { ONE_DAY_S, payment } from '@portal/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { robotDriverSubscriptions } from '../../db/schema.ts';
import { as, driverAsset, expectFieldError, JUNK_BODIES, signIn, useTestApp } from '../../test/fixtures.ts';
import {
  CANCEL,
  checkout,
  durableMinutes,
  GOOD_FORM,
  line,
  openPage,
  postForm,
  robotLicensesOf,
  SUCCESS,
  sessionOf,
} from './payment.test-helpers.ts';

/** /api/stripe on the sandbox provider, and the sandbox's hosted checkout (docs/decisions/017). */
const t = useTestApp();

const PEPPER = line('prod_driver_pepper', 'price_driver_pepper_yearly_gbp');

async function tierUser(tier: 'Standard Subscription' | 'Pro Subscription') {
  const user = await signIn(t);
  const now = t.clock.now();
  await t.app.services.subscriptions.grant(t.app.deps.db, {
    userId: user.id,
    tier,
    overrideKind: 1,
    now,
    endsAt: null,
  });
  return user;
}

describe('GetProducts and GetCustomerID', () => {
  it('answers the catalogue with its metadata', async () => {
    const user = await signIn(t);
    const res = await as(t, user, payment)('GetProducts', {});
    expect(res.status).toBe(200);
    const products = (res.body as unknown as { products: { id: string; metadata: Record<string, string> }[] }).products;
    const ids = products.map((p) => p.id);
    expect(ids).toEqual(
      expect.arrayContaining(['prod_lite', 'prod_standard', 'prod_pro', 'prod_driver_pepper', 'prod_time_60']),
    );
    expect(products.find((p) => p.id === 'prod_driver_pepper')?.metadata).toMatchObject({
      BOW_SORTING: 'driver',
      BOW_UUID: 'driver-pepper',
    });
    expect(products.find((p) => p.id === 'prod_pro')?.metadata.BOW_FLEX_SLOTS).toBe('3');
  });

  it('creates the customer once', async () => {
    const user = await signIn(t);
    const first = await as(t, user, payment)('GetCustomerID', {});
    const again = await as(t, user, payment)('GetCustomerID', {});
    expect(first.body.customer_id).toMatch(/^cus_sandbox_/);
    expect(again.body.customer_id).toBe(first.body.customer_id);
  });
});

describe('HandlePurchase prices the cart itself', () => {
  it('ignores a forged client price: the amount is the catalogue price', async () => {
    const user = await signIn(t);
    const res = await checkout(t, user, [
      line('prod_driver_pepper', 'price_driver_pepper_yearly_gbp', 2, {
        unit_amount: 1,
        selected_price_unit_amount: 1,
      }),
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.session).toMatchObject({ amount: 2 * 14900, currency: 'gbp' });
    expect((res.body.session as { session_url: string }).session_url).toMatch(
      /^http:\/\/localhost:3999\/sandbox\/checkout\/cs_sandbox_/,
    );
  });

  it('charges a time package at the tier price: the highest for Lite, the lowest for Standard', async () => {
    const lite = await signIn(t);
    const standard = await tierUser('Standard Subscription');
    // The cart names the cheaper price; Lite pays the higher one all the same.
    const cart = [line('prod_time_60', 'price_time_60_member_gbp')];
    expect((await sessionOf(t, lite, cart)).amount).toBe(1200);
    expect((await sessionOf(t, standard, cart)).amount).toBe(1000);
  });

  it('refuses a time package to Pro, naming the line', async () => {
    const pro = await tierUser('Pro Subscription');
    expectFieldError(
      await checkout(t, pro, [PEPPER, line('prod_time_60', 'price_time_60_member_gbp')]),
      400,
      'session.products.1.id',
    );
  });

  it('refuses a cart in two currencies', async () => {
    const user = await signIn(t);
    const res = await checkout(t, user, [
      line('prod_driver_pepper', 'price_driver_pepper_yearly_usd'),
      line('prod_driver_nao', 'price_driver_nao_yearly_gbp'),
    ]);
    expectFieldError(res, 400, 'session.products.1.selected_price_id');
  });

  it('refuses return addresses off the portal', async () => {
    const user = await signIn(t);
    expectFieldError(
      await checkout(t, user, [PEPPER], { success: 'https://evil.example/steal' }),
      400,
      'session.success_url',
    );
    expectFieldError(
      await checkout(t, user, [PEPPER], { cancel: 'http://localhost.evil.example:3999/x' }),
      400,
      'session.cancel_url',
    );
  });

  it('refuses unknown products, prices not of the product, Lite, and bad quantities', async () => {
    const user = await signIn(t);
    expectFieldError(await checkout(t, user, [line('prod_nothing', 'p')]), 400, 'session.products.0.id');
    expectFieldError(
      await checkout(t, user, [line('prod_driver_pepper', 'price_pro_yearly_gbp')]),
      400,
      'session.products.0.selected_price_id',
    );
    expectFieldError(await checkout(t, user, [line('prod_lite', 'price_lite_gbp')]), 400, 'session.products.0.id');
    for (const quantity of [0, -1, 1.5, 1000])
      expectFieldError(await checkout(t, user, [{ ...PEPPER, quantity }]), 400, 'session.products.0.quantity');
    expectFieldError(await checkout(t, user, []), 400, 'session.products');
  });

  it('refuses monthly and yearly renewals in one checkout', async () => {
    const user = await signIn(t);
    expectFieldError(
      await checkout(t, user, [PEPPER, line('prod_standard', 'price_standard_monthly_gbp')]),
      400,
      'session.products.1.selected_price_id',
    );
  });

  it('never answers 5xx to junk', async () => {
    const user = await signIn(t);
    for (const action of ['GetProducts', 'GetCustomerID', 'HandlePurchase', 'ConfirmPurchase'] as const)
      for (const body of [...JUNK_BODIES, { session: 'x' }, { session: { products: [{}] } }, { session_id: 42 }]) {
        const res = await as(t, user, payment)(action, body);
        expect(res.status, `${action} ${JSON.stringify(body)}`).toBeLessThan(500);
        if (res.status >= 400) expect(res.body.error.Description).toMatch(/^[\w.[\]]+: /);
      }
  });

  it('a new account has no subscriptions, and GetSubscription of another id is a 404 naming it', async () => {
    const user = await signIn(t);
    const res = await as(t, user, payment)('ListSubscriptions', {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_subscriptions: [], robot_driver_subscriptions: [] });
    expectFieldError(
      await as(t, user, payment)('GetSubscription', { subscription_id: 'sub_nope' }),
      404,
      'subscription_id',
    );
  });
});

describe('the sandbox checkout', () => {
  it('shows the sandbox notice, the order and the card form', async () => {
    const user = await signIn(t);
    const session = await sessionOf(t, user, [PEPPER]);
    const { res, token } = await openPage(t, session.session_id);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Sandbox — no real payment');
    expect(res.body).toContain('Pepper driver');
    expect(res.body).toContain('£149.00/year');
    expect(res.body).not.toContain('<script');
    expect(token).not.toBe('');
  });

  it('4242 grants unpaired licenses with pairing codes and a driver subscription each, once', async () => {
    await driverAsset(t, 'Pepper');
    const user = await signIn(t);
    const session = await sessionOf(t, user, [{ ...PEPPER, quantity: 2 }]);
    const { token } = await openPage(t, session.session_id);
    const paid = await postForm(t, session.session_id, 'pay', { ...GOOD_FORM, token });
    expect(paid.statusCode, paid.body).toBe(303);
    expect(paid.headers.location).toBe(`${SUCCESS}?session_id=${session.session_id}`);

    const licenses = await robotLicensesOf(t, user);
    expect(licenses).toHaveLength(2);
    for (const l of licenses) {
      expect(l.paired_status).toBe(false);
      expect(l.pair_code).toMatch(/\S{6,}/);
      expect(l.robot_license.duration).toBe(365 * ONE_DAY_S);
    }
    const rows = await t.app.deps.db
      .select()
      .from(robotDriverSubscriptions)
      .where(eq(robotDriverSubscriptions.userId, user.id));
    expect(rows.map((r) => r.status)).toEqual(['active', 'active']);
    expect(rows.map((r) => r.robotLicenseId).sort()).toEqual(licenses.map((l) => l.robot_license.license_id).sort());
    expect(rows[0]?.durationS).toBe(365 * ONE_DAY_S);

    const receipt = t.mailer.lastTo(user.email);
    expect(receipt?.text).toContain('Ada Lovelace');
    expect(receipt?.text).toContain('£298.00');

    // The success page confirms; a second Pay is refused; nothing more is granted.
    const confirmed = await as(t, user, payment)('ConfirmPurchase', { session_id: session.session_id });
    expect(confirmed.body.purchase).toMatchObject({ status: 'paid', amount: 29_800 });
    const again = await postForm(t, session.session_id, 'pay', { ...GOOD_FORM, token });
    expect(again.statusCode).toBe(409);
    expect(await robotLicensesOf(t, user)).toHaveLength(2);
  });

  it.each([
    ['4000 0000 0000 0002', 'Your card was declined.'],
    ['4000 0000 0000 9995', 'Your card has insufficient funds.'],
  ])('%s grants nothing and says why', async (card, message) => {
    const user = await signIn(t);
    const session = await sessionOf(t, user, [PEPPER]);
    const { token } = await openPage(t, session.session_id);
    const res = await postForm(t, session.session_id, 'pay', { ...GOOD_FORM, card_number: card, token });
    expect(res.statusCode).toBe(402);
    expect(res.body).toContain(message);
    expect(await robotLicensesOf(t, user)).toHaveLength(0);
    const confirmed = await as(t, user, payment)('ConfirmPurchase', { session_id: session.session_id });
    expect(confirmed.body.purchase).toMatchObject({ status: 'open' });
  });

  it('names the field of a bad form', async () => {
    const user = await signIn(t);
    const session = await sessionOf(t, user, [PEPPER]);
    const { token } = await openPage(t, session.session_id);
    const cases: [Record<string, string>, string][] = [
      [{ card_number: '1234 5678' }, 'Card number:'],
      [{ expiry: '13 / 30' }, 'Expiry:'],
      [{ expiry: '01 / 20' }, 'Expiry: the card has expired'],
      [{ cvc: '1' }, 'CVC:'],
      [{ email: 'nope' }, 'Email:'],
      [{ postcode: '' }, 'Postcode: required'],
    ];
    for (const [change, message] of cases) {
      const res = await postForm(t, session.session_id, 'pay', { ...GOOD_FORM, ...change, token });
      expect(res.statusCode, message).toBe(400);
      expect(res.body).toContain(message);
    }
    expect(await robotLicensesOf(t, user)).toHaveLength(0);
  });

  it('refuses a post from another site or without the page token', async () => {
    const user = await signIn(t);
    const session = await sessionOf(t, user, [PEPPER]);
    const { token } = await openPage(t, session.session_id);
    const foreign = await postForm(
      t,
      session.session_id,
      'pay',
      { ...GOOD_FORM, token },
      { origin: 'https://evil.example' },
    );
    expect(foreign.statusCode).toBe(403);
    const none = await postForm(t, session.session_id, 'pay', { ...GOOD_FORM, token }, {});
    expect(none.statusCode).toBe(403);
    const forged = await postForm(t, session.session_id, 'pay', { ...GOOD_FORM, token: 'x' });
    expect(forged.statusCode).toBe(403);
    expect(await robotLicensesOf(t, user)).toHaveLength(0);
  });

  it('cancel expires the session, grants nothing and returns to cancel_url', async () => {
    const user = await signIn(t);
    const session = await sessionOf(t, user, [PEPPER]);
    const { token } = await openPage(t, session.session_id);
    const res = await postForm(t, session.session_id, 'cancel', { token });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(CANCEL);
    const pay = await postForm(t, session.session_id, 'pay', { ...GOOD_FORM, token });
    expect(pay.statusCode).toBe(409);
    expect(await robotLicensesOf(t, user)).toHaveLength(0);
    const confirmed = await as(t, user, payment)('ConfirmPurchase', { session_id: session.session_id });
    expect(confirmed.body.purchase).toMatchObject({ status: 'expired' });
  });

  it('a time package adds durable minutes once', async () => {
    const user = await signIn(t);
    const before = await durableMinutes(t, user);
    const session = await sessionOf(t, user, [line('prod_time_300', 'price_time_300_lite_gbp', 2)]);
    const { token } = await openPage(t, session.session_id);
    expect((await postForm(t, session.session_id, 'pay', { ...GOOD_FORM, token })).statusCode).toBe(303);
    expect(await durableMinutes(t, user)).toBe(before + 600);
    await t.app.services.payments.fulfil(session.session_id);
    expect(await durableMinutes(t, user)).toBe(before + 600);
  });

  it('paths racing to fulfil one session grant once', async () => {
    const user = await signIn(t);
    const session = await sessionOf(t, user, [PEPPER, line('prod_time_60', 'price_time_60_lite_gbp')]);
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => t.app.services.payments.fulfil(session.session_id)),
      as(t, user, payment)('ConfirmPurchase', { session_id: session.session_id }),
    ]);
    expect(results.filter((r) => r && 'licenses' in r)).toHaveLength(1);
    expect(await robotLicensesOf(t, user)).toHaveLength(1);
    expect(await durableMinutes(t, user)).toBe(60);
  });

  it('ConfirmPurchase shows only the caller’s own sessions', async () => {
    const owner = await signIn(t);
    const other = await signIn(t);
    const session = await sessionOf(t, owner, [PEPPER]);
    expectFieldError(
      await as(t, other, payment)('ConfirmPurchase', { session_id: session.session_id }),
      404,
      'session_id',
    );
  });

  it('has no Stripe webhook: the sandbox answers 404 there', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(404);
  });

  it('answers 404 for an unknown checkout page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sandbox/checkout/cs_sandbox_nothing' });
    expect(res.statusCode).toBe(404);
  });
});
