import type { Page } from '@playwright/test';
import type { UserTime } from '@portal/contract';
import { createVerifiedUser, expect, expectAccessible, screenshots, signInByApi, test } from '../fixtures';
import {
  accessToken,
  call,
  cutOffServer,
  grantSubscription,
  hubFor,
  loadShell,
  openFromSidebar,
  operatorCall,
} from './robots-helpers';

/** The dial time panel against the real ledger: added time raises it, dialling with the hub lowers it. */

const remaining = async (page: Page) =>
  Number(((await page.getByTestId('remaining-minutes').textContent()) ?? '').replace(/[^\d]/g, ''));

test('added time and hub use move the remaining minutes', async ({ page, baseURL }) => {
  const user = await createVerifiedUser(page.request);
  await signInByApi(page, user.email, user.password);
  const token = await accessToken(page.request, user.email, user.password);

  await operatorCall(page.request, '/api/dial_manager', {
    action: 'ADD_TIME',
    email: user.email,
    minutes: 120,
    reason: 'e2e',
    idempotency_key: `e2e-${user.email}`,
  });
  const { user_time } = await call<{ user_time: UserTime }>(
    page.request,
    '/api/dial_manager',
    { action: 'CHECK_REMAINING_TIME', email: user.email },
    token,
  );

  await page.goto('/dashboard');
  const panel = page.getByTestId('dial-time-panel');
  const before =
    user_time.total_durable_time -
    user_time.used_durable_time +
    (user_time.total_perishable_time - user_time.used_perishable_time);
  await expect(panel.getByTestId('remaining-minutes')).toHaveText(`${before.toLocaleString('en-GB')} minutes`);
  await expect(panel.getByText('120 minutes of 120 minutes')).toBeVisible();

  // The reference hub dials a robot the user holds no license for, for 30 minutes.
  const hub = await hubFor(page.request, baseURL as string, user.email, user.password);
  await hub.dial('someone-elses-robot', 30);
  await page.reload();
  await expect.poll(() => remaining(page)).toBe(before - 30);
  await expectAccessible(page);
});

test('an unreachable server shows the panel error', async ({ page, context }) => {
  const user = await createVerifiedUser(page.request);
  await signInByApi(page, user.email, user.password);
  // The shell loads first; then the server cannot be reached and the Robot Manager is opened.
  await loadShell(page);
  const network = await cutOffServer(context, page);
  await openFromSidebar(page, 'Dashboard');
  const panel = page.getByTestId('dial-time-panel');
  await expect(panel).toContainText('Failed to load dial time information', { timeout: 20_000 });
  await expect(panel.getByTestId('remaining-minutes')).toHaveCount(0);
  await expectAccessible(page);
  await network.reconnect();
});

test('Pro shows infinite dial time', async ({ page }) => {
  const user = await createVerifiedUser(page.request);
  // A real Pro subscription, granted as an operator would.
  const granted = await grantSubscription(page.request, user.email, 'Pro Subscription');
  expect(granted).toMatchObject({ subscription: { tier: 'Pro' } });
  await signInByApi(page, user.email, user.password);
  await page.goto('/dashboard');
  const panel = page.getByTestId('dial-time-panel');
  await expect(panel.getByText('Infinite Dial Time', { exact: true })).toBeVisible();
  await expect(panel.getByText('You have infinite dial time with your Pro subscription.')).toBeVisible();
  await expect(panel.getByText('Upgrade to Pro')).toHaveCount(0);
  await expect(panel.getByTestId('remaining-minutes')).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, 'dial-time-pro');
});
