import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CART_STORAGE_KEY, CHECKOUT_SESSION_STORAGE_KEY, resetCartStore } from '@/lib/cart-store';
import { storeSession } from '@/lib/session';
import { cartLine, cartQuantities, seedCart } from '@/test/cart-fixtures';
import { failure, fakeServer, never, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { CONFETTI_MS } from '../hooks/cart-use-confetti';
import { CartCancelPage } from './cart-cancel-page';
import { CartSuccessPage } from './cart-success-page';

const confetti = vi.hoisted(() => Object.assign(vi.fn(), { reset: vi.fn() }));
const create = vi.hoisted(() => vi.fn(() => confetti));
vi.mock('canvas-confetti', () => ({ default: { create } }));

const SESSION_URL = 'https://checkout.example.test/pay/cs_1';

beforeEach(() => {
  storeSession(tokenPair(), user(), true);
  confetti.mockClear();
  create.mockClear();
  seedCart([cartLine('Nao', 2, 12_000)]);
  localStorage.setItem(CHECKOUT_SESSION_STORAGE_KEY, SESSION_URL);
});
afterEach(() => {
  vi.unstubAllGlobals();
  resetCartStore();
});

const lines = () => screen.getAllByTestId('purchased-line').map((l) => l.textContent);

describe('Payment Successful (spec/001 §2)', () => {
  it('lists the lines the server confirms, empties the cart, clears the stored address and throws confetti', async () => {
    const server = fakeServer({
      ConfirmPurchase: () => ({
        json: {
          error: OK,
          purchase: {
            session_id: 'cs_1',
            status: 'paid',
            amount: 36_000,
            currency: 'gbp',
            lines: [{ product_id: 'prod_nao', name: 'Nao', quantity: 3, unit_amount: 12_000 }],
          },
        },
      }),
    });
    await renderScreen(<CartSuccessPage email="ada@example.com" sessionId="cs_1" />);
    await settle();
    expect(server.calls[0]?.body).toMatchObject({ action: 'ConfirmPurchase', session_id: 'cs_1' });
    expect(screen.getByRole('heading', { level: 1, name: 'Payment Successful' })).toBeTruthy();
    expect(lines()).toEqual(['Nao × 3£120.00 × 3 = £360.00']);
    expect(cartQuantities()).toEqual([]);
    expect(localStorage.getItem(CART_STORAGE_KEY)).toBeNull();
    expect(localStorage.getItem(CHECKOUT_SESSION_STORAGE_KEY)).toBeNull();
    expect(confetti).toHaveBeenCalledTimes(1);
    // Without a worker: the CSP refuses a worker from a blob: URL.
    // On the page's own canvas, behind the card, not the library's full-screen one above everything.
    expect(create).toHaveBeenCalledWith(screen.getByTestId('confetti'), expect.objectContaining({ useWorker: false }));
    const back = screen.getByRole('link', { name: 'Return to dashboard' });
    expect(back.getAttribute('href')).toBe('/dashboard');
  });

  it.each(['open', 'expired'] as const)(
    'a %s (unpaid) session is no success: the cart stays and nothing flies',
    async (status) => {
      fakeServer({
        ConfirmPurchase: () => ({
          json: { error: OK, purchase: { session_id: 'cs_1', status, amount: 24_000, currency: 'gbp', lines: [] } },
        }),
      });
      await renderScreen(<CartSuccessPage email="ada@example.com" sessionId="cs_1" />);
      await settle();
      expect(screen.getByRole('heading', { name: 'Payment not completed' })).toBeTruthy();
      expect(screen.queryByRole('heading', { name: 'Payment Successful' })).toBeNull();
      expect(screen.getByRole('link', { name: 'Back to cart' }).getAttribute('href')).toBe('/dashboard/cart');
      expect(cartQuantities()).toEqual([['Nao', 2]]);
      expect(confetti).not.toHaveBeenCalled();
    },
  );

  it('throws no confetti for someone who prefers reduced motion', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('reduce'), media: query }));
    fakeServer({});
    await renderScreen(<CartSuccessPage email="ada@example.com" />);
    await settle();
    expect(confetti).not.toHaveBeenCalled();
    // Nothing confirmed, nothing listed: the stored cart is never shown as bought.
    expect(screen.queryByRole('list', { name: 'Purchased items' })).toBeNull();
  });

  it("shows a loading state until the server answers, never the stored cart's lines", async () => {
    fakeServer({ ConfirmPurchase: never });
    await renderScreen(<CartSuccessPage email="ada@example.com" sessionId="cs_1" />);
    await settle();
    expect(screen.getByRole('status').textContent).toBe('Confirming your payment...');
    expect(screen.queryByTestId('purchased-line')).toBeNull();
    expect(screen.queryByText(/Nao/)).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Payment Successful' })).toBeNull();
    expect(cartQuantities()).toEqual([['Nao', 2]]);
    expect(confetti).not.toHaveBeenCalled();
  });

  it('an unanswered confirmation lists nothing from the stored cart and says the receipt is missing', async () => {
    fakeServer({ ConfirmPurchase: () => ({ status: 500, json: failure(1, 'down') }) });
    await renderScreen(<CartSuccessPage email="ada@example.com" sessionId="cs_1" />);
    await settle();
    expect(screen.getByRole('heading', { name: 'Payment Successful' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'Your receipt could not be loaded. It is also sent to you by email.',
    );
    expect(screen.queryByTestId('purchased-line')).toBeNull();
  });

  it(`clears the confetti after ${CONFETTI_MS} ms`, async () => {
    vi.useFakeTimers();
    try {
      fakeServer({
        ConfirmPurchase: () => ({
          json: {
            error: OK,
            purchase: { session_id: 'cs_1', status: 'paid', amount: 12_000, currency: 'gbp', lines: [] },
          },
        }),
      });
      await renderScreen(<CartSuccessPage email="ada@example.com" sessionId="cs_1" />);
      await settle();
      expect(confetti).toHaveBeenCalledWith(expect.objectContaining({ ticks: expect.any(Number) }));
      confetti.reset.mockClear();
      await settle(CONFETTI_MS - 1);
      expect(confetti.reset).not.toHaveBeenCalled();
      await settle(1);
      expect(confetti.reset).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Payment Successful as a receipt (issue 32 item 3)', () => {
  const PAID_AT = Date.UTC(2026, 10, 27, 12, 0, 0);
  const receipt = (over: Record<string, unknown> = {}) => ({
    json: {
      error: OK,
      purchase: {
        session_id: 'cs_1',
        status: 'paid',
        amount: 24_000,
        currency: 'gbp',
        lines: [
          { product_id: 'prod_pepper', name: 'Pepper driver', quantity: 2, unit_amount: 12_000, interval: 'year' },
        ],
        reference: 'RP-3F9A1C2B',
        paid_at: PAID_AT,
        pairings: [
          { robot_model: 'Pepper', pair_code: 'K7Q2ZX' },
          { robot_model: 'Pepper', pair_code: 'M4N8PA' },
        ],
        ...over,
      },
    },
  });

  it('shows the total, the reference, the date and "/year" on a recurring line', async () => {
    fakeServer({ ConfirmPurchase: () => receipt() });
    await renderScreen(<CartSuccessPage email="ada@example.com" sessionId="cs_1" />);
    await settle();
    expect(lines()).toEqual(['Pepper driver × 2£120.00 × 2 = £240.00/year']);
    expect(screen.getByTestId('receipt').textContent).toBe(
      'Total£240.00Order referenceRP-3F9A1C2BDate27 November 2026',
    );
  });

  it('a one-time line has no interval', async () => {
    fakeServer({
      ConfirmPurchase: () =>
        receipt({
          lines: [{ product_id: 'prod_time_60', name: '60 dial minutes', quantity: 1, unit_amount: 1_200 }],
          amount: 1_200,
          pairings: [],
        }),
    });
    await renderScreen(<CartSuccessPage email="ada@example.com" sessionId="cs_1" />);
    await settle();
    expect(lines()).toEqual(['60 dial minutes × 1£12.00 × 1 = £12.00']);
    expect(screen.queryByRole('heading', { name: 'Pair your robot' })).toBeNull();
  });

  it('gives each driver bought its pairing code, a copy button and a link to Downloads', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    fakeServer({ ConfirmPurchase: () => receipt() });
    await renderScreen(<CartSuccessPage email="ada@example.com" sessionId="cs_1" />);
    await settle();
    const section = screen.getByRole('region', { name: 'Pair your robot' });
    expect(
      within(section)
        .getAllByTestId('pairing-code')
        .map((c) => c.textContent),
    ).toEqual(['K7Q2ZX', 'M4N8PA']);
    expect(within(section).getByRole('link', { name: 'Downloads' }).getAttribute('href')).toBe('/dashboard/downloads');
    const [first, second] = within(section).getAllByRole('button', { name: 'Copy the pairing code of Pepper' });
    await act(async () => {
      fireEvent.click(second as HTMLElement);
    });
    expect(writeText).toHaveBeenCalledWith('M4N8PA');
    expect(second?.getAttribute('aria-pressed')).toBe('true');
    expect(second?.textContent).toBe('Copied');
    expect(first?.getAttribute('aria-pressed')).toBe('false');
  });

  it('a refused clipboard says to copy by hand', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) },
    });
    fakeServer({ ConfirmPurchase: () => receipt({ pairings: [{ robot_model: 'Pepper', pair_code: 'K7Q2ZX' }] }) });
    await renderScreen(<CartSuccessPage email="ada@example.com" sessionId="cs_1" />);
    await settle();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy the pairing code of Pepper' }));
    });
    expect(screen.getByText('Could not copy: select the code and copy it.')).toBeTruthy();
  });
});

describe('Payment Cancelled (spec/001 §2)', () => {
  it('says the transaction was not completed, links back to the cart, clears the address and keeps the cart', async () => {
    await renderScreen(<CartCancelPage />);
    expect(screen.getByText('Your transaction has not been completed.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to cart' }).getAttribute('href')).toBe('/dashboard/cart');
    expect(localStorage.getItem(CHECKOUT_SESSION_STORAGE_KEY)).toBeNull();
    expect(cartQuantities()).toEqual([['Nao', 2]]);
  });
});
