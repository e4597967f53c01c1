import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetCartStore } from '@/lib/cart-store';
import { cartLine, cartQuantities, seedCart } from '@/test/cart-fixtures';
import { renderScreen, settle } from '@/test/render-screen';
import { CartWidget, cartWidgetPopover } from './cart-widget';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  resetCartStore();
});

const trigger = () => screen.queryByRole('button', { name: /^Shopping Cart/ });
const popoverTitle = () => screen.queryByRole('heading', { name: 'Shopping Cart' });

async function openWidget() {
  await act(async () => {
    fireEvent.click(trigger() as HTMLElement);
    // The popover's code is fetched on first use; the press opens it when it arrives.
    await cartWidgetPopover.preload();
  });
  expect(popoverTitle()).not.toBeNull();
}

async function click(name: string | RegExp) {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
}

describe('Cart widget (spec/001 §2)', () => {
  it('is not shown while the cart is empty', async () => {
    await renderScreen(<CartWidget />);
    expect(trigger()).toBeNull();
  });

  it('lists the lines with a total and a link to the cart page in a 300px scroll area', async () => {
    seedCart([cartLine('Nao', 2, 12_000), cartLine('Pepper', 1, 5_000)]);
    await renderScreen(<CartWidget />);
    expect(trigger()?.getAttribute('aria-label')).toBe('Shopping Cart, 3 items');
    await openWidget();
    expect(screen.getByTestId('cart-widget-scroll').style.maxHeight).toBe('300px');
    expect(screen.getByText('£290.00')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Checkout' }).getAttribute('href')).toBe('/dashboard/cart');
    await click('Increase quantity of Pepper');
    await click('Decrease quantity of Nao');
    expect(cartQuantities()).toEqual([
      ['Nao', 1],
      ['Pepper', 2],
    ]);
  });

  it('turns minus at quantity 1 into "Remove item", and a second click removes the line', async () => {
    seedCart([cartLine('Nao'), cartLine('Pepper')]);
    await renderScreen(<CartWidget />);
    await openWidget();
    await click('Decrease quantity of Nao');
    expect(cartQuantities()).toEqual([
      ['Nao', 1],
      ['Pepper', 1],
    ]);
    const remove = screen.getByRole('button', { name: 'Remove item: Nao' });
    expect(remove.textContent).toBe('Remove item');
    await click('Remove item: Nao');
    // Not the last line: removed at once, and the widget stays open.
    expect(cartQuantities()).toEqual([['Pepper', 1]]);
    expect(popoverTitle()).not.toBeNull();
  });

  it('a plus press disarms "Remove item"', async () => {
    seedCart([cartLine('Nao')]);
    await renderScreen(<CartWidget />);
    await openWidget();
    await click('Decrease quantity of Nao');
    await click('Increase quantity of Nao');
    expect(screen.queryByRole('button', { name: 'Remove item: Nao' })).toBeNull();
    await click('Decrease quantity of Nao');
    expect(cartQuantities()).toEqual([['Nao', 1]]);
    expect(screen.queryByRole('button', { name: 'Remove item: Nao' })).toBeNull();
  });

  it('closes 200 ms before the last line is removed', async () => {
    seedCart([cartLine('Nao')]);
    await renderScreen(<CartWidget />);
    await openWidget();
    await click('Decrease quantity of Nao');
    await click('Remove item: Nao');
    expect(popoverTitle()).toBeNull();
    expect(cartQuantities()).toEqual([['Nao', 1]]);
    expect(trigger()).not.toBeNull();
    await settle(199);
    expect(cartQuantities()).toEqual([['Nao', 1]]);
    await settle(1);
    expect(cartQuantities()).toEqual([]);
    expect(trigger()).toBeNull();
  });
});
