import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readCart, resetCartStore } from '@/lib/cart-store';
import { redirectBrowser } from '@/lib/redirect';
import { storeSession } from '@/lib/session';
import { cartLine, seedCart } from '@/test/cart-fixtures';
import { failure, never, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { CHECKOUT_URL, serveDialTime } from '@/test/subscription-fixtures';
import { buyMoreTimeDialog } from './dial-time-buy-more-time';
import { DialTimePanel } from './dial-time-panel';

vi.mock('@/lib/redirect', () => ({ redirectBrowser: vi.fn() }));

const EMAIL = 'ada@example.com';

beforeEach(() => {
  vi.useFakeTimers();
  storeSession(tokenPair(), user(), true);
  resetCartStore();
  vi.mocked(redirectBrowser).mockClear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  resetCartStore();
});

async function render() {
  await renderScreen(<DialTimePanel email={EMAIL} userId="u-1" />);
  await settle();
}

async function openDialog() {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Buy More Time' }));
    // The dialog's code is fetched on first use; the press opens it when it arrives.
    await buyMoreTimeDialog.preload();
  });
  await settle();
  return screen.getByRole('dialog', { name: 'Buy More Time' });
}

const goToCheckout = () =>
  screen.getByRole('button', { name: /^(Go to Checkout|Processing\.\.\.)$/ }) as HTMLButtonElement;

describe('Buy More Time (spec/001 §2, §9)', () => {
  it.each([
    ['Lite', 'Lite Subscription', ['60 dial minutes£12.00', '300 dial minutes£50.00'], true],
    ['Standard', 'Standard Subscription', ['60 dial minutes£10.00', '300 dial minutes£40.00'], false],
  ] as const)('a %s user sees the packages at the tier price', async (_name, tier, packages, upgrade) => {
    serveDialTime(tier);
    await render();
    const upgradeLink = screen.queryByRole('link', { name: /Upgrade to Pro/ });
    expect(Boolean(upgradeLink)).toBe(upgrade);
    if (upgradeLink) expect(upgradeLink.getAttribute('href')).toBe('/dashboard/subscriptions/manage');
    const dialog = await openDialog();
    expect(
      within(dialog)
        .getAllByTestId('time-package')
        .map((p) => p.textContent),
    ).toEqual(packages);
    expect((within(dialog).getAllByRole('radio')[0] as HTMLElement).getAttribute('aria-checked')).toBe('true');
  });

  it('is not offered to Pro users, who have infinite time', async () => {
    serveDialTime('Pro Subscription');
    await render();
    expect(screen.getByText('You have infinite dial time with your Pro subscription.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Buy More Time' })).toBeNull();
  });

  it('shows "Loading products..." while the catalogue loads', async () => {
    serveDialTime('Lite Subscription', { GetProducts: never });
    await render();
    const dialog = await openDialog();
    expect(within(dialog).getByText('Loading products...')).toBeTruthy();
    expect(goToCheckout().disabled).toBe(true);
  });

  it('shows the tier error when the tier cannot be determined', async () => {
    serveDialTime('Lite Subscription', {
      GetActiveUserSubscription: () => ({ status: 500, json: failure(1, 'down') }),
    });
    await render();
    const dialog = await openDialog();
    expect(within(dialog).getByText('Error: Unable to determine subscription tier.')).toBeTruthy();
    expect(within(dialog).queryAllByTestId('time-package')).toEqual([]);
    expect(goToCheckout().disabled).toBe(true);
  });

  it('Go to Checkout replaces the cart with the chosen package, creates the session and redirects', async () => {
    seedCart([cartLine('Nao', 2), cartLine('Pepper')]);
    const server = serveDialTime('Lite Subscription');
    await render();
    const dialog = await openDialog();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('radio', { name: /300 dial minutes/ }));
    });
    await act(async () => {
      fireEvent.click(goToCheckout());
    });
    expect(readCart().map((i) => [i.id, i.selected_price_id, i.quantity])).toEqual([
      ['prod_time_300', 'price_time_300_lite', 1],
    ]);
    expect(goToCheckout().disabled).toBe(true);
    await settle();
    expect(server.calls.find((c) => c.action === 'HandlePurchase')?.body.session).toMatchObject({
      products: [{ id: 'prod_time_300', selected_price_id: 'price_time_300_lite', quantity: 1 }],
    });
    expect(redirectBrowser).toHaveBeenCalledWith(CHECKOUT_URL);
  });

  it.each([
    ['an empty cart says nothing', [], null],
    ['one item says "1 Item"', [cartLine('Nao')], "Your cart's 1 Item will be replaced by this package"],
    ['two items say "2 Items"', [cartLine('Nao', 2)], "Your cart's 2 Items will be replaced by this package"],
    [
      'two lines say "2 Items"',
      [cartLine('Nao'), cartLine('Pepper')],
      "Your cart's 2 Items will be replaced by this package",
    ],
  ] as const)('before Go to Checkout, %s about replacing the cart', async (_case, lines, text) => {
    seedCart([...lines]);
    serveDialTime('Lite Subscription');
    await render();
    const dialog = await openDialog();
    expect(within(dialog).getAllByTestId('time-package')).toHaveLength(2);
    expect(within(dialog).queryByTestId('cart-replaced')?.textContent ?? null).toBe(text);
    expect(within(dialog).queryByText(/will be replaced/) === null).toBe(text === null);
  });

  it('disables Go to Checkout for 1 s after a click, even when the session fails', async () => {
    serveDialTime('Standard Subscription', { HandlePurchase: () => ({ status: 500, json: failure(1, 'down') }) });
    await render();
    await openDialog();
    await act(async () => {
      fireEvent.click(goToCheckout());
    });
    await settle();
    expect(screen.getByText('Failed to create checkout session. Please try again.')).toBeTruthy();
    expect(goToCheckout().disabled).toBe(true);
    await settle(999);
    expect(goToCheckout().disabled).toBe(true);
    await settle(1);
    expect(goToCheckout().disabled).toBe(false);
    expect(redirectBrowser).not.toHaveBeenCalled();
  });
});
