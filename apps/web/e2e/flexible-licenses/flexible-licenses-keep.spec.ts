import type { Page } from '@playwright/test';
import { flexibleLicense, license as licenseService, robots } from '@portal/contract';
import { baseURL } from '../../../../playwright.config';
import { type Account, type ApiSession, expect, expectAccessible, screenshots, test } from '../fixtures';
import {
  chooseForSlot,
  confirmSync,
  dragOnto,
  giveSlots,
  hubFor,
  openBoard,
  pairingCodeOf,
  slot,
  slotLicense,
  slotModel,
  syncList,
  update,
} from './flexible-licenses-helpers';

/**
 * A save changes only the slots that changed (issue 32 item 1, docs/decisions/061), against the real
 * server and the reference hub: a robot paired in an untouched slot stays paired, a moved card keeps
 * its robot, and Confirm Sync says so below the spec's words; a replaced slot unpairs its robot, as
 * the dialog said; a save the server refuses changes nothing.
 */

test.use({ accountName: 'Flex Keeper' });

type User = Account & ApiSession;

/** Saves Nao into slot 1 on the screen (no confirmation asked: a first save), answers its pairing code. */
async function saveNaoInSlot1(page: Page) {
  await chooseForSlot(page, 0, /^Nao/);
  await update(page).click();
  await confirmSync(page).getByRole('button', { name: 'Sync Licenses' }).click();
  await expect(page.getByText('Successfully updated flexible robot licenses')).toBeVisible();
  return pairingCodeOf(page, 0);
}

/** The hub pairs "Lab Nao" with the code on the screen; the slot then says so. */
async function pairLabNao(page: Page, user: User, code: string) {
  const hub = await hubFor(user, baseURL);
  const robotId = await hub.registerAndPair('Lab Nao', 'Nao', code);
  await page.reload();
  await expect(slotLicense(page, 0)).toHaveText('Paired with Lab Nao');
  const [row] = (await hub.robots()).filter((r) => r.robot_id === robotId);
  expect(row).toMatchObject({ name: 'Lab Nao', paired: true, flexible: true });
  return { hub, robotId, licenseId: row?.license_id ?? '' };
}

test('adding Pepper to slot 2 keeps Lab Nao paired in slot 1, as Confirm Sync says and the hub sees', async ({
  page,
  signedIn,
}) => {
  test.slow();
  await giveSlots(signedIn.email, 2);
  await openBoard(page);
  await expect(page.getByTestId('slots-used')).toHaveText('0 of 2 slots used');
  const code = await saveNaoInSlot1(page);
  const { hub, robotId, licenseId } = await pairLabNao(page, signedIn, code);
  await expect(page.getByTestId('slots-used')).toHaveText('1 of 2 slots used');
  await expectAccessible(page);
  await screenshots(page, 'flex-keep-board-paired');

  await chooseForSlot(page, 1, /^Pepper/);
  await expect(page.getByTestId('slots-used')).toHaveText('2 of 2 slots used');
  await update(page).click();
  const dialog = confirmSync(page);
  await expect(dialog).toContainText(
    'You are about to sync 2 licenses. This removes existing flex licenses and replaces them with the new selection, updates the account, and activates licenses for immediate pairing and use.',
  );
  await expect(syncList(page, 'changes')).toHaveText(['Slot 2: Pepper added']);
  await expect(syncList(page, 'kept')).toHaveText(['Slot 1: Lab Nao (Nao) kept, stays paired']);
  await expectAccessible(page);
  await screenshots(page, 'flex-keep-confirm-sync');
  await dialog.getByRole('button', { name: 'Sync Licenses' }).click();
  await expect(page.getByText('Successfully updated flexible robot licenses')).toBeVisible();

  // Slot 1 unchanged: still paired with Lab Nao; slot 2 has a new license with its code.
  await expect(slotLicense(page, 0)).toHaveText('Paired with Lab Nao');
  await expect(slotModel(page, 1)).toHaveText('Pepper');
  await pairingCodeOf(page, 1);
  await page.reload();
  await expect(slotLicense(page, 0)).toHaveText('Paired with Lab Nao');
  await screenshots(page, 'flex-keep-board-saved');

  // The hub still lists Lab Nao with the same flexible license, paired.
  const listed = await hub.robots();
  expect(listed.find((r) => r.robot_id === robotId)).toMatchObject({
    license_id: licenseId,
    paired: true,
    flexible: true,
  });
  expect(listed.filter((r) => r.flexible && !r.paired)).toEqual([
    expect.objectContaining({ model: 'Pepper', pair_code: expect.stringMatching(/^[A-Z2-9]{8}$/) }),
  ]);
  await hub.stop();
});

