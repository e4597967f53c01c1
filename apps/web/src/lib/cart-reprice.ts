import { type CartItem, formatPrice, type PaymentPrice, type PaymentProduct, robotDisplayName } from '@portal/contract';
import { isPlanProduct } from './cart';

/*
 * A cart is kept in the browser for as long as the customer likes (spec/001 §3), but the catalogue
 * moves on: `catalogue:push` archives a replaced price (docs/decisions/063), and GetProducts no longer
 * lists it. A line saved on such a price is re-priced when the cart loads, to the product's current
 * price of the same interval, and the customer is told, so the amount paid is never a surprise.
 */

/** What happened to one line when the cart met the current catalogue. */
export type CartChange =
  | { kind: 'repriced'; id: string; name: string; from: string; to: string }
  | { kind: 'removed'; id: string; name: string };

const sameShape = (a: PaymentPrice, b: PaymentPrice) =>
  (a.recurring?.interval ?? null) === (b.recurring?.interval ?? null) &&
  (a.recurring?.interval_count ?? 1) === (b.recurring?.interval_count ?? 1);

/**
 * The price a line moves to when its own is no longer sold: the product's price of the same interval
 * and currency, else of the same interval, else of the same currency, else its first.
 */
export function replacementPrice(
  old: PaymentPrice | undefined,
  prices: readonly PaymentPrice[],
): PaymentPrice | undefined {
  if (!old) return prices[0];
  return (
    prices.find((p) => sameShape(p, old) && p.currency === old.currency) ??
    prices.find((p) => sameShape(p, old)) ??
    prices.find((p) => p.currency === old.currency) ??
    prices[0]
  );
}

const per = (p: PaymentPrice | undefined) => (p?.recurring ? ` a ${p.recurring.interval}` : '');

/**
 * The cart against the current catalogue: a line whose price is still sold takes its current amount;
 * a line whose price is gone moves to `replacementPrice`; a line whose product is gone (or has no
 * price left) is removed. Answers the new lines and what changed; no change answers the same array.
 */
export function repriceCart(
  items: readonly CartItem[],
  products: readonly (Pick<PaymentProduct, 'id' | 'prices'> & Partial<Pick<PaymentProduct, 'metadata'>>)[],
): { items: readonly CartItem[]; changes: CartChange[] } {
  const changes: CartChange[] = [];
  const next: CartItem[] = [];
  let altered = false;
  for (const item of items) {
    const name = robotDisplayName(item.name);
    const product = products.find((p) => p.id === item.id);
    const saved = item.prices.find((p) => p.id === item.selected_price_id);
    const still = product?.prices.find((p) => p.id === item.selected_price_id);
    const price = still ?? replacementPrice(saved, product?.prices ?? []);
    if (!product || !price) {
      changes.push({ kind: 'removed', id: item.id, name });
      continue;
    }
    // A plan saved before lines said so (issue 31: a plan is sold one at a time) becomes a plan line.
    const plan = !item.plan && isPlanProduct(product);
    altered ||= plan;
    if (price.id !== item.selected_price_id || price.unit_amount !== item.selected_price_unit_amount)
      changes.push({
        kind: 'repriced',
        id: item.id,
        name,
        from: `${formatPrice(item.selected_price_unit_amount, saved?.currency)}${per(saved)}`,
        to: `${formatPrice(price.unit_amount, price.currency)}${per(price)}`,
      });
    next.push({
      ...item,
      prices: product.prices,
      selected_price_id: price.id,
      selected_price_unit_amount: price.unit_amount,
      ...(plan ? { plan: true, quantity: 1 } : {}),
    });
  }
  return changes.length || altered ? { items: next, changes } : { items, changes };
}

/** The notice's words for one change. */
export function cartChangeText(change: CartChange): string {
  return change.kind === 'repriced'
    ? `The price of ${change.name} has changed from ${change.from} to ${change.to}.`
    : `${change.name} is no longer sold and was removed from your cart.`;
}
