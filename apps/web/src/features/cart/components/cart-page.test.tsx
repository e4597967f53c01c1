import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHECKOUT_SESSION_STORAGE_KEY, resetCartStore } from '@/lib/cart-store';
import { redirectBrowser } from '@/lib/redirect';
import { storeSession } from '@/lib/session';
import { cartLine, cartQuantities, seedCart } from '@/test/cart-fixtures';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { CartPage } from './cart-page';

vi.mock('@/lib/redirect', () => ({ redirectBrowser: vi.fn() }));

const SESSION_URL = 'https://checkout.example.test/pay/cs_1';
const CHECKOUT_FAILED = 'Failed to create checkout session. Please try again.';

beforeEach(() => {
  vi.useFakeTimers();
  storeSession(tokenPair(), user(), true);
  vi.mocked(redirectBrowser).mockClear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  resetCartStore();
});

const quantityBox = (name: string) => screen.getByRole('textbox', { name: `Quantity of ${name}` }) as HTMLInputElement;
const checkoutButton = () => screen.getByRole('button', { name: /^(Checkout|Processing\.\.\.)$/ }) as HTMLButtonElement;

describe('Cart page (spec/001 §2)', () => {
  it('names each model as the spec displays it (Tiago_Steel as Tiago Steel)', async () => {
    seedCart([cartLine('Tiago_Steel driver', 1, 12_000), cartLine('Artus_Hand driver', 1, 5_000)]);
    await renderScreen(<CartPage email="ada@example.com" />);
    expect(screen.getByText('Tiago Steel driver')).toBeTruthy();
    expect(screen.getByText('Artus Hand driver')).toBeTruthy();
  });

  it('shows the item count, rows with unit price and line total, and the order total', async () => {
    seedCart([cartLine('Nao', 2, 12_000), cartLine('Pepper', 1, 5_000)]);
    await renderScreen(<CartPage email="ada@example.com" />);
    expect(screen.getByTestId('cart-count').textContent).toBe('3 Items');
    expect(screen.getByText('£240.00')).toBeTruthy();
    expect(screen.getByTestId('cart-total').textContent).toBe('£290.00');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Remove Pepper' }));
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Decrease quantity of Nao' }));
    });
    expect(screen.getByTestId('cart-count').textContent).toBe('1 Item');
    // At quantity 1 the minus is a remove button.
    expect(screen.queryByRole('button', { name: 'Decrease quantity of Nao' })).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Clear Cart' }));
    });
    expect(cartQuantities()).toEqual([]);
  });

  it('takes digits only; Enter sets the quantity, and a blur with no number reverts to the previous one', async () => {
    seedCart([cartLine('Nao', 3)]);
    await renderScreen(<CartPage email="ada@example.com" />);
    const box = quantityBox('Nao');
    fireEvent.change(box, { target: { value: '1a2' } });
    expect(box.value).toBe('12');
    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter' });
    });
    expect(cartQuantities()).toEqual([['Nao', 12]]);

    fireEvent.change(box, { target: { value: 'abc' } });
    expect(box.value).toBe('');
    await act(async () => {
      fireEvent.blur(box);
    });
    expect(box.value).toBe('12');
    expect(cartQuantities()).toEqual([['Nao', 12]]);
  });

  it('shows "Processing..." while the session is created, stores its address and redirects to it', async () => {
    seedCart([cartLine('Nao', 2)]);
    let answer: (value: { json: unknown }) => void = () => {};
    const server = fakeServer({ HandlePurchase: () => new Promise((resolve) => (answer = resolve)) });
    await renderScreen(<CartPage email="ada@example.com" />);
    await act(async () => {
      fireEvent.click(checkoutButton());
    });
    await settle();
    expect(checkoutButton().textContent).toBe('Processing...');
    expect(checkoutButton().disabled).toBe(true);
    expect(server.calls.find((c) => c.action === 'HandlePurchase')?.body.session).toEqual({
      products: [{ id: 'Nao', selected_price_id: 'price_Nao', quantity: 2 }],
      success_url: `${window.location.origin}/dashboard/cart/success`,
      cancel_url: `${window.location.origin}/dashboard/cart/cancel`,
    });

    answer({
      json: { error: OK, session: { session_id: 'cs_1', session_url: SESSION_URL, amount: 24_000, currency: 'gbp' } },
    });
    await settle();
    expect(redirectBrowser).toHaveBeenCalledWith(SESSION_URL);
    expect(localStorage.getItem(CHECKOUT_SESSION_STORAGE_KEY)).toBe(SESSION_URL);
    expect(checkoutButton().textContent).toBe('Processing...');
  });

  it.each([
    ['the call fails', () => ({ status: 500, json: failure(1, 'Internal error') })],
    [
      'no session address comes back',
      () => ({ json: { error: OK, session: { session_id: 'cs_1', session_url: '', amount: 0, currency: 'gbp' } } }),
    ],
  ])(
    'toasts the checkout failure when %s, and keeps the button disabled for 1 s after the click',
    async (_, handler) => {
      seedCart([cartLine('Nao')]);
      fakeServer({ HandlePurchase: handler });
      await renderScreen(<CartPage email="ada@example.com" />);
      await act(async () => {
        fireEvent.click(checkoutButton());
      });
      await settle();
      expect(screen.getByText(CHECKOUT_FAILED)).toBeTruthy();
      expect(redirectBrowser).not.toHaveBeenCalled();
      expect(localStorage.getItem(CHECKOUT_SESSION_STORAGE_KEY)).toBeNull();
      expect(checkoutButton().textContent).toBe('Checkout');
      expect(checkoutButton().disabled).toBe(true);
      await settle(999);
      expect(checkoutButton().disabled).toBe(true);
      await settle(1);
      expect(checkoutButton().disabled).toBe(false);
    },
  );
  it('re-prices a line saved on a price no longer sold, with a notice, and checks out at the new price', async () => {
    seedCart([
      {
        ...cartLine('prod_standard', 1, 1500),
        name: 'Standard Subscription',
        prices: [
          {
            id: 'price_old',
            currency: 'gbp',
            unit_amount: 1500,
            type: 'recurring',
            recurring: { interval: 'month', interval_count: 1 },
          },
        ],
        selected_price_id: 'price_old',
      },
    ]);
    const server = fakeServer({
      GetProducts: () => ({
        json: {
          error: OK,
          products: [
            {
              id: 'prod_standard',
              name: 'Standard Subscription',
              description: '',
              metadata: {},
              prices: [
                {
                  id: 'price_year',
                  currency: 'gbp',
                  unit_amount: 15_000,
                  type: 'recurring',
                  recurring: { interval: 'year', interval_count: 1 },
                },
                {
                  id: 'price_new',
                  currency: 'gbp',
                  unit_amount: 1600,
                  type: 'recurring',
                  recurring: { interval: 'month', interval_count: 1 },
                },
              ],
            },
          ],
        },
      }),
      HandlePurchase: () => ({ json: failure(1, 'not here') }),
    });
    await renderScreen(<CartPage email="ada@example.com" />);
    await settle();
    const notice = screen.getByTestId('cart-price-notice');
    expect(notice.textContent).toContain('Prices in your cart have changed');
    expect(notice.textContent).toContain(
      'The price of Standard Subscription has changed from £15.00 a month to £16.00 a month.',
    );
    expect(screen.getByTestId('cart-total').textContent).toBe('£16.00');
    await act(async () => {
      fireEvent.click(checkoutButton());
    });
    await settle();
    expect(server.calls.find((c) => c.action === 'HandlePurchase')?.body.session).toMatchObject({
      products: [{ id: 'prod_standard', selected_price_id: 'price_new', quantity: 1 }],
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    });
    expect(screen.queryByTestId('cart-price-notice')).toBeNull();
  });
});
