import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { openUserMenu } from '../shell/shell-helpers';
import { addedToast, NAO, openAddRobot, priceButton } from './commerce-helpers';

/** Issue 32 item 6: toasts go bottom-right on a desktop and at the bottom, above the cart widget, on a phone. */

async function box(locator: ReturnType<Page['locator']>) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
}

test('desktop: the toast is bottom-right, and the user menu and Filter by Model work while it shows', async ({
  page,
  signedIn: _signedIn,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openAddRobot(page);
  await priceButton(page, NAO.name).click();
  const toast = page.locator('[data-sonner-toast]').filter({ has: addedToast(page, NAO.name) });
  await expect(toast).toBeVisible();
  const t = await box(toast);
  expect(t.x + t.width).toBeGreaterThan(1280 - 60);
  expect(t.y + t.height).toBeGreaterThan(800 - 80);

  // Plain clicks: they fail when a toast lies over the control.
  const menu = await openUserMenu(page);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await page.getByRole('searchbox', { name: 'Filter by Model' }).click();
  await page.getByRole('searchbox', { name: 'Filter by Model' }).fill('Pep');
  await expect(priceButton(page, 'Pepper driver')).toBeVisible();
  await expect(toast).toBeVisible();
});

test('phone: the toast sits at the bottom above the cart widget; the user menu and the filter work', async ({
  page,
  signedIn: _signedIn,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openAddRobot(page);
  await priceButton(page, NAO.name).click();
  const toast = page.locator('[data-sonner-toast]').filter({ has: addedToast(page, NAO.name) });
  await expect(toast).toBeVisible();

  const menu = await openUserMenu(page);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await page.getByRole('searchbox', { name: 'Filter by Model' }).fill('Pep');
  await expect(priceButton(page, 'Pepper driver')).toBeVisible();

  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  const cart = page.getByRole('button', { name: /^Shopping Cart, \d+ items?$/ });
  await expect(cart).toBeVisible();
  await expect(toast).toBeVisible();
  const t = await box(toast);
  const c = await box(cart);
  expect(t.y + t.height).toBeLessThanOrEqual(c.y);
  expect(t.y + t.height).toBeGreaterThan(844 - 200);
  await page.screenshot({ path: 'screenshots/commerce-toast-above-cart-390.png' });
  await cart.click();
  await expect(page.getByRole('dialog', { name: 'Shopping Cart' })).toBeVisible();
});
