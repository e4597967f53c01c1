import type { Request } from '@playwright/test';
import { expect, test } from '../fixtures';

/**
 * A page opened with a stored session (lib/warm-start.ts): the page's code and calls start beside
 * the start-up session check instead of after it. The check's answer is held here until the
 * page's first call has started, so without the warm start this test waits for a call that never
 * comes; meanwhile only the loading indicator shows (spec/000 §4).
 */

const isSessionCheck = (request: Request) =>
  request.method() === 'POST' &&
  request.url().endsWith('/api/useraction') &&
  /"get-self"/.test(request.postData() ?? '');

test("with a stored session the Robot Manager's calls start while the session check is still out", async ({
  page,
  signedIn: _signedIn,
}) => {
  let licensesAsked!: () => void;
  const licensesStarted = new Promise<void>((resolve) => {
    licensesAsked = resolve;
  });
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/license')) licensesAsked();
  });
  let checkHeld = false;
  await page.route('**/api/useraction', async (route) => {
    if (!isSessionCheck(route.request())) return route.fallback();
    checkHeld = true;
    await licensesStarted;
    // The check is still out: the page shows the loading indicator and nothing of the dashboard.
    await expect(page.getByRole('status').filter({ hasText: 'Loading...' })).toBeVisible();
    await expect(page.getByTestId('dial-time-panel')).toHaveCount(0);
    await route.fallback();
  });

  await page.goto('/dashboard');
  // GetLicences may even start before the check is sent (the check needs the session's own code
  // first); either way the check's answer came only after it.
  await expect(page.getByRole('heading', { level: 1, name: 'Robot Manager' })).toBeVisible();
  await expect(page.getByTestId('dial-time-panel')).toBeVisible();
  expect(checkHeld).toBe(true);
});

test('with a stored session whose access token has expired, the page waits for the check before any call', async ({
  page,
  signedIn: _signedIn,
}) => {
  // An expired access token: renewing it would spend the refresh token the check is spending.
  await page.addInitScript(() => {
    const store = localStorage.getItem('refresh_token') ? localStorage : sessionStorage;
    const header = btoa(JSON.stringify({ alg: 'HS256' })).replace(/=+$/, '');
    const payload = btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) - 60 })).replace(/=+$/, '');
    store.setItem('access_token', `${header}.${payload}.c2ln`);
  });
  const order: string[] = [];
  page.on('request', (request) => {
    if (isSessionCheck(request)) order.push('check');
    else if (request.method() === 'POST' && /\/api\/(license|refresh|auth)/.test(request.url()))
      order.push(new URL(request.url()).pathname);
  });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Robot Manager' })).toBeVisible();
  // The screen's heading can show before GetLicences goes out (it waits for its CSRF GET first).
  await expect.poll(() => order).toContain('/api/license');
  expect(order[0]).toBe('check');
});
