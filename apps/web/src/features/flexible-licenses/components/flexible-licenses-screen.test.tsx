import type { PaymentProduct } from '@portal/contract';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '@/lib/session';
import { failure, fakeServer, never, OK, type SeenCall, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { SKIP_SYNC_CONFIRM_KEY } from '../flexible-licenses-text';
import { FlexibleLicensesScreen } from './flexible-licenses-screen';

const driver = (model: string, manufacturer: string, robotType: string, features = ''): PaymentProduct => ({
  id: `prod_driver_${model.toLowerCase()}`,
  name: `${model} driver`,
  description: `A year's license for one ${model} robot.`,
  metadata: {
    BOW_SORTING: 'driver',
    BOW_UUID: `driver-${model.toLowerCase()}`,
    model,
    manufacturer,
    robotType,
    features,
  },
  prices: [],
});

const CATALOGUE: PaymentProduct[] = [
  driver('Nao', 'Aldebaran', 'Humanoid,Educational', 'Camera streaming'),
  driver('Pepper', 'Aldebaran', 'Humanoid,Social'),
  driver('Rhino', 'Rhino Works', 'Mobile base'),
  // On the catalogue but not on the server's approved list: never offered.
  driver('Roomba', 'iRobot', 'Vacuum'),
];
const APPROVED = ['driver-nao', 'driver-pepper', 'driver-rhino'];

interface Slot {
  slot_id: number;
  license_id: string;
  robot_id: string;
  updated_on: number;
}
const slot = (slot_id: number, robot_id = '', license_id = ''): Slot => ({
  slot_id,
  robot_id,
  license_id,
  updated_on: 1,
});
const slotsAnswer = (user_slots: Slot[], amount: number) => ({
  json: { error: OK, user_slots, user_slot_amount: amount, approved_robot_ids: APPROVED },
});

function serve(
  opts: { slots?: Slot[]; amount?: number; update?: (call: SeenCall) => { status?: number; json: unknown } } = {},
) {
  let saved = opts.slots ?? [slot(0), slot(1, 'driver-pepper', 'lic-pepper'), slot(2)];
  const amount = opts.amount ?? 3;
  return fakeServer({
    GetProducts: () => ({ json: { error: OK, products: CATALOGUE } }),
    GetSlots: () => slotsAnswer(saved, amount),
    GetLicences: () => ({
      json: {
        error: OK,
        user_licenses: {
          email: 'ada@example.com',
          asset_licenses: [],
          shared_robot_licenses: [],
          robot_licenses: [
            {
              robot_id: '',
              asset_id: 'driver-pepper',
              robot_license: { license_id: 'lic-pepper', start_date: 1, duration: 1, end_date: 2 },
              robot_make: 'Pepper',
              robot_model: 'Pepper',
              pair_code: 'PEPR2345',
              paired_status: false,
              isFlexible: true,
            },
          ],
        },
      },
    }),
    UpdateSlots:
      opts.update ??
      ((call) => {
        saved = (call.body.user_slots as Slot[]).map((s) => ({
          ...s,
          license_id: s.robot_id ? `lic-${s.slot_id}` : '',
        }));
        return slotsAnswer(saved, amount);
      }),
    ClearSlots: () => {
      saved = saved.map((s) => slot(s.slot_id));
      return slotsAnswer(saved, amount);
    },
  });
}

beforeEach(() => {
  storeSession(tokenPair(), user(), true);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const show = async () => {
  const view = await renderScreen(<FlexibleLicensesScreen email="ada@example.com" userId="u-1" />);
  await settle();
  return view;
};
const slots = () => screen.getAllByTestId('flex-slot');
const slotNo = (n: number) => slots()[n] as HTMLElement;
const availableModels = () =>
  screen.getAllByTestId('available-card').map((c) => within(c).getByTestId('license-model').textContent);
const click = async (el: HTMLElement) => {
  await act(async () => {
    fireEvent.click(el);
  });
  await settle();
};

describe('Flexible License Management: loading (spec/001 §2)', () => {
  it('shows the loading text while any of the three loads is pending', async () => {
    fakeServer({ GetProducts: never, GetSlots: () => slotsAnswer([], 1), GetLicences: never });
    await show();
    expect(screen.getByRole('status').textContent).toBe('Loading flexible licenses...');
  });

  it.each(['GetProducts', 'GetSlots', 'GetLicences'])('shows the error text when %s fails', async (failing) => {
    const server = fakeServer({
      GetProducts: () => ({ json: { error: OK, products: CATALOGUE } }),
      GetSlots: () => slotsAnswer([], 2),
      GetLicences: () => ({
        json: {
          error: OK,
          user_licenses: { email: 'a', asset_licenses: [], robot_licenses: [], shared_robot_licenses: [] },
        },
      }),
      [failing]: () => ({ status: 500, json: failure(1, 'boom') }),
    });
    await show();
    expect(screen.getByRole('alert').textContent).toBe('Error loading data. Please try again later.');
    expect(server.count(failing)).toBeGreaterThan(0);
  });

  it('offers the plans instead of the tool at 0 slots', async () => {
    serve({ slots: [], amount: 0 });
    await show();
    const upsell = screen.getByTestId('flex-upsell');
    expect(within(upsell).getByRole('heading', { name: 'Unlock Flexible Robot Licenses' })).toBeTruthy();
    expect(within(upsell).getByText(/no flexible license slots available/)).toBeTruthy();
    expect(within(upsell).getByRole('link', { name: 'View Subscription Plans' }).getAttribute('href')).toBe(
      '/dashboard/subscriptions/manage',
    );
    expect(screen.queryByRole('button', { name: 'Update Flexible Licenses' })).toBeNull();
  });
});

describe('Flexible License Management: the board (spec/001 §2, §4, §5)', () => {
  it('shows the slots with their prompts and the pairing code of a saved license', async () => {
    serve();
    await show();
    expect(screen.getByRole('heading', { name: 'Selected Robot Licenses' })).toBeTruthy();
    expect(screen.getByTestId('slots-used').textContent).toBe('1 of 3 slots used');
    expect(slots()).toHaveLength(3);
    expect(within(slotNo(0)).getByRole('button', { name: 'Click to select a robot license' })).toBeTruthy();
    expect(within(slotNo(1)).getByText('Click to remove or replace')).toBeTruthy();
    expect(within(slotNo(1)).getByTestId('slot-license').textContent).toBe('Pairing Code: PEPR2345');
    expect(screen.queryByText('Unsynced Changes')).toBeNull();
    expect((screen.getByRole('button', { name: 'Update Flexible Licenses' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Clear All' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('offers only the approved licenses, with the card texts, searched and sorted', async () => {
    serve();
    await show();
    expect(availableModels()).toEqual(['Nao', 'Pepper', 'Rhino']);
    const nao = screen.getAllByTestId('available-card')[0] as HTMLElement;
    for (const text of [
      'Aldebaran',
      'Robot Details',
      "A year's license for one Nao robot.",
      'Support',
      '1 Physical Robot License',
      'Camera streaming',
      'Humanoid',
      'Educational',
    ])
      expect(within(nao).getByText(text)).toBeTruthy();

    const search = screen.getByRole('searchbox', { name: 'Search robot licenses' });
    fireEvent.change(search, { target: { value: 'SOCIAL' } });
    expect(availableModels()).toEqual(['Pepper']);
    fireEvent.change(search, { target: { value: 'rhino works' } });
    expect(availableModels()).toEqual(['Rhino']);
    fireEvent.change(search, { target: { value: 'vacuum' } });
    expect(screen.getByText('No licenses found matching your search')).toBeTruthy();
    fireEvent.change(search, { target: { value: '' } });

    await click(screen.getByRole('button', { name: /^Sorted A to Z/ }));
    expect(availableModels()).toEqual(['Rhino', 'Pepper', 'Nao']);
    await click(screen.getByRole('button', { name: /^Sorted Z to A/ }));
    expect(availableModels()).toEqual(['Nao', 'Pepper', 'Rhino']);
  });

  it('assigns through the dialog, marks the slot unsynced, and syncs after Confirm Sync', async () => {
    const server = serve();
    await show();
    await click(within(slotNo(0)).getByRole('button', { name: 'Click to select a robot license' }));
    const dialog = screen.getByRole('dialog', { name: 'Select Robot License' });
    fireEvent.change(within(dialog).getByRole('searchbox'), { target: { value: 'zzz' } });
    expect(within(dialog).getByText('No licenses found matching your search')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('searchbox'), { target: { value: 'educational' } });
    await click(within(dialog).getByRole('button', { name: /Nao/ }));
    expect(screen.queryByRole('dialog')).toBeNull();

    expect(within(slotNo(0)).getByTestId('license-model').textContent).toBe('Nao');
    expect(within(slotNo(0)).getByText('Unsynced Changes')).toBeTruthy();
    const update = screen.getByRole('button', { name: 'Update Flexible Licenses' }) as HTMLButtonElement;
    expect(update.disabled).toBe(false);

    await click(update);
    const confirm = screen.getByRole('dialog', { name: 'Confirm Sync' });
    // Two licenses: the new Nao and the saved Pepper, in the spec's words; below them what changes and what stays.
    expect(within(confirm).getByText(/You are about to sync 2 licenses\./).textContent).toContain(
      'removes existing flex licenses and replaces them with the new selection, updates the account, and activates licenses for immediate pairing and use',
    );
    expect(within(within(confirm).getByTestId('sync-changes')).getByRole('listitem').textContent).toBe(
      'Slot 1: Nao added',
    );
    expect(within(within(confirm).getByTestId('sync-kept')).getByRole('listitem').textContent).toBe(
      'Slot 2: Pepper kept, same pairing code',
    );
    await click(within(confirm).getByRole('button', { name: 'Sync Licenses' }));
    await settle();

    expect(server.count('UpdateSlots')).toBe(1);
    const sent = server.calls.find((c) => c.action === 'UpdateSlots')?.body;
    expect(sent).toMatchObject({ user_email: 'ada@example.com', user_id: 'u-1' });
    expect(((sent?.user_slots ?? []) as Slot[]).map((s) => [s.slot_id, s.license_id, s.robot_id])).toEqual([
      [0, '', 'driver-nao'],
      [1, '', 'driver-pepper'],
      [2, '', ''],
    ]);
    expect(screen.getByText('Successfully updated flexible robot licenses')).toBeTruthy();
    expect(screen.queryByText('Unsynced Changes')).toBeNull();
    // The slots and the licenses are fetched again after the save.
    expect(server.count('GetSlots')).toBeGreaterThanOrEqual(2);
    expect(server.count('GetLicences')).toBeGreaterThanOrEqual(2);
    expect(localStorage.getItem(SKIP_SYNC_CONFIRM_KEY)).toBeNull();
  });

  it('states one license in the singular, and remembers "Don\'t show this message again"', async () => {
    const server = serve({ slots: [slot(0), slot(1)], amount: 2 });
    await show();
    await click(within(slotNo(1)).getByRole('button', { name: 'Click to select a robot license' }));
    await click(within(screen.getByRole('dialog')).getByRole('button', { name: /Rhino/ }));
    await click(screen.getByRole('button', { name: 'Update Flexible Licenses' }));
    const confirm = screen.getByRole('dialog', { name: 'Confirm Sync' });
    expect(within(confirm).getByText(/You are about to sync 1 license\./)).toBeTruthy();
    await click(within(confirm).getByRole('checkbox', { name: "Don't show this message again" }));
    await click(within(confirm).getByRole('button', { name: 'Sync Licenses' }));
    await settle();
    expect(localStorage.getItem(SKIP_SYNC_CONFIRM_KEY)).toBe('true');
    expect(server.count('UpdateSlots')).toBe(1);

    // Next time the sync goes straight through.
    await click(within(slotNo(0)).getByRole('button', { name: 'Click to select a robot license' }));
    await click(within(screen.getByRole('dialog')).getByRole('button', { name: /Pepper/ }));
    await click(screen.getByRole('button', { name: 'Update Flexible Licenses' }));
    await settle();
    expect(screen.queryByRole('dialog', { name: 'Confirm Sync' })).toBeNull();
    expect(server.count('UpdateSlots')).toBe(2);
  });

  it('removes with the remove button: the slot keeps its place, pending sync', async () => {
    serve();
    await show();
    await click(within(slotNo(1)).getByRole('button', { name: 'Remove Pepper license from Slot 2' }));
    expect(within(slotNo(1)).getByText('Removal pending sync')).toBeTruthy();
    expect(within(slotNo(1)).getByText('Click to select a new license for this slot.')).toBeTruthy();
    expect(within(slotNo(1)).getByText('Unsynced Changes')).toBeTruthy();
    expect(slots()).toHaveLength(3);
    // Every slot is now empty: nothing left to clear, but the removal can be synced.
    expect((screen.getByRole('button', { name: 'Clear All' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Update Flexible Licenses' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it('replaces or removes a filled slot from its dialog', async () => {
    serve();
    await show();
    await click(within(slotNo(1)).getByTestId('slot-card'));
    const dialog = screen.getByRole('dialog', { name: 'Select Robot License' });
    expect(
      within(dialog).getByText('Slot 2 holds the Pepper license. Choose another to replace it, or remove it.'),
    ).toBeTruthy();
    await click(within(dialog).getByRole('button', { name: /Rhino/ }));
    expect(within(slotNo(1)).getByTestId('license-model').textContent).toBe('Rhino');
    await click(within(slotNo(1)).getByTestId('slot-card'));
    await click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove from slot' }));
    expect(within(slotNo(1)).getByText('Removal pending sync')).toBeTruthy();
  });

  it('clears all after Confirm Clear All', async () => {
    const server = serve();
    await show();
    await click(screen.getByRole('button', { name: 'Clear All' }));
    const confirm = screen.getByRole('dialog', { name: 'Confirm Clear All' });
    expect(
      within(confirm).getByText(/removes all assigned flexible licenses.*paired again.*reset to empty/),
    ).toBeTruthy();
    await click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(server.count('ClearSlots')).toBe(0);

    await click(screen.getByRole('button', { name: 'Clear All' }));
    await click(
      within(screen.getByRole('dialog', { name: 'Confirm Clear All' })).getByRole('button', { name: 'Clear All' }),
    );
    await settle();
    expect(server.count('ClearSlots')).toBe(1);
    expect(screen.getByText('Successfully cleared flexible robot licenses')).toBeTruthy();
    expect(slots().every((s) => within(s).queryByTestId('slot-card') === null)).toBe(true);
  });

  it('shows busy states while saving, then the failure toasts; the edits stay', async () => {
    let answer: (value: { status?: number; json: unknown }) => void = () => {};
    serve({ update: () => new Promise((resolve) => (answer = resolve)) as never });
    localStorage.setItem(SKIP_SYNC_CONFIRM_KEY, 'true');
    await show();
    await click(within(slotNo(0)).getByRole('button', { name: 'Click to select a robot license' }));
    await click(within(screen.getByRole('dialog')).getByRole('button', { name: /Nao/ }));
    await click(screen.getByRole('button', { name: 'Update Flexible Licenses' }));
    const busy = screen.getByRole('button', { name: 'Updating...' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Clear All' }) as HTMLButtonElement).disabled).toBe(true);

    await act(async () => answer({ status: 500, json: failure(1, 'boom') }));
    await settle();
    expect(screen.getByText('Failed to update flexible robot licenses')).toBeTruthy();
    expect(screen.getByText('Failed to update robot licenses. Please try again.')).toBeTruthy();
    expect(within(slotNo(0)).getByText('Unsynced Changes')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Update Flexible Licenses' })).toBeTruthy();
  });

  it('toasts a failed clear', async () => {
    fakeServer({
      GetProducts: () => ({ json: { error: OK, products: CATALOGUE } }),
      GetSlots: () => slotsAnswer([slot(0, 'driver-nao', 'lic-0')], 1),
      GetLicences: () => ({ json: { error: { Success: false, Code: 23, Description: 'No licenses' } } }),
      ClearSlots: () => ({ status: 500, json: failure(1, 'boom') }),
    });
    await show();
    await click(screen.getByRole('button', { name: 'Clear All' }));
    await click(
      within(screen.getByRole('dialog', { name: 'Confirm Clear All' })).getByRole('button', { name: 'Clear All' }),
    );
    await settle();
    expect(screen.getByText('Failed to clear flexible robot licenses')).toBeTruthy();
    expect(screen.getByText('Failed to clear robot licenses. Please try again.')).toBeTruthy();
  });
});
