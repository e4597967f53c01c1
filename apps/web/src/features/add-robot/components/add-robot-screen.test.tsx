import type { PaymentProduct } from '@portal/contract';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CART_STORAGE_KEY, resetCartStore } from '@/lib/cart-store';
import { storeSession } from '@/lib/session';
import { fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { ADD_ROBOT_SEARCH_DEFAULTS } from '../add-robot-search';
import { AddRobotScreen } from './add-robot-screen';

// Shaped as the catalogue ships them: "Nao driver" drives the model Nao.
const driver = (model: string, manufacturer: string, amount = 12_000): PaymentProduct => ({
  id: `prod_${model}`,
  name: `${model} driver`,
  description: `A year's commercial driver license for one ${model} robot.`,
  metadata: { BOW_SORTING: 'driver', BOW_UUID: `driver-${model}`, model, manufacturer },
  prices: [
    {
      id: `price_${model}`,
      currency: 'gbp',
      unit_amount: amount,
      type: 'recurring',
      recurring: { interval: 'year', interval_count: 1 },
    },
  ],
});

const CATALOGUE: PaymentProduct[] = [
  driver('Nao', 'Aldebaran'),
  driver('Pepper', 'SoftBank'),
  driver('Tiago_Steel', 'PAL Robotics'),
  driver('Roomba', 'iRobot'),
  driver('Generic', 'Any'),
  { id: 'prod_time', name: '60 minutes', description: '', metadata: { BOW_PRICING: 'onetime' }, prices: [] },
];

beforeEach(() => {
  vi.useFakeTimers();
  storeSession(tokenPair(), user(), true);
  resetCartStore();
  fakeServer({ GetProducts: () => ({ json: { error: OK, products: CATALOGUE } }) });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  resetCartStore();
});

const cards = () => screen.getAllByTestId('add-robot-card');

describe('Add Robot (spec/001 §2)', () => {
  it('lists only supported driver models, with the licence texts, and the not-listed card on a short page', async () => {
    await renderScreen(<AddRobotScreen search={ADD_ROBOT_SEARCH_DEFAULTS} onSearchChange={() => {}} />);
    await settle();
    expect(screen.getByRole('heading', { level: 1, name: 'Add Robot' })).toBeTruthy();
    // A-Z by model: Generic, Nao, Pepper, Tiago_Steel (shown as Tiago with variant Steel); Roomba is not supported
    expect(cards().map((c) => within(c).getByRole('heading').textContent)).toEqual([
      'Generic',
      'Nao',
      'Pepper',
      'TiagoSteel',
    ]);
    const nao = cards()[1] as HTMLElement;
    expect(within(nao).getByText('Aldebaran')).toBeTruthy();
    expect(within(nao).getByText('BOW Commercial License')).toBeTruthy();
    expect(within(nao).getByText('- Support')).toBeTruthy();
    expect(within(nao).getByText('- 1 Physical Robot License')).toBeTruthy();
    expect(within(nao).getByRole('button', { name: 'Add Nao driver to cart, £120.00/year' })).toBeTruthy();
    const notListed = screen.getByTestId('add-robot-not-listed');
    expect(within(notListed).getByText('Is your Robot not in the list?')).toBeTruthy();
    expect(within(notListed).getByRole('link', { name: 'Get in touch' }).getAttribute('href')).toMatch(
      /^\/dashboard\/support\?topic=robot_not_listed/,
    );
  });

  it('filters by model case-insensitively and always keeps Generic', async () => {
    await renderScreen(<AddRobotScreen search={ADD_ROBOT_SEARCH_DEFAULTS} onSearchChange={() => {}} />);
    await settle();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter by Model' }), { target: { value: 'PEP' } });
    expect(cards().map((c) => within(c).getByRole('heading').textContent)).toEqual(['Generic', 'Pepper']);
  });

  it("says no robot models match 'zzz', keeps the not-listed card, and Clear filter brings the list back", async () => {
    const onSearchChange = vi.fn();
    await renderScreen(<AddRobotScreen search={ADD_ROBOT_SEARCH_DEFAULTS} onSearchChange={onSearchChange} />);
    await settle();
    expect(screen.queryByText(/No robot models match/)).toBeNull();
    const box = screen.getByRole('searchbox', { name: 'Filter by Model' }) as HTMLInputElement;
    fireEvent.change(box, { target: { value: 'zzz' } });
    expect(screen.getByRole('status').textContent).toContain("No robot models match 'zzz'");
    expect(screen.getByTestId('add-robot-not-listed')).toBeTruthy();
    expect(screen.getByText('Is your Robot not in the list?')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Clear filter' }));
    expect(box.value).toBe('');
    expect(onSearchChange).toHaveBeenLastCalledWith({ filter: '', page: 1 });
    expect(screen.queryByText(/No robot models match/)).toBeNull();
    expect(cards().length).toBeGreaterThan(1);
  });

  it('adds to the cart, shows the check mark for 1000 ms and toasts the product name', async () => {
    await renderScreen(<AddRobotScreen search={ADD_ROBOT_SEARCH_DEFAULTS} onSearchChange={() => {}} />);
    await settle();
    const button = screen.getByRole('button', { name: 'Add Nao driver to cart, £120.00/year' });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(button.getAttribute('data-state')).toBe('added');
    expect(within(button).getByTestId('added-check')).toBeTruthy();
    await settle();
    expect(screen.getByText('You have successfully added Nao driver to your cart.')).toBeTruthy();
    const stored = JSON.parse(localStorage.getItem(CART_STORAGE_KEY) ?? '[]');
    expect(stored).toMatchObject([{ id: 'prod_Nao', quantity: 1, selected_price_unit_amount: 12_000 }]);

    await settle(999);
    expect(button.getAttribute('data-state')).toBe('added');
    await settle(1);
    expect(button.getAttribute('data-state')).toBe('idle');
    expect(within(button).getByText('£120.00/year')).toBeTruthy();
  });

  it.each([
    ['the server fails (500)', 500, 1],
    ['Stripe refuses (502)', 502, 111],
    ['Stripe is down (503)', 503, 111],
  ])('shows the error and a way to retry when the catalogue cannot be loaded: %s', async (_name, status, code) => {
    const server = fakeServer({
      GetProducts: () => ({ status, json: { error: { Success: false, Code: code, Description: 'x' } } }),
    });
    await renderScreen(<AddRobotScreen search={ADD_ROBOT_SEARCH_DEFAULTS} onSearchChange={() => {}} />);
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('Failed to fetch products');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy();
    // Not an expired session: nothing refreshes it.
    expect(server.count('get-self')).toBe(0);
  });
});
