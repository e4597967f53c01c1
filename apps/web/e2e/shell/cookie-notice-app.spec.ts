import { addToCart, NAO, openAddRobot } from '../commerce/commerce-helpers';
import { expect, expectAccessible, screenshots, test } from '../fixtures';
import { expectShell, openUserMenu } from './shell-helpers';

/** spec/000 §2 Cookie notice, on every page (issue 32 item 7): inside the app, in every tab. */

const notice = (page: import('@playwright/test').Page) => page.getByRole('region', { name: 'Cookie notice' });

test('inside the app after sign-in, until OK; OK in one tab hides it in the other', async ({ page, signedIn }) => {
  void signedIn;
  await page.goto('/dashboard');
  await expectShell(page);
  await expect(notice(page)).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'shell-cookie-notice-app');

  const second = await page.context().newPage();
  await second.goto('/dashboard/downloads');
  await expectShell(second);
  await expect(notice(second)).toBeVisible();

  await notice(second).getByRole('button', { name: 'OK' }).click();
  await expect(notice(second)).toBeHidden();
  // The first tab is told without a reload: the user going back to it finds no notice (the
  // channel's message, the storage signal, and the focus check each hide it; component tests).
  await page.bringToFront();
  await expect(notice(page)).toBeHidden();
  const cookie = (await page.context().cookies()).find((c) => c.name === 'cookie_notice_acknowledged');
  expect(cookie).toMatchObject({ value: 'true', path: '/', sameSite: 'Lax' });

  await page.goto('/privacy-policy');
  await expect(page.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeVisible();
  await expect(notice(page)).toHaveCount(0);
});

test('on public pages too: the privacy policy and the hub sign-in result', async ({ page }) => {
  await page.goto('/privacy-policy');
  await expect(notice(page)).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'shell-cookie-notice-privacy');
  await page.goto('/auth/complete?success=true');
  await expect(page.getByText('Authentication Complete')).toBeVisible();
  await expect(notice(page)).toBeVisible();
});

test('at 390 px it covers no control: the sidebar, the cart and the user menu stay clickable', async ({
  page,
  signedIn,
}) => {
  void signedIn;
  await page.setViewportSize({ width: 390, height: 844 });
  await openAddRobot(page);
  await expect(notice(page)).toBeVisible();
  await addToCart(page, NAO.name);

  // A plain click fails when something else would receive it, so each is proof nothing lies on top.
  const menu = await openUserMenu(page);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();

  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  const cart = page.getByRole('button', { name: /^Shopping Cart, \d+ items?$/ });
  await cart.click();
  await expect(page.getByRole('dialog', { name: 'Shopping Cart' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.keyboard.press('Escape');
  await notice(page).getByRole('button', { name: 'OK' }).click();
  await expect(notice(page)).toBeHidden();
});

test('in the dark theme it is readable and axe clean', async ({ page, signedIn: _signedIn }) => {
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await page.goto('/dashboard');
  await expectShell(page);
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(notice(page)).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'shell-cookie-notice-app-dark');
});
