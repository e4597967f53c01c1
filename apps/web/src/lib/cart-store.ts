import { type CartItem, cartItem } from '@portal/contract';
import * as React from 'react';
import * as z from 'zod/mini';
import { type CartAction, cartReducer, onePlan } from './cart';
import type { CartChange } from './cart-reprice';
import { readLocal, removeLocal, writeLocal } from './safe-storage';

/*
 * The one cart of the signed-in area (spec/001 §3: "The cart is persisted locally"). A module-level
 * store rather than a context: Add Robot, the sidebar's cart widget, the cart page and the payment
 * pages sit in different features and in the shell, and none of them should need a provider above
 * the others. Other tabs follow through the storage event, so two tabs never sell different carts.
 */

export const CART_STORAGE_KEY = 'cart';
/** The checkout address of spec/001 §4, kept until the success or cancel page clears it. */
export const CHECKOUT_SESSION_STORAGE_KEY = 'checkoutSessionUrl';

const storedCart = z.array(z.unknown());

/** A stored cart is trusted line by line: a line that no longer parses (an older shape) is dropped, not the cart. */
export function parseStoredCart(text: string | null): CartItem[] {
  if (!text) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return [];
  }
  const lines = storedCart.safeParse(raw);
  if (!lines.success) return [];
  // Plans are sold one at a time, whatever was saved: one plan, quantity 1.
  return onePlan(
    lines.data.flatMap((line) => {
      const parsed = cartItem.safeParse(line);
      return parsed.success ? [parsed.data.plan ? { ...parsed.data, quantity: 1 } : parsed.data] : [];
    }),
  );
}

const listeners = new Set<() => void>();
let items: CartItem[] | null = null;

function current(): CartItem[] {
  items ??= parseStoredCart(readLocal(CART_STORAGE_KEY));
  return items;
}

function emit(): void {
  for (const listener of listeners) listener();
}

/** Changes the cart with one of spec/001 §4's cart actions and saves it. */
export function dispatchCart(action: CartAction): void {
  const next = cartReducer(current(), action);
  items = next;
  if (next.length === 0) removeLocal(CART_STORAGE_KEY);
  else writeLocal(CART_STORAGE_KEY, JSON.stringify(next));
  emit();
}

export function readCart(): CartItem[] {
  return current();
}

function onStorage(event: StorageEvent): void {
  if (event.key !== CART_STORAGE_KEY && event.key !== null) return;
  items = parseStoredCart(readLocal(CART_STORAGE_KEY));
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}

/** The cart's lines; re-renders on every change, in this tab or another. */
export function useCart(): CartItem[] {
  return React.useSyncExternalStore(subscribe, current, current);
}

/** Forgets the in-memory copy so the next read comes from storage (tests clear storage between cases). */
export function resetCartStore(): void {
  items = null;
  changes = [];
  emit();
}

export function storeCheckoutSession(url: string): void {
  writeLocal(CHECKOUT_SESSION_STORAGE_KEY, url);
}

export function readCheckoutSession(): string | null {
  return readLocal(CHECKOUT_SESSION_STORAGE_KEY);
}

export function clearCheckoutSession(): void {
  removeLocal(CHECKOUT_SESSION_STORAGE_KEY);
}

// ---- The cart against the current catalogue (docs/decisions/063) ----------------------------

let changes: readonly CartChange[] = [];

/**
 * Re-prices the stored cart with `reprice` (repriceCart in cart-reprice.ts, passed in so the shell's
 * bundle does not carry it): what changed is kept for the cart page's notice.
 */
export function repriceStoredCart(
  reprice: (items: readonly CartItem[]) => { items: readonly CartItem[]; changes: readonly CartChange[] },
): void {
  const before = current();
  const result = reprice(before);
  // The same array: nothing changed (a line marked a plan is a change without a notice).
  if (result.items === before) return;
  if (result.changes.length) changes = [...changes, ...result.changes];
  dispatchCart({ type: 'replace', items: [...result.items] });
}

const currentChanges = () => changes;

/** The re-pricing notices not yet dismissed; re-renders when they change. */
export function useCartChanges(): readonly CartChange[] {
  return React.useSyncExternalStore(subscribe, currentChanges, currentChanges);
}

export function dismissCartChanges(): void {
  changes = [];
  emit();
}
