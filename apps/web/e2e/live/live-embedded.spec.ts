import { license as licenseService, robots } from '@portal/contract';
import { expect, test } from '../fixtures';
import { grid, operatorClient } from '../robots/robots-helpers';

/**
 * The live stream on the embedded default (one instance, PGlite's LISTEN/NOTIFY), where
 * live-fleet.spec.ts covers two instances on PostgreSQL: the robot's own report flips its card,
 * and unregistering it takes the card away, both well before the spec's 60-second poll.
 */
test('on the embedded database, a report and an unregistration show on the open Robot Manager', async ({
  page,
  signedIn: user,
}) => {
  await operatorClient().call(licenseService, 'BUYASSET', { email: user.email, asset_id: 'driver-nao' });
  const granted = await user.api.call(licenseService, 'GetLicences', { email: user.email });
  const code = granted.user_licenses?.robot_licenses[0]?.pair_code ?? '';
  const { robot } = await user.api.call(robots, 'REGISTERSIM', {
    email: user.email,
    make: 'Nao',
    model: 'Nao',
    name: 'Embedded Nao',
    hardware_hash: `embedded-${user.email}`,
  });
  if (!robot) throw new Error('REGISTERSIM answered no robot');
  await user.api.call(licenseService, 'PAIRROBOT', { email: user.email, pair_code: code, robot_id: robot.robot_id });

  await page.goto('/dashboard');
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'open');
  const card = grid(page, 'MY ROBOTS').getByRole('link').filter({ hasText: 'Embedded Nao' });
  await expect(card).toContainText('Inactive');
  // A page left open for hours draws nothing while nothing changes: no animation that never ends
  // (a pulsing "Live" dot made the browser repaint without pause).
  const endless = await page.evaluate(() =>
    document
      .getAnimations()
      .filter((a) => a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY)
      .map((a) => (a.effect instanceof KeyframeEffect ? String(a.effect.target?.className) : 'animation')),
  );
  expect(endless).toEqual([]);

  // The hub's report (UPDATEROBOT): the page has its stream, so it needs no poll and no reload.
  await user.api.call(robots, 'UPDATEROBOT', {
    email: user.email,
    robot_id: robot.robot_id,
    robot_state: { available: true },
  });
  await expect(card).toContainText('Active');
  await expect(card).not.toContainText('Inactive');

  await user.api.call(robots, 'UNREGISTER', { email: user.email, robot_id: robot.robot_id });
  await expect(card).toHaveCount(0);
});
