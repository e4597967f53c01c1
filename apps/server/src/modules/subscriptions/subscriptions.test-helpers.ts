import {
  type ActiveSubscriptionResponse,
  type OperatorPayment,
  operator,
  payment,
  type RobotDriverSubscription,
  time,
  type UserSubscription,
  type UserTime,
} from '@portal/contract';
import { expect } from 'vitest';
import { as, asOperator, type SignedIn } from '../../test/fixtures.ts';
import type { TestApp } from '../../test/harness.ts';
import { GOOD_FORM, line, openPage, PUBLIC, postForm, sessionOf } from '../payment/payment.test-helpers.ts';

/** Shared by the subscription tests: buying plans in the sandbox, its billing page, reading state back. */

export const PLAN = {
  standardMonthly: line('prod_standard', 'price_standard_monthly_gbp'),
  standardYearly: line('prod_standard', 'price_standard_yearly_gbp'),
  proMonthly: line('prod_pro', 'price_pro_monthly_gbp'),
  pepper: line('prod_driver_pepper', 'price_driver_pepper_yearly_gbp'),
  time60: line('prod_time_60', 'price_time_60_lite_gbp'),
};

/** Buys the lines through the sandbox's hosted checkout with the card that pays. */
export async function buy(t: TestApp, user: SignedIn, products: unknown[], card = GOOD_FORM.card_number) {
  const session = await sessionOf(t, user, products);
  const { token } = await openPage(t, session.session_id);
  const res = await postForm(t, session.session_id, 'pay', { ...GOOD_FORM, card_number: card, token });
  expect(res.statusCode, res.body).toBe(303);
  return session;
}

export async function userTime(t: TestApp, user: SignedIn): Promise<UserTime> {
  const res = await as(t, user, time)('CHECK_REMAINING_TIME', { user_id: user.id });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.user_time as UserTime;
}

export async function tierName(t: TestApp, user: SignedIn): Promise<string> {
  return (await userTime(t, user)).subscription_type;
}

/** Fills the user's first slots with these catalogue robot ids, through the dial manager's UPDATE_SLOTS. */
export function fillSlots(t: TestApp, user: SignedIn, robotIds: readonly string[]) {
  return as(
    t,
    user,
    time,
  )('UPDATE_SLOTS', {
    email: undefined,
    user_email: user.email,
    user_slots: robotIds.map((robot_id, slot_id) => ({ slot_id, license_id: '', robot_id, updated_on: 0 })),
  });
}

export async function slotAmount(t: TestApp, user: SignedIn): Promise<number> {
  const res = await as(t, user, time)('GET_SLOTS', { email: undefined, user_email: user.email });
  return res.body.user_slot_amount as number;
}

export async function listed(t: TestApp, user: SignedIn) {
  const res = await as(t, user, payment)('ListSubscriptions', {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as {
    user_subscriptions: UserSubscription[];
    robot_driver_subscriptions: RobotDriverSubscription[];
  };
}

export async function active(t: TestApp, user: SignedIn): Promise<ActiveSubscriptionResponse> {
  const res = await as(t, user, payment)('GetActiveUserSubscription', {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as ActiveSubscriptionResponse;
}

/** The user's one paid plan row (fails when there is not exactly one plan that is not over). */
export async function planRow(t: TestApp, user: SignedIn): Promise<UserSubscription> {
  const plans = (await listed(t, user)).user_subscriptions.filter(
    (s) => s.overrideReason === 99 && (s.status === 'active' || s.status === 'inactive'),
  );
  expect(plans).toHaveLength(1);
  return plans[0] as UserSubscription;
}

export const ops = (t: TestApp) => asOperator(t, operator);

export async function payments(t: TestApp, user: SignedIn): Promise<OperatorPayment[]> {
  const res = await ops(t)('ListPayments', { email: user.email });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.payments as OperatorPayment[];
}

export async function endPeriod(t: TestApp, subscriptionId: string) {
  const res = await ops(t)('EndSubscriptionPeriod', { subscription_id: subscriptionId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as { run: Record<string, number>; statuses: string[] };
}

export async function runLifecycle(t: TestApp) {
  const res = await ops(t)('RunLifecycle', {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.run as { renewed: number; payment_failed: number; ended: number; reminders: number };
}

/** The sandbox billing page of the user, opened as CreateBillingPortalSession answers it. */
export async function billingPage(t: TestApp, user: SignedIn) {
  const res = await as(
    t,
    user,
    payment,
  )('CreateBillingPortalSession', { return_url: `${PUBLIC}/dashboard/subscriptions/manage` });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const url = (res.body.session as { session_url: string }).session_url;
  const path = new URL(url).pathname;
  const page = await t.app.inject({ method: 'GET', url: path });
  const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  return {
    url,
    path,
    page,
    token,
    post: (what: string, form: Record<string, string>, headers: Record<string, string> = { origin: PUBLIC }) =>
      t.app.inject({
        method: 'POST',
        url: `${path}/${what}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: new URLSearchParams({ token, ...form }).toString(),
      }),
  };
}

/** Mails to the user whose subject matches. */
export function mails(t: TestApp, user: SignedIn, subject: RegExp) {
  return t.mailer.sent.filter((m) => m.to === user.email && subject.test(m.subject));
}
