import { type Purchase, payment } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { as, driverAsset, signIn, useTestApp } from '../../test/fixtures.ts';
import {
  confirmReview,
  GOOD_FORM,
  line,
  openPage,
  postForm,
  robotLicensesOf,
  sessionOf,
} from './payment.test-helpers.ts';

/** ConfirmPurchase as a receipt (issue 32 item 3): reference, date, intervals, pairing codes. */
const t = useTestApp();

async function paidSession(user: Awaited<ReturnType<typeof signIn>>, lines: ReturnType<typeof line>[]) {
  const session = await sessionOf(t, user, lines);
  const { token } = await openPage(t, session.session_id);
  const paid = await postForm(t, session.session_id, 'pay', { ...GOOD_FORM, token });
  expect(paid.statusCode, paid.body).toBe(303);
  return session.session_id;
}

describe('ConfirmPurchase: the receipt of a paid session', () => {
  it('answers the order reference, the payment date, the recurring interval and each driver’s pairing code', async () => {
    await driverAsset(t, 'Pepper');
    const user = await signIn(t);
    const before = t.clock.now().getTime();
    const sessionId = await paidSession(user, [line('prod_driver_pepper', 'price_driver_pepper_yearly_gbp', 2)]);

    const res = await as(t, user, payment)('ConfirmPurchase', { session_id: sessionId });
    const purchase = res.body.purchase as Purchase;
    expect(purchase.reference).toMatch(/^RP-[0-9A-F]{8}$/);
    expect(purchase.paid_at).toBeGreaterThanOrEqual(before);
    expect(purchase.paid_at).toBeLessThanOrEqual(t.clock.now().getTime());
    expect(purchase.amount).toBe(29_800);
    expect(purchase.lines).toEqual([expect.objectContaining({ quantity: 2, interval: 'year' })]);

    const codes = (await robotLicensesOf(t, user)).map((l) => l.pair_code).sort();
    expect(purchase.pairings.map((p) => p.pair_code).sort()).toEqual(codes);
    expect(purchase.pairings.map((p) => p.robot_model)).toEqual(['Pepper', 'Pepper']);

    // The receipt mail carries the same reference.
    expect(t.mailer.lastTo(user.email)?.text).toContain(`Order: ${purchase.reference}`);
    // And asking again answers the same receipt.
    const again = await as(t, user, payment)('ConfirmPurchase', { session_id: sessionId });
    expect((again.body.purchase as Purchase).reference).toBe(purchase.reference);
  });

  it('a plan answers its interval and no pairing; a time package no interval', async () => {
    const user = await signIn(t);
    const plan = await paidSession(user, [line('prod_standard', 'price_standard_monthly_gbp')]);
    const planReceipt = (await as(t, user, payment)('ConfirmPurchase', { session_id: plan })).body.purchase as Purchase;
    expect(planReceipt.lines.map((l) => l.interval)).toEqual(['month']);
    expect(planReceipt.pairings).toEqual([]);

    const time = await paidSession(user, [line('prod_time_60', 'price_time_60_lite_gbp')]);
    const timeReceipt = (await as(t, user, payment)('ConfirmPurchase', { session_id: time })).body.purchase as Purchase;
    expect(timeReceipt.lines[0]).not.toHaveProperty('interval');
    expect(timeReceipt.reference).not.toBe(planReceipt.reference);
  });

  it('a plan change answers the reference and date of its prorated charge', async () => {
    const user = await signIn(t);
    await paidSession(user, [line('prod_standard', 'price_standard_monthly_gbp')]);
    const change = await sessionOf(t, user, [line('prod_pro', 'price_pro_yearly_gbp')]);
    await confirmReview(t, change.session_url);
    const receipt = (await as(t, user, payment)('ConfirmPurchase', { session_id: change.session_id })).body
      .purchase as Purchase;
    expect(receipt.status).toBe('paid');
    expect(receipt.amount).toBeGreaterThan(0);
    expect(receipt.reference).toMatch(/^RP-[0-9A-F]{8}$/);
    expect(receipt.paid_at).toEqual(expect.any(Number));
    // The prorated charge is one amount now, not a yearly price (issue 31: Payment Successful shows the amount charged).
    expect(receipt.lines.map((l) => [l.name, l.unit_amount, l.interval])).toEqual([
      ['Pro Subscription (plan change)', receipt.amount, undefined],
    ]);
  });

  it('an unpaid session has no reference, date or pairing', async () => {
    await driverAsset(t, 'Pepper');
    const user = await signIn(t);
    const session = await sessionOf(t, user, [line('prod_driver_pepper', 'price_driver_pepper_yearly_gbp')]);
    const res = await as(t, user, payment)('ConfirmPurchase', { session_id: session.session_id });
    expect(res.body.purchase).toMatchObject({ status: 'open', reference: '', pairings: [] });
    expect(res.body.purchase).not.toHaveProperty('paid_at');
  });
});
