import { payment } from '@portal/contract';
import { cartWidget } from '../commerce/commerce-helpers';
import { expect, expectAccessible, screenshots, test } from '../fixtures';
import {
  expectSubscriptionManager,
  openSubscriptionManager,
  paySandboxCheckout,
  planButton,
  planButtons,
  planCard,
} from './subscriptions-helpers';

/**
 * The plan cards on the sandbox provider (spec/001 §2 Subscription Manager, §4 tier derivation,
 * issue 11): a Lite account upgrades to Pro, gets infinite dial time, and the buttons follow the tier.
 */

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('theme', 'light'));
});

test('Lite -> Pro: the upgrade gives infinite dial time and the plan buttons change', async ({
  page,
  signedIn: user,
}) => {
  test.slow();
  // A new account is Lite: the dial panel offers the upgrade, which opens the Subscription Manager.
  await page.goto('/dashboard');
  const panel = page.getByTestId('dial-time-panel');
  await expect(panel.getByTestId('remaining-minutes')).toBeVisible();
  await panel.getByRole('link', { name: /Upgrade to Pro/ }).click();
  await expectSubscriptionManager(page);

  await expect(page.getByTestId('current-plan')).toHaveText('Lite');
  await expect(page.getByTestId('plan-card').getByRole('heading', { level: 2 })).toHaveText([
    'Lite Subscription',
    'Standard Subscription',
    'Pro Subscription',
  ]);
  expect(await planButtons(page)).toEqual([
    ['Current Plan', false],
    ['Upgrade Now', true],
    ['Upgrade Now', true],
  ]);
  const standard = planCard(page, 'Standard Subscription');
  await expect(standard.getByText('Most Popular', { exact: true })).toBeVisible();
  await expect(standard.getByRole('button', { name: 'Annually' })).toHaveAttribute('aria-pressed', 'true');
  await expect(standard.getByTestId('plan-price')).toHaveText('£150.00/year£12.50 per user per month');
  await standard.getByRole('button', { name: 'Monthly' }).click();
  await expect(standard.getByTestId('plan-price')).toHaveText('£15.00/month');
  const pro = planCard(page, 'Pro Subscription');
  await expect(pro.getByText('Everything in standard, plus...', { exact: true })).toBeVisible();
  await expect(pro.getByRole('listitem').filter({ hasText: 'Infinite dial time' })).toBeVisible();
  await expect(planCard(page, 'Lite Subscription').getByRole('button', { name: 'Annually' })).toHaveCount(0);
  await expect(planCard(page, 'Lite Subscription').getByTestId('plan-price')).toHaveText('£0/month');
  await expectAccessible(page);
  await screenshots(page, 'subscriptions-manager-lite');

  // Upgrade Now on Pro, billed annually: the cart holds only the plan, then the sandbox checkout.
  await planButton(page, 'Pro Subscription').click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/]+$/);
  await expect(page.getByRole('region', { name: 'Order summary' })).toContainText('1 × Pro Subscription');
  await expect(page.getByRole('button', { name: 'Pay £490.00' })).toBeVisible();
  await paySandboxCheckout(page);
  await expect(cartWidget(page)).toHaveCount(0);

  // One plan, Pro, from the server's tier rule.
  const active = await user.api.call(payment, 'GetActiveUserSubscription', { email: user.email });
  expect(active.user_subscriptions.map((s) => [s.subscription_tier, s.status])).toEqual([
    ['Pro Subscription', 'active'],
  ]);

  await page.goto('/dashboard');
  await expect(panel.getByText('Infinite Dial Time', { exact: true })).toBeVisible();
  await expect(panel.getByText('You have infinite dial time with your Pro subscription.')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Buy More Time' })).toHaveCount(0);
  await expect(panel.getByText('Upgrade to Pro')).toHaveCount(0);

  // The sidebar's Subscription Dashboard: Pro is the current plan, nothing is below it to buy.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subscription Dashboard' }).click();
  await expectSubscriptionManager(page);
  await expect(page.getByTestId('current-plan')).toHaveText('Pro');
  await expect(planButton(page, 'Pro Subscription')).toHaveText('Current Plan');
  expect(await planButtons(page)).toEqual([
    ['Unavailable', false],
    ['Unavailable', false],
    ['Current Plan', false],
  ]);
  await expectAccessible(page);
  await screenshots(page, 'subscriptions-manager-pro');
});

test('a Standard account sees Pro as its only upgrade, in the dark theme', async ({ page, signedIn: user }) => {
  test.slow();
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await openSubscriptionManager(page);
  await planButton(page, 'Standard Subscription').click();
  await paySandboxCheckout(page);
  const active = await user.api.call(payment, 'GetActiveUserSubscription', { email: user.email });
  expect(active.user_subscriptions.map((s) => s.subscription_tier)).toEqual(['Standard Subscription']);

  await openSubscriptionManager(page);
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByTestId('current-plan')).toHaveText('Standard');
  expect(await planButtons(page)).toEqual([
    ['Unavailable', false],
    ['Current Plan', false],
    ['Upgrade Now', true],
  ]);
  await expectAccessible(page);
  await screenshots(page, 'subscriptions-manager-dark');
});
