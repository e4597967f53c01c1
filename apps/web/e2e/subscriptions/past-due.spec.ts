import { operator, payment } from '@portal/contract';
import { CARDS } from '../commerce/commerce-helpers';
import { expect, expectAccessible, screenshots, test } from '../fixtures';
import { operatorClient } from '../robots/robots-helpers';
import { openSubscriptionManager, paySandboxCheckout, planButton } from './subscriptions-helpers';

/**
 * Renewals that retry (issue 31, decision 065): a Standard plan whose renewal fails on the sandbox
 * (the declining test card on file, the period ended by an operator) keeps working and keeps its
 * tier; the dashboard asks for a new card, and a card that pays renews the plan at once.
 */

async function updateCard(page: import('@playwright/test').Page, card: string) {
  await expect(page).toHaveURL(/\/sandbox\/billing\/[^/?]+$/);
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 40');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Update card' }).click();
  await expect(page.getByRole('status')).toBeVisible();
}

test('a past-due plan shows the banner and keeps its tier; a new card clears it', async ({ page, signedIn: user }) => {
  test.slow();
  await page.addInitScript(() => localStorage.setItem('theme', 'light'));
  await openSubscriptionManager(page);
  await planButton(page, 'Standard Subscription').click();
  await paySandboxCheckout(page);
  const active = await user.api.call(payment, 'GetActiveUserSubscription', { email: user.email });
  const subscriptionId = active.user_subscriptions[0]?.stripe_id ?? '';
  expect(subscriptionId).not.toBe('');

  // The card on file becomes the declining test card, then the period ends: the renewal fails.
  await openSubscriptionManager(page);
  await page.getByRole('button', { name: 'Update Payment Info' }).click();
  await updateCard(page, CARDS.declined);
  const ended = await operatorClient().call(operator, 'EndSubscriptionPeriod', { subscription_id: subscriptionId });
  expect(ended.run.payment_failed).toBe(1);
  expect(ended.statuses).toEqual(['active']);

  await page.goto('/dashboard');
  const banner = page.getByRole('region', { name: 'Your last payment failed' });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Update Payment Info' })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'dashboard-past-due');

  // The tier stays while the card is retried.
  await openSubscriptionManager(page);
  await expect(page.getByTestId('current-plan')).toHaveText('Standard');

  // A card that pays: the renewal goes through at once and the banner is gone.
  await page.goto('/dashboard');
  await banner.getByRole('button', { name: 'Update Payment Info' }).click();
  await updateCard(page, CARDS.success);
  await page.getByRole('link', { name: 'Return to the portal' }).click();
  await expect(page).toHaveURL(/\/dashboard\/?$/);
  const timeAnswered = page.waitForResponse(
    (r) =>
      r.request().method() === 'POST' &&
      (r.request().postDataJSON() as { action?: string } | null)?.action === 'CHECK_REMAINING_TIME',
  );
  await page.reload();
  await timeAnswered;
  await expect(banner).toHaveCount(0);
  await openSubscriptionManager(page);
  await expect(page.getByTestId('current-plan')).toHaveText('Standard');
});
