import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { license as licenseService, robots } from '@portal/contract';
import { type ApiSession, expect } from '../fixtures';
import { operatorClient } from '../robots/robots-helpers';

/**
 * A robot of the owner's own, paired as the hub pairs one: an operator grants a Nao driver license,
 * the owner's hub registers a robot and redeems the license's pairing code. Answers the robot's id.
 */
export async function pairedRobot(owner: ApiSession & { email: string }, name: string): Promise<string> {
  await operatorClient().call(licenseService, 'BUYASSET', { email: owner.email, asset_id: 'driver-nao' });
  const licenses = await owner.api.call(licenseService, 'GetLicences', { email: owner.email });
  const code = licenses.user_licenses?.robot_licenses.find((l) => !l.paired_status)?.pair_code;
  if (!code) throw new Error('BUYASSET granted no unpaired license');
  const { robot } = await owner.api.call(robots, 'REGISTERSIM', {
    email: owner.email,
    make: 'Nao',
    model: 'Nao',
    name,
    hardware_hash: randomUUID(),
  });
  if (!robot) throw new Error('REGISTERSIM answered no robot');
  await owner.api.call(licenseService, 'PAIRROBOT', { email: owner.email, pair_code: code, robot_id: robot.robot_id });
  return robot.robot_id;
}

/** The manage page's Share section. */
export function shareSection(page: Page) {
  return page.getByRole('region', { name: 'Share' });
}

/** Opens the owner's manage page of a robot and waits for its Share section. */
export async function openManagePage(page: Page, robotId: string, name: string) {
  await page.goto(`/dashboard/robot/manager/${encodeURIComponent(robotId)}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const section = shareSection(page);
  // The list of shares has loaded: empty, or with its entries.
  await expect(
    section.getByText('This robot is not shared with anyone.').or(section.getByTestId('share-entry').first()),
  ).toBeVisible();
}

/** Fills the Share form with an address and a listed period, and sends it. */
export async function shareWith(page: Page, email: string, period = '7 days') {
  const section = shareSection(page);
  await section.getByLabel('Recipient email').fill(email);
  await section.getByLabel('Share for').selectOption({ label: period });
  await section.getByRole('button', { name: 'Share robot' }).click();
}
