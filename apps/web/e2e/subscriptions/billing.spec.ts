import { operator, payment } from '@portal/contract';
import { expect, expectAccessible, screenshots, test } from '../fixtures';
import { operatorClient } from '../robots/robots-helpers';
import { openSubscriptionManager, paySandboxCheckout, planButton, planButtons } from './subscriptions-helpers';

/**
 * Update Payment Info and the Manage Subscription Page against the sandbox billing page (spec/001
 * §2, §7 CreateBillingPortalSession; issue 11): a Standard plan cancelled at period end keeps
 * working until its period ends, then shows Cancelled and the account is Lite again.
 */

test('cancel at period end from the billing page: Cancelled once the period ends', async ({ page, signedIn: user }) => {
  test.slow();
  await page.addInitScript(() => localStorage.setItem('theme', 'light'));
  await openSubscriptionManager(page);
  await planButton(page, 'Standard Subscription').click();
  await paySandboxCheckout(page);
  const active = await user.api.call(payment, 'GetActiveUserSubscription', { email: user.email });
  const plan = active.user_subscriptions[0];
  expect(plan?.subscription_tier).toBe('Standard Subscription');
  const subscriptionId = plan?.stripe_id || plan?.uuid || '';
  expect(subscriptionId).not.toBe('');

  // Update Payment Info on the Subscription Manager opens the billing page, which comes back here.
  await openSubscriptionManager(page);
  await page.getByRole('button', { name: 'Update Payment Info' }).click();
  await expect(page).toHaveURL(/\/sandbox\/billing\/[^/?]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to the portal' }).click();
  await expect(page).toHaveURL(/\/dashboard\/subscriptions\/manage$/);

  // The plan's own page: Active, with the button to the billing page.
  await page.goto(`/dashboard/subscriptions/manager/stripe/${encodeURIComponent(subscriptionId)}`);
  const details = page.getByRole('region', { name: 'Subscription Details' });
  await expect(details.getByTestId('status-badge')).toHaveText('Active');
  await expect(page.getByRole('table', { name: 'Subscription Items' }).getByTestId('item-row')).toHaveText([
    /^Standard Subscription/,
  ]);
  await details.getByRole('button', { name: 'Update Payment Info / Cancel' }).click();
  await expect(page).toHaveURL(/\/sandbox\/billing\/[^/?]+$/);
  await page.getByRole('button', { name: 'Cancel Standard Subscription at period end' }).click();
  await expect(page.getByRole('status')).toHaveText('The subscription will end at the end of its period.');
  await expect(page.getByRole('cell', { name: 'Active, cancels at period end' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to the portal' }).click();

  // Back on the page: still active until the period ends, and it says when that is.
  await expect(page).toHaveURL(new RegExp(`/dashboard/subscriptions/manager/stripe/${subscriptionId}$`));
  await expect(details.getByTestId('status-badge')).toHaveText('Active');
  await expect(details.getByTestId('cancels-on')).toHaveText(/^Cancels on [A-Z][a-z]{2} \d{2}, \d{4}$/);
  await expectAccessible(page);
  await screenshots(page, 'subscriptions-manage-cancelling');

  // The period ends (the sandbox's clock, moved on by an operator): the plan is Cancelled.
  const ended = await operatorClient().call(operator, 'EndSubscriptionPeriod', { subscription_id: subscriptionId });
  expect(ended.statuses).toEqual(['cancelled']);
  await page.reload();
  await expect(details.getByTestId('status-badge')).toHaveText('Cancelled');
  await expect(details.getByTestId('cancels-on')).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, 'subscriptions-manage-cancelled');

  // And the account is Lite again: Standard can be bought once more.
  await openSubscriptionManager(page);
  await expect(page.getByTestId('current-plan')).toHaveText('Lite');
  expect(await planButtons(page)).toEqual([
    ['Current Plan', false],
    ['Upgrade Now', true],
    ['Upgrade Now', true],
  ]);
});
