import { randomUUID } from 'node:crypto';
import { license as licenseService, robots } from '@portal/contract';
import { createVerifiedUser, expect, expectAccessible, screenshots, signInByApi, test } from '../fixtures';
import { grid, operatorClient } from './robots-helpers';

/**
 * A license's whole life on the screens, with accounts of its own: granted unpaired (its code on the
 * card), paired by the hub (name and Active), shared (visible, not clickable, not manageable for the
 * recipient), then unpaired and given a new code by its owner.
 */
test.use({ accountName: 'Olivia Owner' });

test('grant, pair with the hub, share, unpair and regenerate', async ({ page, browser, signedIn: owner }) => {
  test.slow();
  await operatorClient().call(licenseService, 'BUYASSET', { email: owner.email, asset_id: 'driver-nao' });
  const licenses = await owner.api.call(licenseService, 'GetLicences', { email: owner.email });
  const license = licenses.user_licenses?.robot_licenses[0];
  if (!license) throw new Error('BUYASSET granted no license');
  const code = license.pair_code;
  expect(code).toMatch(/^[A-Z0-9]{6,16}$/);

  // Unpaired: the card shows the code.
  await page.goto('/dashboard');
  const mine = grid(page, 'MY ROBOTS');
  await expect(mine.getByTestId('pair-code')).toHaveText(code);
  await expect(mine.getByRole('link')).toHaveCount(0);

  // The hub's calls: register a robot, pair it with the code and report it available.
  const { robot } = await owner.api.call(robots, 'REGISTERSIM', {
    email: owner.email,
    make: 'Nao',
    model: 'Nao',
    name: 'E2E Nao',
    hardware_hash: randomUUID(),
  });
  if (!robot) throw new Error('REGISTERSIM answered no robot');
  await owner.api.call(licenseService, 'PAIRROBOT', { email: owner.email, pair_code: code, robot_id: robot.robot_id });
  await owner.api.call(robots, 'UPDATEROBOT', {
    email: owner.email,
    robot_id: robot.robot_id,
    robot_state: { available: true },
  });
  await page.reload();
  const card = mine.getByRole('link').filter({ hasText: 'E2E Nao' });
  await expect(card).toContainText('Active');
  await expect(mine.getByText('Pairing Code')).toHaveCount(0);

  // Shared with another account: visible there, but neither a link nor manageable.
  const recipient = await createVerifiedUser({ name: 'Rita Recipient' });
  await owner.api.call(licenseService, 'SHARELICENSE', {
    email: owner.email,
    license_id: license.robot_license.license_id,
    recipient_email: recipient.email,
    duration: 3_600,
  });
  const other = await browser.newPage();
  await signInByApi(other, recipient.email, recipient.password);
  await other.goto('/dashboard');
  const shared = grid(other, 'SHARED ROBOTS');
  await expect(shared.getByRole('heading', { level: 2 })).toHaveText('SHARED ROBOTS (1)');
  await expect(shared.getByTestId('robot-card')).toContainText('E2E Nao');
  await expect(shared.getByRole('link')).toHaveCount(0);
  await expect(grid(other, 'MY ROBOTS').getByRole('heading', { level: 2 })).toHaveText('MY ROBOTS (0)');
  await other.goto(`/dashboard/robot/manager/${encodeURIComponent(robot.robot_id)}`);
  await expect(other.getByRole('heading', { name: 'This robot is shared with you' })).toBeVisible();
  await other.close();

  // The owner unpairs (after confirming) and gets a new code, then regenerates it.
  await card.click();
  await expect(page.getByRole('heading', { level: 1, name: 'E2E Nao' })).toBeVisible();
  await page.getByRole('button', { name: 'Unpair robot' }).click();
  const dialog = page.getByRole('dialog', { name: 'Unpair this robot?' });
  await expectAccessible(page);
  await screenshots(page, 'robots-unpair-dialog');
  await dialog.getByRole('button', { name: 'Unpair robot' }).click();
  await expect(dialog).toBeHidden();
  const newCode = page.getByTestId('pair-code');
  await expect(newCode).toHaveText(/^[A-Z0-9]{6,16}$/);
  const first = (await newCode.textContent())?.trim() ?? '';
  expect(first).not.toBe(code);
  await expect(page.getByText('Unpaired', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Regenerate pairing code' }).click();
  await expect(newCode).not.toHaveText(first);
  const regenerated = (await newCode.textContent())?.trim() ?? '';
  await screenshots(page, 'robots-manage-unpaired');

  await page.goto('/dashboard');
  await expect(mine.getByTestId('pair-code')).toHaveText(regenerated);
});
