import type { CartItem } from '@portal/contract';
import { CART_STORAGE_KEY, readCart, resetCartStore } from '@/lib/cart-store';

/** A cart line priced in GBP (minor units). */
export function cartLine(id: string, quantity = 1, amount = 12_000): CartItem {
  return {
    id,
    name: id,
    description: `${id} driver licence`,
    prices: [{ id: `price_${id}`, currency: 'gbp', unit_amount: amount, type: 'one_time' }],
    selected_price_id: `price_${id}`,
    selected_price_unit_amount: amount,
    quantity,
  };
}

/** Puts a cart in storage, as a returning visitor would have it, and makes the store read it. */
export function seedCart(items: CartItem[]): void {
  localStorage.setItem(CART_STORAGE_KEY, JSON.stringify(items));
  resetCartStore();
}

export const cartQuantities = () => readCart().map((i) => [i.id, i.quantity]);
