import type { FlexSlotView, PaymentProduct, RobotLicense } from '@portal/contract';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '@/lib/session';
import { fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { FlexBoard } from './flexible-licenses-board';

/**
 * Confirm Sync's texts (spec/001 §4, docs/decisions/061): the spec's words with the count, and below
 * them what the sync changes and keeps, slot by slot; the slots' "n of m slots used" and paired robot.
 */

const driver = (model: string): PaymentProduct => ({
  id: `prod_driver_${model.toLowerCase()}`,
  name: `${model} driver`,
  description: `A year's license for one ${model} robot.`,
  metadata: { BOW_SORTING: 'driver', BOW_UUID: `driver-${model.toLowerCase()}`, model, manufacturer: 'Aldebaran' },
  prices: [],
});
const PRODUCTS = [driver('Nao'), driver('Pepper')];

const flexLicense = (id: string, model: string, robotId = ''): RobotLicense => ({
  robot_id: robotId,
  asset_id: `driver-${model.toLowerCase()}`,
  robot_license: { license_id: id, start_date: 1, duration: 1, end_date: 2 },
  robot_make: model,
  robot_model: model,
  pair_code: robotId ? '' : 'NAOC2345',
  paired_status: Boolean(robotId),
  isFlexible: true,
});
const slot = (slot_id: number, robot_id = '', license_id = '', paired_robot_name = ''): FlexSlotView => ({
  slot_id,
  robot_id,
  license_id,
  updated_on: 1,
  paired_robot_name,
});

/** The demo account's board: Lab Nao paired in slot 1 of 3, the others empty. */
const LAB_NAO = {
  slots: [slot(0, 'driver-nao', 'lic-nao', 'Lab Nao'), slot(1), slot(2)],
  licenses: [flexLicense('lic-nao', 'Nao', 'robot-lab-nao')],
};

beforeEach(() => {
  storeSession(tokenPair(), user(), true);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function show(board: { slots: FlexSlotView[]; licenses: RobotLicense[] } = LAB_NAO) {
  fakeServer({});
  await renderScreen(
    <FlexBoard
      email="ada@example.com"
      userId="u-1"
      slots={{
        user_slots: board.slots,
        user_slot_amount: board.slots.length,
        approved_robot_ids: ['driver-nao', 'driver-pepper'],
      }}
      products={PRODUCTS}
      licenses={board.licenses}
    />,
  );
  await settle();
}

const slotNo = (n: number) => screen.getAllByTestId('flex-slot')[n] as HTMLElement;
const click = async (el: HTMLElement) => {
  await act(async () => {
    fireEvent.click(el);
  });
  await settle();
};
async function choose(slotIndex: number, model: string) {
  const target = within(slotNo(slotIndex));
  await click(target.queryByTestId('slot-card') ?? target.getByRole('button', { name: /Click to select/ }));
  await click(
    within(screen.getByRole('dialog', { name: 'Select Robot License' })).getByRole('button', {
      name: new RegExp(`^${model}`),
    }),
  );
}
async function openConfirm() {
  await click(screen.getByRole('button', { name: 'Update Flexible Licenses' }));
  return screen.getByRole('dialog', { name: 'Confirm Sync' });
}
const listed = (dialog: HTMLElement, testId: string) =>
  within(dialog)
    .queryAllByTestId(testId)
    .flatMap((list) =>
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    );

describe('the board', () => {
  it('shows how many slots are used and the robot a saved slot is paired with', async () => {
    await show();
    expect(screen.getByTestId('slots-used').textContent).toBe('1 of 3 slots used');
    expect(within(slotNo(0)).getByTestId('slot-license').textContent).toBe('Paired with Lab Nao');
    await choose(1, 'Pepper');
    expect(screen.getByTestId('slots-used').textContent).toBe('2 of 3 slots used');
  });
});

describe('Confirm Sync', () => {
  it("states the spec's words with the count, the change and the slot kept (the issue's case)", async () => {
    await show();
    await choose(1, 'Pepper');
    const dialog = await openConfirm();
    expect(within(dialog).getByText(/^You are about to sync/).textContent).toBe(
      'You are about to sync 2 licenses. This removes existing flex licenses and replaces them with the new selection, updates the account, and activates licenses for immediate pairing and use.',
    );
    expect(within(dialog).getByRole('heading', { name: 'Changes' })).toBeTruthy();
    expect(listed(dialog, 'sync-changes')).toEqual(['Slot 2: Pepper added']);
    expect(within(dialog).getByRole('heading', { name: 'Kept' })).toBeTruthy();
    expect(listed(dialog, 'sync-kept')).toEqual(['Slot 1: Lab Nao (Nao) kept, stays paired']);
  });

  it('says which robot a replaced slot unpairs, in the singular count', async () => {
    await show();
    await choose(0, 'Pepper');
    const dialog = await openConfirm();
    expect(
      within(dialog).getByText(/^You are about to sync 1 license\. This removes existing flex licenses/),
    ).toBeTruthy();
    expect(listed(dialog, 'sync-changes')).toEqual(['Slot 1: Lab Nao (Nao) will be unpaired', 'Slot 1: Pepper added']);
    expect(within(dialog).queryByRole('heading', { name: 'Kept' })).toBeNull();
  });

  it('keeps a moved card paired', async () => {
    await show();
    await click(within(slotNo(0)).getByRole('button', { name: 'Remove Nao license from Slot 1' }));
    await choose(2, 'Nao');
    const dialog = await openConfirm();
    expect(listed(dialog, 'sync-changes')).toEqual([]);
    expect(within(dialog).queryByRole('heading', { name: 'Changes' })).toBeNull();
    expect(listed(dialog, 'sync-kept')).toEqual(['Slot 3: Lab Nao (Nao) moved from Slot 1, stays paired']);
  });

  it('lists an unpaired license removed, and one kept with its pairing code', async () => {
    await show({
      slots: [slot(0, 'driver-nao', 'lic-nao'), slot(1, 'driver-pepper', 'lic-pepper')],
      licenses: [flexLicense('lic-nao', 'Nao'), flexLicense('lic-pepper', 'Pepper')],
    });
    await click(within(slotNo(0)).getByRole('button', { name: 'Remove Nao license from Slot 1' }));
    const dialog = await openConfirm();
    expect(within(dialog).getByText(/^You are about to sync 1 license\./)).toBeTruthy();
    expect(listed(dialog, 'sync-changes')).toEqual(['Slot 1: Nao removed']);
    expect(listed(dialog, 'sync-kept')).toEqual(['Slot 2: Pepper kept, same pairing code']);
  });

  it('sends the selection once confirmed', async () => {
    const server = fakeServer({
      UpdateSlots: () => ({
        json: {
          error: OK,
          user_slots: [slot(0, 'driver-nao', 'lic-nao', 'Lab Nao'), slot(1, 'driver-pepper', 'lic-2'), slot(2)],
          user_slot_amount: 3,
          approved_robot_ids: ['driver-nao', 'driver-pepper'],
        },
      }),
    });
    await renderScreen(
      <FlexBoard
        email="ada@example.com"
        userId="u-1"
        slots={{ user_slots: LAB_NAO.slots, user_slot_amount: 3, approved_robot_ids: ['driver-nao', 'driver-pepper'] }}
        products={PRODUCTS}
        licenses={LAB_NAO.licenses}
      />,
    );
    await choose(1, 'Pepper');
    const dialog = await openConfirm();
    await click(within(dialog).getByRole('button', { name: 'Sync Licenses' }));
    expect(server.count('UpdateSlots')).toBe(1);
    expect(screen.getByText('Successfully updated flexible robot licenses')).toBeTruthy();
  });
});
