import { DEFAULT_CURRENCY, type TierShort } from '../constants.ts';
import type { PaymentPrice } from '../payment.ts';

/**
 * Money of spec/001 §9. These rules are shared because both sides need them: the server's own
 * checkout page, receipts and mails must write amounts as the web app does, and checkout must charge
 * a time package at the price the screen showed for the caller's tier.
 *
 * Amounts are in minor units of their currency, as the payment provider counts them: pence and
 * cents (divided by 100 for display, as the spec says), whole yen for JPY, fils for KWD. How many
 * minor units make one major unit is the currency's exponent, which Intl knows
 * (docs/decisions/056).
 */

type PriceLike = Pick<PaymentPrice, 'unit_amount' | 'currency'> & Partial<Pick<PaymentPrice, 'recurring'>>;

const formatters = new Map<string, Intl.NumberFormat>();

/** en-GB with the currency's narrow symbol: £ for GBP, $ for USD, € for EUR, ¥ for JPY. */
function formatterOf(currency: string | null | undefined): Intl.NumberFormat {
  const code = (currency || DEFAULT_CURRENCY).toUpperCase();
  let formatter = formatters.get(code);
  if (!formatter) {
    // Throws a RangeError for a code that is not three letters; an unknown one is written as its code.
    formatter = new Intl.NumberFormat('en-GB', { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' });
    formatters.set(code, formatter);
  }
  return formatter;
}

/** How many minor units make one major unit: 100 for GBP, USD and EUR, 1 for JPY, 1000 for KWD. */
export function minorUnitsPerMajor(currency: string | null | undefined = DEFAULT_CURRENCY): number {
  return 10 ** (formatterOf(currency).resolvedOptions().maximumFractionDigits ?? 2);
}

/**
 * An amount in minor units as the screens, mails and receipts write it: "£19.99" for 1999 gbp,
 * "$5.00" for 500 usd, "€1,000.50" for 100050 eur, "¥500" for 500 jpy. A zero amount shows 0: "£0".
 * A fraction of a minor unit (a yearly price's monthly share) is rounded to the currency's digits.
 */
export function formatPrice(unitAmount: number, currency: string | null | undefined = DEFAULT_CURRENCY): string {
  const formatter = formatterOf(currency);
  if (unitAmount === 0) {
    return formatter
      .formatToParts(0)
      .filter((part) => part.type !== 'decimal' && part.type !== 'fraction')
      .map((part) => part.value)
      .join('');
  }
  return formatter.format(unitAmount / minorUnitsPerMajor(currency));
}

/** A yearly price: "£120.00/year". */
export function formatYearlyPrice(unitAmount: number, currency: string | null | undefined = DEFAULT_CURRENCY): string {
  return `${formatPrice(unitAmount, currency)}/year`;
}

/** A price as a product card shows it: "/year" after a yearly recurring price, nothing after any other. */
export function formatPriceLabel(price: PriceLike): string {
  return price.recurring?.interval === 'year'
    ? formatYearlyPrice(price.unit_amount, price.currency)
    : formatPrice(price.unit_amount, price.currency);
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
