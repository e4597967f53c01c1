import type { Locator, Page } from '@playwright/test';
import { operator } from '@portal/contract';
import { expect, expectAccessible, screenshots, test } from '../fixtures';
import { grid, loadShell, operatorClient } from '../robots/robots-helpers';

/**
 * spec/001 §2, §4, §5 Flexible License Management, against the real server: slots come from an
 * operator's grant (SetSlotAmount), licenses from the sandbox catalogue's drivers.
 */

const PAGE = '/dashboard/subscriptions/flexible_licenses';

async function giveSlots(email: string, amount: number) {
  await operatorClient().call(operator, 'SetSlotAmount', { email, amount });
}

/** Opens the screen from the sidebar, as a person would, and waits for the board. */
async function openBoard(page: Page) {
  await loadShell(page);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Flexible Licenses', exact: true })
    .click();
  await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Flexible License Management' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Selected Robot Licenses' })).toBeVisible();
}

const slot = (page: Page, n: number) => page.getByTestId('flex-slot').nth(n);
const availableCard = (page: Page, model: string) =>
  page
    .getByTestId('available-card')
    .filter({ has: page.getByTestId('license-model').getByText(model, { exact: true }) });
const slotModel = (page: Page, n: number) => slot(page, n).getByTestId('license-model');
const update = (page: Page) => page.getByRole('button', { name: 'Update Flexible Licenses' });

async function centre(locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Presses the mouse on `source` and moves it past the sensor's few pixels; the drag is then on. */
async function pickUp(page: Page, source: Locator) {
  const from = await centre(source);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 12, from.y + 12, { steps: 4 });
}

/** The keydown listeners on the page's document (Chrome DevTools Protocol). */
async function documentKeydownListeners(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'document' });
    if (!result.objectId) throw new Error('no document');
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId });
    return listeners.filter((l) => l.type === 'keydown').length;
  } finally {
    await cdp.detach();
  }
}

/**
 * Picks `card` up with Space and waits until the keyboard drag takes arrow keys: the sensor adds
 * its keydown listener to the document in a timer it sets when the drag starts, and Chromium runs
 * input ahead of timers, so the pick-up announcement can show before the listener is there (an
 * arrow pressed then was lost once in CI).
 */
async function pickUpWithKeyboard(page: Page, card: Locator, live: Locator) {
  await card.focus();
  const before = await documentKeydownListeners(page);
  await page.keyboard.press('Space');
  await expect(live).toContainText(/^Picked up .+ license\.$/);
  await expect.poll(() => documentKeydownListeners(page)).toBeGreaterThan(before);
}

async function moveOver(page: Page, target: Locator) {
  const box = await target.boundingBox();
  if (!box) throw new Error('target not on screen');
  await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 40), { steps: 12 });
}

