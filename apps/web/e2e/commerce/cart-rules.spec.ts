import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { addToCart, cartCount, cartWidget, NAO, openAddRobot, openCartWidget, PEPPER } from './commerce-helpers';

/** Every cart rule in the browser (spec/001 §2 Cart widget, Cart page; §4 cart actions). */

const quantityBox = (page: Page, product: string) =>
  page.getByRole('textbox', { name: `Quantity of ${product}`, exact: true });

test('the cart page: merge by id, stepper, digits-only quantity, Item/Items, Clear Cart', async ({
  page,
  signedIn: _signedIn,
}) => {
  await openAddRobot(page);
  // The same driver twice merges into one line of 2.
  await addToCart(page, NAO.name);
  await addToCart(page, NAO.name);
  await addToCart(page, PEPPER.name);
  await expect(cartWidget(page)).toHaveAccessibleName('Shopping Cart, 3 items');

  // The cart is kept across a reload.
  await page.goto('/dashboard/cart');
  await expect(page.getByRole('heading', { level: 1, name: 'Cart' })).toBeVisible();
  const rows = page.getByTestId('cart-row');
  await expect(rows).toHaveCount(2);
  await expect(cartCount(page)).toHaveText('3 Items');
  const nao = rows.filter({ hasText: NAO.name });
  await expect(quantityBox(page, NAO.name)).toHaveValue('2');
  await expect(nao.getByRole('definition')).toHaveText([NAO.price, '£198.00']);
  const summary = page.getByRole('region', { name: 'Order Summary' });
  await expect(summary.getByRole('term')).toHaveText(['Items', 'Total']);
  await expect(page.getByTestId('cart-total')).toHaveText('£347.00');

  // Stepper.
  await page.getByRole('button', { name: `Increase quantity of ${NAO.name}` }).click();
  await expect(quantityBox(page, NAO.name)).toHaveValue('3');
  await expect(cartCount(page)).toHaveText('4 Items');
  await expect(page.getByTestId('cart-total')).toHaveText('£446.00');
  await page.getByRole('button', { name: `Decrease quantity of ${NAO.name}` }).click();
  await expect(quantityBox(page, NAO.name)).toHaveValue('2');
  await expect(cartCount(page)).toHaveText('3 Items');

  // Digits only while typing; Enter sets the quantity.
  const box = quantityBox(page, NAO.name);
  await box.fill('');
  await box.pressSequentially('1a2');
  await expect(box).toHaveValue('12');
  await box.press('Enter');
  await expect(cartCount(page)).toHaveText('13 Items');
  await expect(cartWidget(page)).toHaveAccessibleName('Shopping Cart, 13 items');

  // A non-numeric value reverts to the previous quantity on blur.
  await box.fill('');
  await box.pressSequentially('abc');
  await expect(box).toHaveValue('');
  await box.blur();
  await expect(box).toHaveValue('12');
  await expect(cartCount(page)).toHaveText('13 Items');

  // And a number is set on blur too.
  await box.fill('1');
  await box.blur();
  await expect(cartCount(page)).toHaveText('2 Items');

  // At quantity 1 the minus is a remove button.
  await expect(page.getByRole('button', { name: `Decrease quantity of ${NAO.name}` })).toHaveCount(0);
  await page.getByRole('button', { name: `Remove ${PEPPER.name}` }).click();
  await expect(rows).toHaveCount(1);
  // Singular.
  await expect(cartCount(page)).toHaveText('1 Item');
  await expect(summary.getByRole('term')).toHaveText(['Item', 'Total']);
  await expect(cartWidget(page)).toHaveAccessibleName('Shopping Cart, 1 item');

  // Clear Cart empties it, and the widget goes.
  await page.getByRole('button', { name: 'Clear Cart' }).click();
  await expect(page.getByText('Your cart is empty.')).toBeVisible();
  await expect(cartCount(page)).toHaveText('0 Items');
  await expect(page.getByRole('button', { name: 'Clear Cart' })).toBeDisabled();
  await expect(cartWidget(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('Your cart is empty.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add Robots' }).last()).toHaveAttribute('href', '/dashboard/robot/add');
});

