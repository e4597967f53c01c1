import {
  type CartItem,
  type CheckoutLine,
  DEFAULT_CURRENCY,
  MAX_LINE_QUANTITY,
  type PaymentProduct,
} from '@portal/contract';

/**
 * The browser-side cart of spec/001 §2 and §4. Amounts are minor units. It lives in lib/ because
 * Add Robot, Buy More Time, the sidebar's cart widget and the cart page all change or show it.
 */

export type CartAction =
  | { type: 'add'; item: CartItem }
  | { type: 'remove'; id: string }
  | { type: 'clear' }
  /** the Buy More Time flow: the cart becomes exactly these items */
  | { type: 'replace'; items: CartItem[] }
  | { type: 'changeQuantity'; id: string; delta: number }
  | { type: 'setQuantity'; id: string; quantity: number };

/**
 * A line's quantity is a whole number from 1 to MAX_LINE_QUANTITY: removing a line is its own
 * action (the minus button turns into "Remove item" at 1), so no change takes a line below 1.
 */
export function clampQuantity(quantity: number): number {
  if (!Number.isFinite(quantity)) return 1;
  return Math.min(MAX_LINE_QUANTITY, Math.max(1, Math.trunc(quantity)));
}

/** A line's quantity within its limits: a plan's is always 1 (plans are sold one at a time). */
export function lineQuantity(item: Pick<CartItem, 'plan'>, quantity: number): number {
  return item.plan ? 1 : clampQuantity(quantity);
}

/** At most one plan: the last one stays (a cart saved before the rule, or another tab's). */
export function onePlan(items: CartItem[]): CartItem[] {
  const last = items.findLast((i) => i.plan);
  return items.filter((i) => !i.plan || i === last);
}

/** The plan in the cart that adding `item` would replace (another plan), if any: the customer is told. */
export function planReplacedBy(items: readonly CartItem[], item: Pick<CartItem, 'id' | 'plan'>): CartItem | undefined {
  return item.plan ? items.find((i) => i.plan && i.id !== item.id) : undefined;
}

/** Whether a catalogue product is a plan (a subscription with a tier): sold one at a time. */
export function isPlanProduct(product: { metadata?: Record<string, string> | undefined }): boolean {
  return product.metadata?.BOW_SORTING === 'subscription' && Boolean(product.metadata.BOW_TIER);
}

/** Add merges by id, adding quantities (a plan replaces the cart's other plan, quantity 1); remove, clear, change quantity by a delta, set quantity. */
export function cartReducer(state: readonly CartItem[], action: CartAction): CartItem[] {
  switch (action.type) {
    case 'add': {
      // A plan is sold one at a time: quantity 1, and it replaces any other plan in the cart.
      if (action.item.plan) return [...state.filter((i) => !i.plan), { ...action.item, quantity: 1 }];
      const existing = state.find((i) => i.id === action.item.id);
      if (!existing) return [...state, { ...action.item, quantity: clampQuantity(action.item.quantity) }];
      return state.map((i) =>
        i.id === action.item.id ? { ...i, quantity: clampQuantity(i.quantity + action.item.quantity) } : i,
      );
    }
    case 'remove':
      return state.filter((i) => i.id !== action.id);
    case 'clear':
      return [];
    case 'replace':
      return onePlan(action.items.map((i) => ({ ...i, quantity: lineQuantity(i, i.quantity) })));
    case 'changeQuantity':
      return state.map((i) =>
        i.id === action.id ? { ...i, quantity: lineQuantity(i, i.quantity + action.delta) } : i,
      );
    case 'setQuantity':
      return state.map((i) => (i.id === action.id ? { ...i, quantity: lineQuantity(i, action.quantity) } : i));
  }
}

/** A line's total: unit price times quantity. */
export function lineTotal(item: Pick<CartItem, 'selected_price_unit_amount' | 'quantity'>): number {
  return item.selected_price_unit_amount * item.quantity;
}

/** The currency a line is priced in: its selected price's, else the default (GBP). */
export function lineCurrency(item: Pick<CartItem, 'prices' | 'selected_price_id'>): string {
  return item.prices.find((p) => p.id === item.selected_price_id)?.currency ?? DEFAULT_CURRENCY;
}

/** The currency a cart's total is shown in: its first line's (checkout refuses a cart of mixed currencies). */
export function cartCurrency(items: readonly Pick<CartItem, 'prices' | 'selected_price_id'>[]): string {
  return items[0] ? lineCurrency(items[0]) : DEFAULT_CURRENCY;
}

/** The cart's total cost in minor units. */
export function cartTotal(items: readonly Pick<CartItem, 'selected_price_unit_amount' | 'quantity'>[]): number {
  return items.reduce((sum, i) => sum + lineTotal(i), 0);
}

/** How many items the cart holds: the sum of the lines' quantities. */
export function cartItemCount(items: readonly Pick<CartItem, 'quantity'>[]): number {
  return items.reduce((sum, i) => sum + i.quantity, 0);
}

/** "Item" for one, "Items" otherwise. */
export function itemsLabel(count: number): 'Item' | 'Items' {
  return count === 1 ? 'Item' : 'Items';
}

/** The quantity box accepts digits only: anything else typed is dropped. */
export function digitsOnly(text: string): string {
  return text.replace(/\D/g, '');
}

/**
 * On blur or Enter: a non-numeric value reverts to the previous quantity; otherwise the quantity
 * is set (within the line's limits).
 */
export function commitQuantityInput(text: string, previous: number): number {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return previous;
  return clampQuantity(Number.parseInt(trimmed, 10));
}

/** The minus button becomes a remove button at quantity 1 or less. */
export function minusRemoves(quantity: number): boolean {
  return quantity <= 1;
}

export const NO_VALID_PRICE = 'Could not find a valid price for this item.';

export type ToCartItemResult = { ok: true; item: CartItem } | { ok: false; error: typeof NO_VALID_PRICE };

/**
 * A cart line for a product: its selected price if it names one that exists, else its first GBP
 * price, else its first price. No price gives the spec's error. The amount kept here is only shown:
 * the server prices every line again from its catalogue.
 */
export function toCartItem(
  product: Pick<PaymentProduct, 'id' | 'name' | 'description' | 'prices' | 'selected_price_id'> &
    Partial<Pick<PaymentProduct, 'metadata'>>,
  quantity = 1,
): ToCartItemResult {
  const plan = isPlanProduct(product);
  const price =
    product.prices.find((p) => p.id === product.selected_price_id) ??
    product.prices.find((p) => p.currency === DEFAULT_CURRENCY) ??
    product.prices[0];
  if (!price) return { ok: false, error: NO_VALID_PRICE };
  return {
    ok: true,
    item: {
      id: product.id,
      name: product.name,
      description: product.description,
      prices: product.prices,
      selected_price_id: price.id,
      selected_price_unit_amount: price.unit_amount,
      quantity: plan ? 1 : clampQuantity(quantity),
      ...(plan ? { plan: true } : {}),
    },
  };
}

/** The lines HandlePurchase sends: product id, chosen price and quantity, never an amount. */
export function checkoutLines(items: readonly CartItem[]): CheckoutLine[] {
  return items.map((i) => ({ id: i.id, selected_price_id: i.selected_price_id, quantity: i.quantity }));
}
