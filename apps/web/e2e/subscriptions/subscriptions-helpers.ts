import type { Locator, Page } from '@playwright/test';
import { operator } from '@portal/contract';
import { CARDS, cartWidget, expectSandboxPage, fillBilling, payWith } from '../commerce/commerce-helpers';
import { expect } from '../fixtures';
import { operatorClient } from '../robots/robots-helpers';

/** Shared steps of the subscription specs (spec/001 §2 Subscription Manager, Manage Subscription, Buy More Time). */

export const PLANS = ['Lite Subscription', 'Standard Subscription', 'Pro Subscription'] as const;
export type PlanName = (typeof PLANS)[number];

/** Opens the Subscription Manager and waits for its plan cards. */
export async function openSubscriptionManager(page: Page) {
  await page.goto('/dashboard/subscriptions/manage');
  await expectSubscriptionManager(page);
}

export async function expectSubscriptionManager(page: Page) {
  await expect(page).toHaveURL(/\/dashboard\/subscriptions\/manage$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Subscription Manager' })).toBeVisible();
  await expect(page.getByTestId('plan-card')).toHaveCount(PLANS.length);
}

export const planCard = (page: Page, name: PlanName): Locator => page.getByRole('region', { name, exact: true });

/** The button at the foot of a plan card: Current Plan, Unavailable or Upgrade Now. */
export const planButton = (page: Page, name: PlanName): Locator =>
  planCard(page, name).getByRole('button', { name: /^(Current Plan|Unavailable|Upgrade Now)$/ });

/** The three plan buttons in card order, as [label, enabled]. */
export async function planButtons(page: Page): Promise<[string, boolean][]> {
  const out: [string, boolean][] = [];
  for (const name of PLANS) {
    const button = planButton(page, name);
    out.push([((await button.textContent()) ?? '').trim(), await button.isEnabled()]);
  }
  return out;
}

/**
 * Pays the sandbox checkout the browser is on with the test card that succeeds, and waits for
 * Payment Successful to have emptied the cart (a next purchase must not carry these lines).
 */
export async function paySandboxCheckout(page: Page) {
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/]+$/);
  await expectSandboxPage(page);
  await fillBilling(page);
  await payWith(page, CARDS.success);
  await expect(page).toHaveURL(/\/dashboard\/cart\/success\?session_id=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment Successful' })).toBeVisible();
  await expect(page.getByTestId('purchased-line').first()).toBeVisible();
  await expect(cartWidget(page)).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('cart'))).toBeNull();
}

/** The Robot Driver Subscriptions table and its rows. */
export const driversTable = (page: Page) => page.getByRole('table', { name: 'Robot Driver Subscriptions' });
export const driverRows = (page: Page) => page.getByTestId('driver-row');

/** Opens a row's actions menu (by its product name) and answers the menu. */
export async function openRowActions(page: Page, row: Locator, product: string): Promise<Locator> {
  await row.getByRole('button', { name: `Actions for ${product}` }).click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  return menu;
}

/** Refunds the newest payment of an account in full, as an operator would (RefundPayment). */
export async function refundNewestPayment(email: string) {
  const client = operatorClient();
  const { payments } = await client.call(operator, 'ListPayments', { email });
  const newest = payments[0];
  if (!newest) throw new Error(`no payment for ${email}`);
  return client.call(operator, 'RefundPayment', { payment_id: newest.payment_id });
}
