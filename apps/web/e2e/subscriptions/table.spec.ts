import type { Page } from '@playwright/test';
import { ONE_DAY_S, payment } from '@portal/contract';
import { addToCart, checkoutFromCartPage, openAddRobot } from '../commerce/commerce-helpers';
import { expect, expectAccessible, screenshots, test } from '../fixtures';
import {
  driverRows,
  driversTable,
  openRowActions,
  openSubscriptionManager,
  paySandboxCheckout,
  refundNewestPayment,
} from './subscriptions-helpers';

/**
 * The Robot Driver Subscriptions table and the Manage Subscription page on real data (spec/001 §2,
 * §4 row actions; issue 11): drivers bought through the sandbox, one of them refunded.
 */

const DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{2}:\d{2} \d{2}\/\d{2}\/\d{4}$/;

/** Buys drivers through Add Robot, the cart page and the sandbox checkout. */
async function buyDrivers(page: Page, products: string[]) {
  await openAddRobot(page);
  for (const product of products) await addToCart(page, product);
  await page.goto('/dashboard/cart');
  await checkoutFromCartPage(page);
  await paySandboxCheckout(page);
}

const column = (page: Page, index: number) => driverRows(page).locator(`td:nth-child(${index})`);

test('the table shows each driver subscription by its rules, and an Active row opens Manage Subscription', async ({
  page,
  signedIn: user,
}) => {
  test.slow();
  await page.addInitScript(() => localStorage.setItem('theme', 'light'));
  await buyDrivers(page, ['Nao driver', 'Pepper driver']);
  await buyDrivers(page, ['Tiago_Steel driver']);
  // The operator refunds the second checkout in full: its driver subscription is cancelled.
  await refundNewestPayment(user.email);

  await openSubscriptionManager(page);
  const table = driversTable(page);
  await expect(table.getByRole('columnheader')).toHaveText([
    'Robot Model',
    'Product',
    'Status',
    'Duration',
    'Started',
    'Expires',
    'Actions',
  ]);
  // Status ascending by default: the two active drivers, then the cancelled one.
  await expect(driverRows(page)).toHaveCount(3);
  await expect(column(page, 3)).toHaveText(['Active', 'Active', 'Cancelled']);
  await expect(column(page, 1)).toContainText(['Tiago Steel']);
  await expect(column(page, 1).last()).toHaveText('Tiago Steel');
  await expect(column(page, 2).last()).toHaveText('Tiago Steel driver');
  // A year for the active drivers; the refunded one ended when it was refunded.
  await expect(column(page, 4)).toHaveText(['365 days, 0 hours', '365 days, 0 hours', /^\d+ days?, \d+ hours?$/]);
  for (const cell of await column(page, 5).all()) await expect(cell).toHaveText(DATE);
  for (const cell of await column(page, 6).all()) await expect(cell).toHaveText(DATE);
  await expect(table.getByRole('columnheader', { name: 'Status' })).toHaveAttribute('aria-sort', 'ascending');
  await expectAccessible(page);
  await screenshots(page, 'subscriptions-table');

  // The rows are the server's: a year's duration for each active driver.
  const list = await user.api.call(payment, 'ListSubscriptions', { email: user.email });
  expect(
    list.robot_driver_subscriptions
      .filter((s) => s.status === 'active')
      .map((s) => s.duration)
      .sort(),
  ).toEqual([365 * ONE_DAY_S, 365 * ONE_DAY_S]);
  expect(list.robot_driver_subscriptions.map((s) => s.status).sort()).toEqual(['active', 'active', 'cancelled']);

  // Sorting: Status descending puts the cancelled one first.
  await table.getByRole('button', { name: 'Status' }).click();
  await expect(table.getByRole('columnheader', { name: 'Status' })).toHaveAttribute('aria-sort', 'descending');
  await expect(column(page, 3)).toHaveText(['Cancelled', 'Active', 'Active']);

  // The filter is on the robot model.
  const filter = page.getByRole('searchbox', { name: 'Filter by robot model' });
  await filter.fill('pEP');
  await expect(column(page, 1)).toHaveText(['Pepper']);
  await filter.fill('robby');
  await expect(driverRows(page)).toHaveCount(0);
  await expect(table.getByText('No robot driver subscriptions.')).toBeVisible();
  await filter.fill('');
  await expect(driverRows(page)).toHaveCount(3);
  await expect(page.getByText('Page 1 of 1')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();

  // Column visibility.
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Product' }).click();
  await page.keyboard.press('Escape');
  await expect(table.getByRole('columnheader', { name: 'Product' })).toHaveCount(0);
  await expect(table.getByRole('columnheader', { name: 'Robot Model' })).toBeVisible();

  // Row actions by status: a cancelled row only offers help.
  const cancelled = driverRows(page).filter({ hasText: 'Cancelled' });
  let menu = await openRowActions(page, cancelled, 'Tiago Steel driver');
  await expect(menu.getByRole('menuitem')).toHaveText(['Get Help']);
  await page.keyboard.press('Escape');

  // An active, unpaired driver: View Robot says so and opens the registration guide.
  const nao = driverRows(page).filter({ hasText: 'Nao' });
  menu = await openRowActions(page, nao, 'Nao driver');
  await expect(menu.getByRole('menuitem')).toHaveText(['View Robot', 'Manage Subscription', 'Get Help']);
  // The documentation site is outside the portal and unreachable here: it answers a stand-in page.
  await page
    .context()
    .route('**/robot-registration', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Registering a robot</title>' }),
    );
  const guide = page.waitForEvent('popup');
  await menu.getByRole('menuitem', { name: 'View Robot' }).click();
  await expect(page.getByText('Robot Not Paired', { exact: true })).toBeVisible();
  await expect(page.getByText('Opening robot registration guide...', { exact: true })).toBeVisible();
  const popup = await guide;
  expect(popup.url()).toMatch(/\/robot-registration$/);
  await popup.close();
  await expect(page).toHaveURL(/\/dashboard\/subscriptions\/manage$/);

  // Refresh Subscriptions: disabled during its countdown, then ready again.
  const refresh = page.getByRole('button', { name: /^Refresh Subscriptions/ });
  await refresh.click();
  await expect(refresh).toBeDisabled();
  await expect(refresh).toBeEnabled();

  // Manage Subscription from the active row.
  menu = await openRowActions(page, nao, 'Nao driver');
  await menu.getByRole('menuitem', { name: 'Manage Subscription' }).click();
  await expect(page).toHaveURL(/\/dashboard\/subscriptions\/manager\/stripe\/sub_sandbox_[^/]+$/);
  const subscriptionId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Subscription Page' })).toBeVisible();
  const crumbs = page.getByRole('navigation', { name: 'Subscription breadcrumb' });
  await expect(crumbs.getByRole('listitem')).toHaveText(['Home', 'Profile', 'Subscriptions', subscriptionId]);
  const details = page.getByRole('region', { name: 'Subscription Details' });
  await expect(details.getByText(subscriptionId, { exact: true })).toBeVisible();
  await expect(details.getByTestId('status-badge')).toHaveText('Active');
  await expect(details.getByTestId('subscription-duration')).toHaveText(
    /^[A-Z][a-z]{2} \d{2}, \d{4} - [A-Z][a-z]{2} \d{2}, \d{4}$/,
  );
  await expect(details.getByRole('button', { name: 'Update Payment Info / Cancel' })).toBeVisible();

  // Its items: the two drivers of that checkout, unpaired, so each shows its pairing code.
  const items = page.getByRole('table', { name: 'Subscription Items' });
  await expect(items.getByRole('columnheader')).toHaveText(['SKU', 'ID', 'Robot Name / Pairing Code', 'Controls']);
  const rows = items.getByTestId('item-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.locator('td:nth-child(1)')).toHaveText(['driver-nao', 'driver-pepper']);
  await expect(rows.locator('td:nth-child(3)')).toHaveText([/^[A-Z0-9]{6,16}$/, /^[A-Z0-9]{6,16}$/]);
  await rows
    .first()
    .getByRole('button', { name: /^View / })
    .click();
  await expect(page.getByText('Cannot navigate to Manage Robot', { exact: true })).toBeVisible();
  await expect(page.getByText('Has the robot been paired?', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', '/dashboard/support');
  await expectAccessible(page);
  await screenshots(page, 'subscriptions-manage');

  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await page.reload();
  await expect(page.getByRole('region', { name: 'Subscription Details' })).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expectAccessible(page);
  await screenshots(page, 'subscriptions-manage-dark');

  await crumbs.getByRole('link', { name: 'Subscriptions' }).click();
  await expect(page).toHaveURL(/\/dashboard\/subscriptions\/manage$/);
  const help = await openRowActions(page, driverRows(page).filter({ hasText: 'Pepper' }), 'Pepper driver');
  await help.getByRole('menuitem', { name: 'Get Help' }).click();
  await expect(page).toHaveURL(/\/dashboard\/support$/);
});

test('a subscription id that is not the account’s shows "No subscription found"', async ({
  page,
  signedIn: _signedIn,
}) => {
  await page.goto('/dashboard/subscriptions/manager/stripe/sub_sandbox_not_mine');
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Subscription Page' })).toBeVisible();
  await expect(page.getByText('No subscription found', { exact: true })).toBeVisible();
  await expect(page.getByText('Error Fetching Subscription', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Return to Dashboard' })).toHaveAttribute('href', '/dashboard');
  await expectAccessible(page);
});
