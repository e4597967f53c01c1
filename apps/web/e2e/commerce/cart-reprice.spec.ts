import { expect, expectAccessible, screenshots, test } from '../fixtures';

/**
 * A cart line saved on a price that is no longer sold (catalogue:push archived it,
 * docs/decisions/063) is re-priced when the cart loads, with a notice, and checkout sends the
 * current price.
 */
test('a line on a price no longer sold is re-priced on load, with a notice', async ({ page, signedIn: _user }) => {
  await page.goto('/dashboard');
  await page.evaluate(() =>
    localStorage.setItem(
      'cart',
      JSON.stringify([
        {
          id: 'prod_standard',
          name: 'Standard Subscription',
          description: '',
          prices: [
            {
              id: 'price_standard_monthly_gbp_2025',
              currency: 'gbp',
              unit_amount: 1400,
              type: 'recurring',
              recurring: { interval: 'month', interval_count: 1 },
            },
          ],
          selected_price_id: 'price_standard_monthly_gbp_2025',
          selected_price_unit_amount: 1400,
          quantity: 1,
        },
      ]),
    ),
  );
  await page.goto('/dashboard/cart');
  const notice = page.getByTestId('cart-price-notice');
  await expect(notice).toContainText('Prices in your cart have changed');
  await expect(notice).toContainText(
    'The price of Standard Subscription has changed from £14.00 a month to £15.00 a month.',
  );
  await expect(page.getByTestId('cart-total')).toHaveText('£15.00');
  // Saved before lines said so, the plan is now a plan line: quantity 1, no control to change it.
  await expect(page.getByText('A plan is sold one at a time.', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /increase/i })).toHaveCount(0);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '[]'));
  expect(stored).toMatchObject([
    { id: 'prod_standard', selected_price_id: 'price_standard_monthly_gbp', plan: true, quantity: 1 },
  ]);
  await expectAccessible(page);
  await screenshots(page, 'commerce-cart-reprice');
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toBeHidden();
  await expect(page.getByTestId('cart-total')).toHaveText('£15.00');
});
