import { expect, expectAccessible, screenshots, test } from '../fixtures';
import { addToCart, cartWidget, NAO, openAddRobot, PEPPER } from './commerce-helpers';

/** Add Robot and the cart page in the dark theme (issue 10: screenshots light and dark, axe clean). */

test('Add Robot and the cart page in the dark theme', async ({ page, signedIn: _signedIn }) => {
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await openAddRobot(page);
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expectAccessible(page);
  await screenshots(page, 'commerce-add-robot-dark');

  await addToCart(page, NAO.name);
  await addToCart(page, PEPPER.name);
  await expect(cartWidget(page)).toHaveAccessibleName('Shopping Cart, 2 items');
  await page.goto('/dashboard/cart');
  await expect(page.getByTestId('cart-row')).toHaveCount(2);
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expectAccessible(page);
  await screenshots(page, 'commerce-cart-dark');
});
