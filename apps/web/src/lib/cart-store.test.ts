import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { cartLine } from '@/test/cart-fixtures';
import {
  CART_STORAGE_KEY,
  CHECKOUT_SESSION_STORAGE_KEY,
  clearCheckoutSession,
  dispatchCart,
  parseStoredCart,
  readCart,
  readCheckoutSession,
  resetCartStore,
  storeCheckoutSession,
  useCart,
} from './cart-store';

afterEach(() => resetCartStore());

const good = cartLine('Nao', 2);

describe('parseStoredCart', () => {
  it.each<[string, string | null, string[]]>([
    ['nothing stored', null, []],
    ['not JSON', '{oops', []],
    ['not a list', '{"id":"x"}', []],
    ['a good cart', JSON.stringify([good]), ['Nao']],
    ['a line of an older shape is dropped, the rest kept', JSON.stringify([{ id: 'old' }, good]), ['Nao']],
    ['a line with a quantity of 0 is dropped', JSON.stringify([{ ...good, quantity: 0 }]), []],
  ])('%s', (_, text, ids) => {
    expect(parseStoredCart(text).map((i) => i.id)).toEqual(ids);
  });
});

describe('cart store', () => {
  it("persists every change under 'cart', merging by id, and forgets the key when empty", () => {
    dispatchCart({ type: 'add', item: cartLine('Nao') });
    dispatchCart({ type: 'add', item: cartLine('Nao', 2) });
    expect(JSON.parse(localStorage.getItem(CART_STORAGE_KEY) ?? '[]')).toMatchObject([{ id: 'Nao', quantity: 3 }]);
    resetCartStore();
    expect(readCart().map((i) => [i.id, i.quantity])).toEqual([['Nao', 3]]);
    dispatchCart({ type: 'clear' });
    expect(localStorage.getItem(CART_STORAGE_KEY)).toBeNull();
  });

  it('follows a change made in another tab', () => {
    const { result } = renderHook(() => useCart());
    expect(result.current).toEqual([]);
    localStorage.setItem(CART_STORAGE_KEY, JSON.stringify([good]));
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: CART_STORAGE_KEY }));
    });
    expect(result.current.map((i) => i.id)).toEqual(['Nao']);
  });

  it('keeps the checkout address until it is cleared', () => {
    storeCheckoutSession('https://checkout.example.test/cs_1');
    expect(readCheckoutSession()).toBe('https://checkout.example.test/cs_1');
    expect(localStorage.getItem(CHECKOUT_SESSION_STORAGE_KEY)).toBe('https://checkout.example.test/cs_1');
    clearCheckoutSession();
    expect(readCheckoutSession()).toBeNull();
  });
});
