import { createVerifiedUser, expect, expectAccessible, screenshots, signInByApi, test } from '../fixtures';
import { grid } from './robots-helpers';

/** A new account: no licences (code 23), so the welcome card; and the loader and error states. */

test('a new account sees the welcome card and the Lite dial panel', async ({ page }) => {
  const user = await createVerifiedUser(page.request);
  await signInByApi(page, user.email, user.password);
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

test('the loader shows only once loading has lasted 700 ms', async ({ page }) => {
  const user = await createVerifiedUser(page.request);
  await signInByApi(page, user.email, user.password);
  // Hold the licence call back for 2.5 s: the loader must stay hidden at first, then appear.
  await page.route('**/api/license', async (route) => {
    await new Promise((r) => setTimeout(r, 2_500));
    await route.continue();
  });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Robot Manager' })).toBeVisible();
  await expect(page.getByText('Loading robots...')).toHaveCount(0);
  await expect(page.getByText('Loading robots...')).toBeVisible({ timeout: 2_000 });
  await expect(page.getByTestId('welcome-card')).toBeVisible();
  await expect(page.getByText('Loading robots...')).toHaveCount(0);
});

test('a failed licence call shows the error state, and Try Again recovers', async ({ page }) => {
  const user = await createVerifiedUser(page.request);
  await signInByApi(page, user.email, user.password);
  let fail = true;
  await page.route('**/api/license', async (route) => {
    if (!fail) return route.continue();
    await route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { Success: false, Code: 500, Description: 'Service unavailable' } }),
    });
  });
  await page.goto('/dashboard');
  const error = page.getByRole('alert').filter({ hasText: 'Something went wrong' });
  await expect(error).toBeVisible({ timeout: 15_000 });
  await expect(error).toContainText('Failed to fetch licenses');
  await expectAccessible(page);

  fail = false;
  await error.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByTestId('welcome-card')).toBeVisible();
});
