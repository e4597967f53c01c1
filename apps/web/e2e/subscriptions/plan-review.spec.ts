import { operator, payment } from '@portal/contract';
import { expect, expectAccessible, screenshots, test } from '../fixtures';
import { operatorClient } from '../robots/robots-helpers';
import { openSubscriptionManager, paySandboxCheckout, planButton } from './subscriptions-helpers';

/**
 * Upgrades are reviewed before they are charged (issue 31 finding 9, docs/decisions/066): Upgrade Now
 * for a customer with a plan "creates a checkout session, then redirects" (spec/001 §2) to the
 * server's review page with the prorated amount; Back charges nothing, Confirm charges once and
 * Payment Successful shows that amount.
 */

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('theme', 'light'));
});

test('Standard -> Pro on the sandbox: the review shows the prorated amount; Back charges nothing, Confirm once', async ({
  page,
  signedIn: user,
}) => {
  test.slow();
  const ops = operatorClient();
  const paymentsOf = async () => (await ops.call(operator, 'ListPayments', { email: user.email })).payments;

  await openSubscriptionManager(page);
  await planButton(page, 'Standard Subscription').click();
  await paySandboxCheckout(page);
  expect((await paymentsOf()).map((p) => p.kind)).toEqual(['checkout']);

  // Upgrade Now on Pro: the review page, nothing charged yet.
  await openSubscriptionManager(page);
  await expect(page.getByTestId('current-plan')).toHaveText('Standard');
  await planButton(page, 'Pro Subscription').click();
  await expect(page).toHaveURL(/\/billing\/review\/cs_change_[0-9a-f]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Review your plan change' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Plan change' });
  await expect(table.getByRole('row', { name: /^New plan/ })).toContainText('Pro Subscription');
  await expect(table.getByRole('row', { name: /^Card/ })).toContainText('Card ending 4242');
  await expect(table.getByRole('row', { name: /^Next renewal/ })).toContainText('£490.00');
  const due = ((await page.getByTestId('due-today').textContent()) ?? '').trim();
  expect(due).toMatch(/^£\d+\.\d{2}$/);
  expect(due).not.toBe('£0.00');
  await expect(page.getByRole('button', { name: 'Confirm' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Back' })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'plan-review');
  expect((await paymentsOf()).map((p) => p.kind)).toEqual(['checkout']);

  // Back: Payment Cancelled, nothing charged, still Standard.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/dashboard\/cart\/cancel/);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment Cancelled' })).toBeVisible();
  expect((await paymentsOf()).map((p) => p.kind)).toEqual(['checkout']);
  const standard = await user.api.call(payment, 'GetActiveUserSubscription', { email: user.email });
  expect(standard.user_subscriptions.map((s) => s.subscription_tier)).toEqual(['Standard Subscription']);

  // Upgrade Now again, Confirm: charged once, and Payment Successful shows the amount charged.
  await openSubscriptionManager(page);
  await planButton(page, 'Pro Subscription').click();
  await expect(page).toHaveURL(/\/billing\/review\/cs_change_[0-9a-f]+$/);
  const dueNow = ((await page.getByTestId('due-today').textContent()) ?? '').trim();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/dashboard\/cart\/success\?session_id=cs_change_/);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment Successful' })).toBeVisible();
  await expect(page.getByTestId('purchased-line')).toContainText('Pro Subscription (plan change)');
  await expect(page.getByText(dueNow, { exact: true }).last()).toBeVisible();
  await screenshots(page, 'plan-review-success');
  const charged = (await paymentsOf()).filter((p) => p.kind === 'plan_change');
  expect(charged).toHaveLength(1);
  expect(`£${((charged[0]?.amount ?? 0) / 100).toFixed(2)}`).toBe(dueNow);
  const pro = await user.api.call(payment, 'GetActiveUserSubscription', { email: user.email });
  expect(pro.user_subscriptions.map((s) => s.subscription_tier)).toEqual(['Pro Subscription']);

  // The review again (the browser's history): it says the change is confirmed; nothing more is charged.
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'This plan change is confirmed' })).toBeVisible();
  expect((await paymentsOf()).filter((p) => p.kind === 'plan_change')).toHaveLength(1);
});
