import { time } from '@portal/contract';
import { addToCart, cartWidget, NAO, openAddRobot } from '../commerce/commerce-helpers';
import { expect, expectAccessible, screenshots, test } from '../fixtures';
import { grantSubscription } from '../robots/robots-helpers';
import { paySandboxCheckout } from './subscriptions-helpers';

/**
 * Buy More Time on the dial panel (spec/001 §2, §9; issue 11) on the sandbox provider: the package
 * at the tier's price replaces the cart, and a paid checkout raises the durable minutes.
 */

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('theme', 'light'));
});

test('Buy More Time from the dial panel raises the durable minutes', async ({ page, signedIn: user }) => {
  test.slow();
  const before = await user.api.call(time, 'CHECK_REMAINING_TIME', { email: user.email });
  const durableBefore = before.user_time?.total_durable_time ?? 0;

  // Something else in the cart first: Buy More Time replaces it.
  await openAddRobot(page);
  await addToCart(page, NAO.name);
  await expect(cartWidget(page)).toHaveAccessibleName('Shopping Cart, 1 item');

  await page.goto('/dashboard');
  const panel = page.getByTestId('dial-time-panel');
  await panel.getByRole('button', { name: 'Buy More Time' }).click();
  const dialog = page.getByRole('dialog', { name: 'Buy More Time' });
  // Lite pays the highest price of each package.
  await expect(dialog.getByTestId('time-package')).toHaveText([
    '60 dial minutes£12.00',
    '300 dial minutes£50.00',
    '1200 dial minutes£180.00',
  ]);
  await expect(dialog.getByRole('radio', { name: /^60 dial minutes/ })).toBeChecked();
  await expectAccessible(page);
  await screenshots(page, 'subscriptions-buy-time');

  await dialog.getByRole('radio', { name: /^300 dial minutes/ }).click();
  await dialog.getByRole('button', { name: 'Go to Checkout' }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/]+$/);
  const summary = page.getByRole('region', { name: 'Order summary' });
  await expect(summary).toContainText('1 × 300 dial minutes');
  await expect(summary).not.toContainText(NAO.name);
  await expect(page.getByRole('button', { name: 'Pay £50.00' })).toBeVisible();
  await paySandboxCheckout(page);
  await expect(cartWidget(page)).toHaveCount(0);

  const after = await user.api.call(time, 'CHECK_REMAINING_TIME', { email: user.email });
  expect(after.user_time?.total_durable_time).toBe(durableBefore + 300);
  await page.goto('/dashboard');
  const total = after.user_time?.total_durable_time ?? 0;
  const left = total - (after.user_time?.used_durable_time ?? 0);
  await expect(
    panel.getByText(`${left.toLocaleString('en-GB')} minutes of ${total.toLocaleString('en-GB')} minutes`),
  ).toBeVisible();
});

test('a Standard account sees the member prices', async ({ page, signedIn: user }) => {
  await grantSubscription(user.email, 'Standard Subscription');
  await page.goto('/dashboard');
  const panel = page.getByTestId('dial-time-panel');
  await expect(panel.getByText('Upgrade to Pro')).toHaveCount(0);
  await panel.getByRole('button', { name: 'Buy More Time' }).click();
  const dialog = page.getByRole('dialog', { name: 'Buy More Time' });
  await expect(dialog.getByTestId('time-package')).toHaveText([
    '60 dial minutes£10.00',
    '300 dial minutes£40.00',
    '1200 dial minutes£150.00',
  ]);
});
