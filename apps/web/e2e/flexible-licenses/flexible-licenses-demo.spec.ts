import { operator } from '@portal/contract';
import { expect, expectAccessible, screenshots, signInByApi, test } from '../fixtures';
import { DEMO, operatorClient } from '../robots/robots-helpers';
import { planButton } from '../subscriptions/subscriptions-helpers';
import { expectBoard, FLEX_PAGE, slot, slotLicense, startDemoServer } from './flexible-licenses-helpers';

/**
 * Slots follow the plan (issue 32 item 2, docs/decisions/061): the demo account, seeded with an
 * operator's grant of 2 over its Standard plan's 1, shows 2 slots, and 3 after upgrading to Pro (the
 * Pro card's "3 flexible license slots"), its paired Lab Nao untouched. On a server of its own, so the
 * demo account the other specs read stays on Standard.
 */

test.describe.configure({ mode: 'serial' });

let demo: Awaited<ReturnType<typeof startDemoServer>>;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  demo = await startDemoServer();
});
test.afterAll(async () => {
  await demo?.stop();
});

test('the demo account has 2 slots on Standard and 3 after upgrading to Pro', async ({ page }) => {
  test.slow();
  await signInByApi(page, DEMO.email, DEMO.password, { baseUrl: demo.url });
  await page.goto(`${demo.url}${FLEX_PAGE}`);
  await expectBoard(page);
  await expect(page.getByTestId('flex-slot')).toHaveCount(2);
  await expect(page.getByTestId('slots-used')).toHaveText('1 of 2 slots used');
  await expect(slotLicense(page, 0)).toHaveText('Paired with Lab Nao');
  const ops = operatorClient(demo.url);
  expect(await ops.call(operator, 'SetSlotAmount', { email: DEMO.email, amount: 2 })).toMatchObject({
    user_slot_amount: 2,
    plan_slot_amount: 1,
    granted_slot_amount: 2,
  });
  await expectAccessible(page);
  await screenshots(page, 'flex-demo-standard');

  // Upgrade Now on Pro: a plan change of the live Standard plan, reviewed (issue 31), then paid with
  // the card on file at Confirm.
  await page.goto(`${demo.url}/dashboard/subscriptions/manage`);
  await expect(page.getByTestId('current-plan')).toHaveText('Standard');
  const pro = page.getByRole('region', { name: 'Pro Subscription', exact: true });
  await expect(pro.getByRole('listitem').filter({ hasText: '3 flexible license slots' })).toBeVisible();
  await planButton(page, 'Pro Subscription').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Review your plan change' })).toBeVisible();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/dashboard\/cart\/success\?session_id=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment Successful' })).toBeVisible();
  await page.goto(`${demo.url}/dashboard/subscriptions/manage`);
  await expect(page.getByTestId('current-plan')).toHaveText('Pro');

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Flexible Licenses', exact: true })
    .click();
  await expectBoard(page);
  await expect(page.getByTestId('flex-slot')).toHaveCount(3);
  await expect(page.getByTestId('slots-used')).toHaveText('1 of 3 slots used');
  await expect(slotLicense(page, 0)).toHaveText('Paired with Lab Nao');
  await expect(slot(page, 2)).toContainText('Click to select a robot license');
  expect(await ops.call(operator, 'SetSlotAmount', { email: DEMO.email, amount: 2 })).toMatchObject({
    user_slot_amount: 3,
    plan_slot_amount: 3,
    granted_slot_amount: 2,
  });
  await expectAccessible(page);
  await screenshots(page, 'flex-demo-pro');

  // Dark theme, the same board.
  await page.evaluate(() => localStorage.setItem('theme', 'dark'));
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByTestId('slots-used')).toHaveText('1 of 3 slots used');
  await expectAccessible(page);
  await screenshots(page, 'flex-demo-pro-dark');
});
