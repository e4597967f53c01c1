import { expect, expectAccessible, screenshots, test } from '../fixtures';
import { cutOffServer, grid, loadShell, openFromSidebar, slowNetwork } from './robots-helpers';

/** A new account: no licenses (code 23), so the welcome card; and the loader and error states. */

test('a new account sees the welcome card and the Lite dial panel', async ({ page, signedIn: _signedIn }) => {
  await page.goto('/dashboard');

  const welcome = page.getByTestId('welcome-card');
  await expect(welcome).toBeVisible();
  await expect(welcome.getByText('Download the Hub')).toBeVisible();
  await expect(welcome.getByText('Follow the installer')).toBeVisible();
  await expect(welcome.getByRole('link', { name: /Documentation/ })).toHaveAttribute('href', /^https?:\/\//);
  await expect(grid(page, 'MY ROBOTS')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Paired', exact: true })).toHaveCount(0);

  // Lite: the numbers and the upgrade box, which leads to the plans.
  const panel = page.getByTestId('dial-time-panel');
  await expect(panel.getByTestId('remaining-minutes')).toHaveText(/^[\d,]+ minutes?$/);
  await expect(panel.getByRole('link', { name: /Upgrade to Pro/ })).toHaveAttribute(
    'href',
    '/dashboard/subscriptions/manage',
  );

  await expectAccessible(page);
  await screenshots(page, 'robots-welcome');

  await welcome.getByRole('link', { name: 'Downloads' }).click();
  await expect(page).toHaveURL(/\/dashboard\/downloads$/);
});

test('on a slow network the loader shows, then the grid replaces it', async ({
  page,
  context,
  signedIn: _signedIn,
}) => {
  // Once at full speed, so the Robot Manager's code is in the browser's cache and only data is slow.
  await page.goto('/dashboard');
  await expect(page.getByTestId('welcome-card')).toBeVisible();
  await loadShell(page);

  // Every request now waits 1.5 s on the real network: the licenses take seconds (CSRF, then the
  // call), far past the loader's delay. That delay (700 ms) is a unit test of the loader.
  const cdp = await slowNetwork(context, page, 1_500);
  await openFromSidebar(page, 'Dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Robot Manager' })).toBeVisible();
  await expect(page.getByText('Loading robots...')).toBeVisible();
  await expect(page.getByTestId('welcome-card')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Loading robots...')).toHaveCount(0);
  await cdp.detach();
});

test('an unreachable server shows the error state, and Try Again recovers', async ({
  page,
  context,
  signedIn: _signedIn,
}) => {
  await loadShell(page);
  const network = await cutOffServer(context, page);
  await openFromSidebar(page, 'Dashboard');
  const error = page.getByRole('alert').filter({ hasText: 'Something went wrong' });
  // Three retries (1 s, 2 s, 4 s) come first.
  await expect(error).toBeVisible({ timeout: 20_000 });
  await expect(error).toContainText('Failed to fetch licenses');
  await expectAccessible(page);

  await network.reconnect();
  await error.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByTestId('welcome-card')).toBeVisible();
  await expect(error).toHaveCount(0);
});

test('offline, the Robot Manager waits for the network and loads once back online', async ({
  page,
  context,
  signedIn: _signedIn,
}) => {
  // The screen's code comes from the browser's cache while offline.
  await page.goto('/dashboard');
  await expect(page.getByTestId('welcome-card')).toBeVisible();
  await loadShell(page);

  const calls: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) calls.push(r.url());
  });
  await context.setOffline(true);
  await openFromSidebar(page, 'Dashboard');
  // The browser says it is offline: the app waits instead of failing, and asks the server nothing.
  await expect(page.getByText('Loading robots...')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Something went wrong' })).toHaveCount(0);
  expect(calls).toEqual([]);

  await context.setOffline(false);
  await expect(page.getByTestId('welcome-card')).toBeVisible();
  await expect(page.getByText('Loading robots...')).toHaveCount(0);
});
