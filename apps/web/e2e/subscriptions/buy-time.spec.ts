import type { Page } from '@playwright/test';
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
  // The customer is told before the cart goes, in the cart page's count wording.
  await expect(dialog.getByText("Your cart's 1 Item will be replaced by this package")).toBeVisible();
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
  // An empty cart has nothing to replace, and the dialog says nothing of it.
  await expect(dialog.getByText(/will be replaced/)).toHaveCount(0);
});

test('in the dark theme the dialog and its cart notice are readable and axe clean', async ({
  page,
  signedIn: _signedIn,
}) => {
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await openAddRobot(page);
  await addToCart(page, NAO.name);
  await page.goto('/dashboard');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.getByTestId('dial-time-panel').getByRole('button', { name: 'Buy More Time' }).click();
  const dialog = page.getByRole('dialog', { name: 'Buy More Time' });
  await expect(dialog.getByText("Your cart's 1 Item will be replaced by this package")).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'subscriptions-buy-time-dark');
});

/**
 * Opens the dashboard, recording the actions of the POSTs it sends, and waits for the dial panel's
 * numbers; by then the page's own calls have gone and neither of Buy More Time's may have.
 */
async function dashboardWithoutDialogCalls(page: Page) {
  const actions: string[] = [];
  page.on('request', (request) => {
    const action = request.method() === 'POST' ? (request.postDataJSON() as { action?: string } | null)?.action : null;
    if (action) actions.push(action);
  });
  await page.goto('/dashboard');
  const panel = page.getByTestId('dial-time-panel');
  await expect(panel.getByTestId('remaining-minutes')).toBeVisible();
  expect(actions).toContain('CHECK_REMAINING_TIME');
  const dialogCalls = () => actions.filter((a) => a === 'GetActiveUserSubscription' || a === 'GetProducts').sort();
  expect(dialogCalls()).toEqual([]);
  return { button: panel.getByRole('button', { name: 'Buy More Time' }), dialogCalls };
}

test.describe('the tier and the catalogue are asked for on intent, not with the dashboard (decision 047)', () => {
  test('pointing at Buy More Time asks for them; the dialog then shows the packages', async ({
    page,
    signedIn: _user,
  }) => {
    const { button, dialogCalls } = await dashboardWithoutDialogCalls(page);
    await button.hover();
    await expect.poll(dialogCalls).toEqual(['GetActiveUserSubscription', 'GetProducts']);
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Buy More Time' });
    await expect(dialog.getByTestId('time-package')).toHaveText([
      '60 dial minutes£12.00',
      '300 dial minutes£50.00',
      '1200 dial minutes£180.00',
    ]);
    // Asked once: the dialog found the answers in the cache.
    expect(dialogCalls()).toEqual(['GetActiveUserSubscription', 'GetProducts']);
  });

  test('from the keyboard: focusing the button asks for them, Enter opens the dialog with the packages', async ({
    page,
    signedIn: _user,
  }) => {
    const { button, dialogCalls } = await dashboardWithoutDialogCalls(page);
    await button.focus();
    await expect.poll(dialogCalls).toEqual(['GetActiveUserSubscription', 'GetProducts']);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Buy More Time' });
    await expect(dialog.getByTestId('time-package')).toHaveCount(3);
    await expect(dialog.getByRole('radio', { name: /^60 dial minutes/ })).toBeChecked();
  });
});