test.describe('Flexible License Management', () => {
  test('offers the plans at 0 slots', async ({ page, signedIn: _signedIn }) => {
    await loadShell(page);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Flexible Licenses', exact: true })
      .click();
    const upsell = page.getByTestId('flex-upsell');
    await expect(upsell.getByRole('heading', { name: 'Unlock Flexible Robot Licenses' })).toBeVisible();
    await expect(upsell.getByRole('link', { name: 'View Subscription Plans' })).toHaveAttribute(
      'href',
      '/dashboard/subscriptions/manage',
    );
    await expect(page.getByRole('button', { name: 'Update Flexible Licenses' })).toHaveCount(0);
    await expectAccessible(page);
    await screenshots(page, 'flex-upsell');
  });

  test('drags with the mouse: assign, move between slots, remove by dropping back', async ({ page, signedIn }) => {
    await giveSlots(signedIn.email, 3);
    await openBoard(page);
    await expect(slot(page, 0).getByRole('button', { name: 'Click to select a robot license' })).toBeVisible();
    await expect(update(page)).toBeDisabled();

    // From the available list into slot 1; the overlay follows the pointer on a large screen.
    await pickUp(page, availableCard(page, 'Nao'));
    await expect(page.getByTestId('drag-overlay')).toBeVisible();
    await moveOver(page, slot(page, 0));
    await expect(slot(page, 0)).toContainText('Release to place');
    await page.mouse.up();
    await expect(slotModel(page, 0)).toHaveText('Nao');
    await expect(slot(page, 0).getByText('Unsynced Changes')).toBeVisible();
    await expect(update(page)).toBeEnabled();

    // Onto a filled slot: "Release to replace".
    await pickUp(page, availableCard(page, 'Pepper'));
    await moveOver(page, slot(page, 0));
    await expect(slot(page, 0)).toContainText('Release to replace');
    // Moved on to an empty slot before release, it lands there instead.
    await moveOver(page, slot(page, 1));
    await expect(slot(page, 1)).toContainText('Release to place');
    await page.mouse.up();
    await expect(slotModel(page, 1)).toHaveText('Pepper');

    // Between slots: slot 1's Nao moves to slot 3; slot 1 is empty again.
    await pickUp(page, slot(page, 0).getByTestId('slot-card'));
    await moveOver(page, slot(page, 2));
    await page.mouse.up();
    await expect(slotModel(page, 2)).toHaveText('Nao');
    await expect(slot(page, 0).getByTestId('slot-card')).toHaveCount(0);
    await expect(slot(page, 0).getByText('Unsynced Changes')).toHaveCount(0);
    await expectAccessible(page);
    await screenshots(page, 'flex-board-unsynced');

    // Dropped back on the available list, a slot's card is removed.
    await pickUp(page, slot(page, 1).getByTestId('slot-card'));
    const list = page.getByTestId('available-licenses');
    await expect(page.getByTestId('remove-drop-zone')).toHaveText('Release here to remove');
    await moveOver(page, list);
    await expect(page.getByTestId('remove-drop-zone')).toHaveText('Release to Remove');
    await page.mouse.up();
    await expect(slot(page, 1).getByTestId('slot-card')).toHaveCount(0);
    await expect(page.getByTestId('remove-drop-zone')).toHaveCount(0);
    await expect(slotModel(page, 2)).toHaveText('Nao');
  });

  test('under 1024 px the card itself follows the drag, with no overlay', async ({ page, signedIn }) => {
    await giveSlots(signedIn.email, 1);
    await page.setViewportSize({ width: 800, height: 900 });
    await openBoard(page);
    const nao = availableCard(page, 'Nao');
    await pickUp(page, nao);
    await expect(nao).toHaveAttribute('style', /translate3d/);
    await expect(page.getByTestId('drag-overlay')).toHaveCount(0);
    await moveOver(page, slot(page, 0));
    await expect(slot(page, 0)).toContainText('Release to place');
    await page.mouse.up();
    await expect(slotModel(page, 0)).toHaveText('Nao');
  });

  test('drags with the keyboard, with announcements', async ({ page, signedIn }) => {
    await giveSlots(signedIn.email, 2);
    await openBoard(page);
    const live = page.locator('[id^="DndLiveRegion"]');
    await pickUpWithKeyboard(page, availableCard(page, 'Pepper'), live);
    await page.keyboard.press('ArrowDown');
    await expect(live).toContainText('Pepper license is over Slot 1.');
    await page.keyboard.press('ArrowDown');
    await expect(live).toContainText('Pepper license is over Slot 2.');
    await page.keyboard.press('Space');
    await expect(live).toContainText('Pepper license placed in Slot 2.');
    await expect(slotModel(page, 1)).toHaveText('Pepper');
    await expect(slot(page, 0).getByTestId('slot-card')).toHaveCount(0);

    // A slot's card moves with the keyboard too: up to slot 1.
    await pickUpWithKeyboard(page, slot(page, 1).getByTestId('slot-card'), live);
    await page.keyboard.press('ArrowUp');
    await expect(live).toContainText('Pepper license is over Slot 1.');
    await page.keyboard.press('Space');
    await expect(live).toContainText('Pepper license moved from Slot 2 to Slot 1.');
    await expect(slotModel(page, 0)).toHaveText('Pepper');
  });

  test('assigns by the dialog, syncs after Confirm Sync, survives a reload, shows on the Robot Manager', async ({
    page,
    signedIn,
  }) => {
    await giveSlots(signedIn.email, 2);
    await openBoard(page);
    await slot(page, 0).getByRole('button', { name: 'Click to select a robot license' }).click();
    const dialog = page.getByRole('dialog', { name: 'Select Robot License' });
    await dialog.getByRole('searchbox').fill('no such robot');
    await expect(dialog.getByText('No licenses found matching your search')).toBeVisible();
    await dialog.getByRole('searchbox').fill('mobile manipulator');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: /Tiago.*Steel/ }).click();
    await expect(dialog).toBeHidden();
    await expect(slotModel(page, 0)).toHaveText('Tiago');

    await update(page).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Sync' });
    await expect(confirm).toContainText('You are about to sync 1 license.');
    await expect(confirm).toContainText('replaces them with the new selection');
    await expectAccessible(page);
    await screenshots(page, 'flex-confirm-sync');
    await confirm.getByRole('button', { name: 'Sync Licenses' }).click();
    await expect(page.getByText('Successfully updated flexible robot licenses')).toBeVisible();
    await expect(page.getByText('Unsynced Changes')).toHaveCount(0);
    const code = slot(page, 0).getByTestId('slot-license');
    await expect(code).toHaveText(/^Pairing Code: [A-Z2-9]{8}$/);
    const pairing = ((await code.textContent()) ?? '').replace('Pairing Code: ', '');
    await expect(update(page)).toBeDisabled();

    await page.reload();
    await expect(slotModel(page, 0)).toHaveText('Tiago');
    await expect(slot(page, 0).getByTestId('slot-license')).toHaveText(`Pairing Code: ${pairing}`);
    await expect(page.getByText('Unsynced Changes')).toHaveCount(0);
    await screenshots(page, 'flex-board-saved');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
    const mine = grid(page, 'MY ROBOTS');
    const card = mine.getByTestId('robot-card').filter({ hasText: pairing });
    await expect(card).toBeVisible();
    await expect(card.getByText('Flex', { exact: true })).toBeVisible();
  });

  test('remembers "Don\'t show this message again", removes by button and clears all', async ({ page, signedIn }) => {
    await giveSlots(signedIn.email, 2);
    await openBoard(page);
    await slot(page, 0).getByRole('button', { name: 'Click to select a robot license' }).click();
    await page.getByRole('dialog', { name: 'Select Robot License' }).getByRole('button', { name: /Nao/ }).click();
    await slot(page, 1).getByRole('button', { name: 'Click to select a robot license' }).click();
    await page
      .getByRole('dialog', { name: 'Select Robot License' })
      .getByRole('button', { name: /Pepper/ })
      .click();
    await update(page).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Sync' });
    await expect(confirm).toContainText('You are about to sync 2 licenses.');
    await confirm.getByRole('checkbox', { name: "Don't show this message again" }).check();
    await confirm.getByRole('button', { name: 'Sync Licenses' }).click();
    await expect(page.getByText('Successfully updated flexible robot licenses')).toBeVisible();
    await expect(slot(page, 1).getByTestId('slot-license')).toHaveText(/^Pairing Code: /);

    // Removed by its button: the slot stays, pending sync; syncing now asks nothing.
    await page.reload();
    await slot(page, 1).getByRole('button', { name: 'Remove Pepper license from Slot 2' }).click();
    await expect(slot(page, 1)).toContainText('Removal pending sync');
    await expect(slot(page, 1)).toContainText('Click to select a new license for this slot.');
    await expect(slot(page, 1).getByText('Unsynced Changes')).toBeVisible();
    await update(page).click();
    await expect(page.getByText('Successfully updated flexible robot licenses')).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Confirm Sync' })).toHaveCount(0);
    await expect(slot(page, 1)).toContainText('Click to select a robot license');
    await expect(slotModel(page, 0)).toHaveText('Nao');

    await page.getByRole('button', { name: 'Clear All' }).click();
    const clear = page.getByRole('dialog', { name: 'Confirm Clear All' });
    await expect(clear).toContainText('removes all assigned flexible licenses');
    await expectAccessible(page);
    await screenshots(page, 'flex-confirm-clear');
    await clear.getByRole('button', { name: 'Clear All' }).click();
    await expect(page.getByText('Successfully cleared flexible robot licenses')).toBeVisible();
    await expect(page.getByTestId('slot-card')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Clear All' })).toBeDisabled();

    await page.reload();
    await expect(page.getByTestId('flex-slot')).toHaveCount(2);
    await expect(page.getByTestId('slot-card')).toHaveCount(0);
  });
});
