import type { CartItem, Purchase } from '@portal/contract';
import { lineCurrency } from '@/lib/cart';

/** A line of the Payment Successful page: name, quantity, unit price (minor units) and currency. */
export interface PurchasedLine {
  key: string;
  name: string;
  quantity: number;
  unitAmount: number;
  currency: string;
}

/**
 * What the success page lists: the server's lines when it has them (the webhook may not have run
 * yet, so it can answer none), else the cart as it was when the browser came back.
 */
export function purchasedLines(purchase: Purchase | undefined, cart: readonly CartItem[]): PurchasedLine[] {
  if (purchase && purchase.lines.length > 0)
    return purchase.lines.map((l, i) => ({
      key: `${l.product_id}-${i}`,
      name: l.name,
      quantity: l.quantity,
      unitAmount: l.unit_amount,
      currency: purchase.currency,
    }));
  return cart.map((item) => ({
    key: item.id,
    name: item.name,
    quantity: item.quantity,
    unitAmount: item.selected_price_unit_amount,
    currency: lineCurrency(item),
  }));
}