test('a card moved to another slot keeps its robot paired', async ({ page, signedIn }) => {
  test.slow();
  await giveSlots(signedIn.email, 3);
  await openBoard(page);
  const code = await saveNaoInSlot1(page);
  const { hub, robotId, licenseId } = await pairLabNao(page, signedIn, code);

  // Dragged from slot 1 to slot 3.
  await dragOnto(page, slot(page, 0).getByTestId('slot-card'), slot(page, 2));
  await expect(slotModel(page, 2)).toHaveText('Nao');
  await expect(slot(page, 0).getByTestId('slot-card')).toHaveCount(0);
  await update(page).click();
  await expect(confirmSync(page)).toContainText('You are about to sync 1 license.');
  await expect(confirmSync(page).getByTestId('sync-changes')).toHaveCount(0);
  await expect(syncList(page, 'kept')).toHaveText(['Slot 3: Lab Nao (Nao) moved from Slot 1, stays paired']);
  await expectAccessible(page);
  await screenshots(page, 'flex-keep-confirm-move');
  await confirmSync(page).getByRole('button', { name: 'Sync Licenses' }).click();
  await expect(page.getByText('Successfully updated flexible robot licenses')).toBeVisible();

  await page.reload();
  await expect(slotModel(page, 2)).toHaveText('Nao');
  await expect(slotLicense(page, 2)).toHaveText('Paired with Lab Nao');
  await expect(slot(page, 0)).toContainText('Click to select a robot license');
  expect((await hub.robots()).find((r) => r.robot_id === robotId)).toMatchObject({
    license_id: licenseId,
    paired: true,
    flexible: true,
  });
  await hub.stop();
});

test('a replaced slot unpairs its robot, as Confirm Sync warned; the hub then lists it without a license', async ({
  page,
  signedIn,
}) => {
  test.slow();
  await giveSlots(signedIn.email, 2);
  await openBoard(page);
  const code = await saveNaoInSlot1(page);
  const { hub, robotId } = await pairLabNao(page, signedIn, code);

  await slot(page, 0).getByTestId('slot-card').click();
  const select = page.getByRole('dialog', { name: 'Select Robot License' });
  await select.getByRole('button', { name: /^Pepper/ }).click();
  await update(page).click();
  await expect(syncList(page, 'changes')).toHaveText([
    'Slot 1: Lab Nao (Nao) will be unpaired',
    'Slot 1: Pepper added',
  ]);
  await expect(confirmSync(page).getByTestId('sync-kept')).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, 'flex-keep-confirm-unpair');
  await confirmSync(page).getByRole('button', { name: 'Sync Licenses' }).click();
  await expect(page.getByText('Successfully updated flexible robot licenses')).toBeVisible();
  await pairingCodeOf(page, 0);

  expect((await hub.robots()).find((r) => r.robot_id === robotId)).toMatchObject({ license_id: '', paired: false });
  await hub.stop();
});

test('a save the server refuses changes nothing: the toast says so and Lab Nao stays paired', async ({
  page,
  signedIn,
}) => {
  test.slow();
  await giveSlots(signedIn.email, 2);
  await openBoard(page);
  const code = await saveNaoInSlot1(page);
  const { hub, robotId, licenseId } = await pairLabNao(page, signedIn, code);

  // Slot 2 is filled on the screen, then an operator takes the second slot away before the save.
  await chooseForSlot(page, 1, /^Pepper/);
  await giveSlots(signedIn.email, 1);
  await update(page).click();
  await confirmSync(page).getByRole('button', { name: 'Sync Licenses' }).click();
  await expect(page.getByText('Failed to update flexible robot licenses')).toBeVisible();
  await expect(page.getByText('Failed to update robot licenses. Please try again.')).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'flex-keep-save-refused');

  const saved = await signedIn.api.call(flexibleLicense, 'GetSlots', { user_email: signedIn.email });
  expect(saved.user_slots.map((s) => [s.slot_id, s.license_id, s.paired_robot_name])).toEqual([
    [0, licenseId, 'Lab Nao'],
  ]);
  expect((await hub.robots()).find((r) => r.robot_id === robotId)).toMatchObject({
    license_id: licenseId,
    paired: true,
  });
  await hub.stop();
});

test('the board and Confirm Sync in the dark theme', async ({ page, signedIn }) => {
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await giveSlots(signedIn.email, 3);
  // Lab Nao paired in slot 1 through the API, as the hub does it.
  const saved = await signedIn.api.call(flexibleLicense, 'UpdateSlots', {
    user_email: signedIn.email,
    user_slots: [{ slot_id: 0, license_id: '', robot_id: 'driver-nao', updated_on: Date.now() }],
  });
  const licenseId = saved.user_slots[0]?.license_id ?? '';
  const owned = await signedIn.api.call(licenseService, 'GetLicences', { email: signedIn.email });
  const code = owned.user_licenses?.robot_licenses.find((l) => l.robot_license.license_id === licenseId)?.pair_code;
  const { robot } = await signedIn.api.call(robots, 'REGISTERSIM', {
    email: signedIn.email,
    make: 'Nao',
    model: 'Nao',
    name: 'Lab Nao',
    hardware_hash: `flex-dark-${signedIn.email}`,
  });
  await signedIn.api.call(licenseService, 'PAIRROBOT', {
    email: signedIn.email,
    pair_code: code ?? '',
    robot_id: robot?.robot_id ?? '',
  });

  await openBoard(page);
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(slotLicense(page, 0)).toHaveText('Paired with Lab Nao');
  await chooseForSlot(page, 1, /^Pepper/);
  await expectAccessible(page);
  await screenshots(page, 'flex-keep-board-dark');
  await update(page).click();
  await expect(syncList(page, 'kept')).toHaveText(['Slot 1: Lab Nao (Nao) kept, stays paired']);
  await expectAccessible(page);
  await screenshots(page, 'flex-keep-confirm-sync-dark');
});
