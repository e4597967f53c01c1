import { type Purchase, robotDisplayName } from '@portal/contract';

/** A line of the Payment Successful page: name, quantity, unit price (minor units) and currency. */
export interface PurchasedLine {
  key: string;
  name: string;
  quantity: number;
  unitAmount: number;
  currency: string;
  /** a recurring line's interval ("year", "month"), shown as "/year" */
  interval?: string;
}

/**
 * What the success page lists: the server's lines only. The cart stored in the browser is never
 * shown in their place: it can differ from what was charged (a plan change's prorated amount), and
 * showing it first and then the server's answer made the receipt change under the reader's eyes.
 */
export function purchasedLines(purchase: Purchase): PurchasedLine[] {
  return purchase.lines.map((l, i) => ({
    key: `${l.product_id}-${i}`,
    name: robotDisplayName(l.name),
    quantity: l.quantity,
    unitAmount: l.unit_amount,
    currency: purchase.currency,
    ...(l.interval ? { interval: l.interval } : {}),
  }));
}
