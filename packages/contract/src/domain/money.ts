import { DEFAULT_CURRENCY, type TierShort } from '../constants.ts';
import type { PaymentPrice } from '../payment.ts';

/**
 * Money of spec/001 §9. These rules are shared because both sides need them: the server's own
 * checkout page and receipts must write amounts as the web app does, and checkout must charge a
 * time package at the price the screen showed for the caller's tier. Amounts are in minor units.
 */

type PriceLike = Pick<PaymentPrice, 'unit_amount' | 'currency'> & Partial<Pick<PaymentPrice, 'recurring'>>;

const CURRENCY_SYMBOLS: Record<string, string> = { gbp: '£', usd: '$' };

/** £ for gbp (the default), $ for usd; any other code is shown as its upper-case code. */
export function currencySymbol(currency: string | null | undefined): string {
  const code = (currency ?? DEFAULT_CURRENCY).toLowerCase();
  return CURRENCY_SYMBOLS[code] ?? `${code.toUpperCase()} `;
}

/** Minor units as a two-decimal major amount, without float rounding: 1999 -> "19.99". */
export function majorAmount(unitAmount: number): string {
  const sign = unitAmount < 0 ? '-' : '';
  const abs = Math.abs(Math.round(unitAmount));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "£19.99" for 1999 gbp; "$5.00" for 500 usd. */
export function formatPrice(unitAmount: number, currency: string | null | undefined = DEFAULT_CURRENCY): string {
  return `${currencySymbol(currency)}${majorAmount(unitAmount)}`;
}

/** A yearly price: "£120.00/year". */
export function formatYearlyPrice(unitAmount: number, currency: string | null | undefined = DEFAULT_CURRENCY): string {
  return `${formatPrice(unitAmount, currency)}/year`;
}

/** The time-package price: the lowest for Standard and Pro users, the highest for Lite. */
export function timePackagePrice<P extends PriceLike>(prices: readonly P[], tier: TierShort): P | undefined {
  if (prices.length === 0) return undefined;
  const pick =
    tier === 'Lite'
      ? (a: P, b: P) => (b.unit_amount > a.unit_amount ? b : a)
      : (a: P, b: P) => (b.unit_amount < a.unit_amount ? b : a);
  return prices.reduce(pick);
}
