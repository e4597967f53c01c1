import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { robots, time } from '@portal/contract';
import { expect, expectAccessible, screenshots, test } from '../fixtures';
import { cutOffServer, grantSubscription, loadShell, openFromSidebar, operatorClient } from './robots-helpers';

/** The dial time panel against the real ledger: added time raises it, dialling with the hub lowers it. */

const remaining = async (page: Page) =>
  Number(((await page.getByTestId('remaining-minutes').textContent()) ?? '').replace(/[^\d]/g, ''));

test('added time and hub use move the remaining minutes', async ({ page, signedIn: user }) => {
  await operatorClient().call(time, 'ADD_TIME', {
    email: user.email,
    minutes: 120,
    reason: 'e2e',
    idempotency_key: `e2e-${user.email}`,
  });
  const { user_time } = await user.api.call(time, 'CHECK_REMAINING_TIME', { email: user.email });
  if (!user_time) throw new Error('CHECK_REMAINING_TIME answered no user time');

  await page.goto('/dashboard');
  const panel = page.getByTestId('dial-time-panel');
  const before =
    user_time.total_durable_time -
    user_time.used_durable_time +
    (user_time.total_perishable_time - user_time.used_perishable_time);
  await expect(panel.getByTestId('remaining-minutes')).toHaveText(`${before.toLocaleString('en-GB')} minutes`);
  await expect(panel.getByText('120 minutes of 120 minutes')).toBeVisible();

  // The hub's dial call: 30 minutes on a registered robot the user holds no license for.
  const { robot } = await user.api.call(robots, 'REGISTERSIM', {
    email: user.email,
    make: 'Pepper',
    model: 'Pepper',
    name: 'Unlicensed Pepper',
    hardware_hash: randomUUID(),
  });
  await user.api.call(
    time,
    'UPDATE_TIME',
    { email: user.email, robot_id: robot.robot_id, minutes: 30, idempotency_key: randomUUID() },
    { retryTransient: true },
  );
  await page.reload();
  await expect.poll(() => remaining(page)).toBe(before - 30);
  await expectAccessible(page);
});

test('an unreachable server shows the panel error', async ({ page, context, signedIn: _signedIn }) => {
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

test('Pro shows infinite dial time', async ({ page, signedIn: user }) => {
  // A real Pro subscription, granted as an operator would.
  const granted = await grantSubscription(user.email, 'Pro Subscription');
  expect(granted).toMatchObject({ subscription: { tier: 'Pro' } });
  await page.goto('/dashboard');
  const panel = page.getByTestId('dial-time-panel');
  await expect(panel.getByText('Infinite Dial Time', { exact: true })).toBeVisible();
  await expect(panel.getByText('You have infinite dial time with your Pro subscription.')).toBeVisible();
  await expect(panel.getByText('Upgrade to Pro')).toHaveCount(0);
  await expect(panel.getByTestId('remaining-minutes')).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, 'dial-time-pro');
});