test('the widget: stepper, minus at 1 turns into "Remove item", a second click removes the line', async ({
  page,
  signedIn: _signedIn,
}) => {
  await openAddRobot(page);
  await expect(cartWidget(page)).toHaveCount(0);
  await addToCart(page, NAO.name);
  await addToCart(page, PEPPER.name);

  const popover = await openCartWidget(page);
  await expect(popover.getByTestId('cart-widget-scroll')).toHaveCSS('max-height', '300px');
  const lines = popover.getByTestId('cart-widget-line');
  await expect(lines).toHaveCount(2);
  await popover.getByRole('button', { name: `Increase quantity of ${NAO.name}` }).click();
  await expect(lines.filter({ hasText: NAO.name })).toContainText(`Quantity of ${NAO.name}: 2`);
  await expect(lines.filter({ hasText: NAO.name })).toContainText('£198.00');
  await expect(popover).toContainText('£347.00');
  await expect(cartWidget(page)).toHaveAccessibleName('Shopping Cart, 3 items');
  await popover.getByRole('button', { name: `Decrease quantity of ${NAO.name}` }).click();
  await expect(lines.filter({ hasText: NAO.name })).toContainText(`Quantity of ${NAO.name}: 1`);

  // Not the last line: armed, then removed, and the widget stays open.
  await popover.getByRole('button', { name: `Decrease quantity of ${PEPPER.name}` }).click();
  const removePepper = popover.getByRole('button', { name: `Remove item: ${PEPPER.name}` });
  await expect(removePepper).toHaveText('Remove item');
  await expect(lines).toHaveCount(2);
  await removePepper.click();
  await expect(lines).toHaveCount(1);
  await expect(popover).toBeVisible();

  // The last line: armed, a plus disarms it; armed again, then removed: the widget closes and goes.
  await popover.getByRole('button', { name: `Decrease quantity of ${NAO.name}` }).click();
  await expect(popover.getByRole('button', { name: `Remove item: ${NAO.name}` })).toBeVisible();
  await popover.getByRole('button', { name: `Increase quantity of ${NAO.name}` }).click();
  await expect(popover.getByRole('button', { name: `Remove item: ${NAO.name}` })).toHaveCount(0);
  await expect(lines).toContainText(`Quantity of ${NAO.name}: 2`);
  await popover.getByRole('button', { name: `Decrease quantity of ${NAO.name}` }).click();
  await expect(lines).toContainText(`Quantity of ${NAO.name}: 1`);
  await popover.getByRole('button', { name: `Decrease quantity of ${NAO.name}` }).click();
  await popover.getByRole('button', { name: `Remove item: ${NAO.name}` }).click();
  await expect(popover).toBeHidden();
  await expect(cartWidget(page)).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('cart'))).toBeNull();
});

test('the widget opens when its code arrives in the middle of the press (the press is not lost)', async ({
  page,
  signedIn: _signedIn,
}) => {
  await openAddRobot(page);
  await addToCart(page, NAO.name);
  // Hold the popover's code until the button is pressed, and let it arrive before the release: the
  // stand-in button is then replaced by the popover's own trigger under the pointer.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/cart-widget-popover-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const standIn = await cartWidget(page).elementHandle();
  const box = await standIn?.boundingBox();
  if (!standIn || !box) throw new Error('the cart widget has no box');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  release();
  // The code has arrived and the stand-in is gone from under the pointer.
  await expect.poll(() => standIn.evaluate((el) => el.isConnected)).toBe(false);
  await page.mouse.up();
  await expect(page.getByRole('dialog', { name: 'Shopping Cart' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Shopping Cart/ })).toHaveAttribute('aria-expanded', 'true');
});
