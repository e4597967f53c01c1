import type { TierShort } from '../constants.ts';
import type { PaymentPrice } from '../payment.ts';

/** Money display of spec/001 §2 and §9. Amounts are integers in minor units. */

type PriceLike = Pick<PaymentPrice, 'unit_amount' | 'currency'> & Partial<Pick<PaymentPrice, 'recurring'>>;

export const CURRENCY_SYMBOLS: Record<string, string> = { gbp: '£', usd: '$' };

/** £ for gbp (the default), $ for usd; any other code is shown as its upper-case code. */
export function currencySymbol(currency: string | null | undefined): string {
  const code = (currency ?? 'gbp').toLowerCase();
  return CURRENCY_SYMBOLS[code] ?? `${code.toUpperCase()} `;
}

/** Minor units as a two-decimal major amount, without float rounding: 1999 -> "19.99". */
export function majorAmount(unitAmount: number): string {
  const sign = unitAmount < 0 ? '-' : '';
  const abs = Math.abs(Math.round(unitAmount));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "£19.99" for 1999 gbp; "$5.00" for 500 usd. */
export function formatPrice(unitAmount: number, currency: string | null | undefined = 'gbp'): string {
  return `${currencySymbol(currency)}${majorAmount(unitAmount)}`;
}

export const YEARLY_SUFFIX = '/year';

/** A yearly price: "£120.00/year". */
export function formatYearlyPrice(unitAmount: number, currency: string | null | undefined = 'gbp'): string {
  return `${formatPrice(unitAmount, currency)}${YEARLY_SUFFIX}`;
}

/** Monthly equivalent of a yearly price: yearly / 12 with two decimals; a zero price shows 0. */
export function monthlyEquivalent(yearlyUnitAmount: number): string {
  if (yearlyUnitAmount === 0) return '0';
  return (yearlyUnitAmount / 100 / 12).toFixed(2);
}

/** A plan card amount: two decimals, but a zero price shows 0. */
export function planAmount(unitAmount: number): string {
  return unitAmount === 0 ? '0' : majorAmount(unitAmount);
}

export interface PlanPrices<P> {
  monthly?: P;
  yearly?: P;
}

/**
 * Monthly and yearly price of a plan. With two (or more) prices the cheaper is the monthly one and
 * the dearer the yearly one. A single price goes by its recurring interval: monthly if it recurs
 * by the month, else yearly.
 */
export function pairPlanPrices<P extends PriceLike>(prices: readonly P[]): PlanPrices<P> {
  if (prices.length === 0) return {};
  if (prices.length === 1) {
    const only = prices[0]!;
    return only.recurring?.interval === 'month' ? { monthly: only } : { yearly: only };
  }
  const sorted = [...prices].sort((a, b) => a.unit_amount - b.unit_amount);
  return { monthly: sorted[0], yearly: sorted[sorted.length - 1] };
}

export type Billing = 'monthly' | 'annually';

/** Every plan defaults to Annually and has the toggle, except the "lite subscription" plan. */
export function planBilling(planName: string): { hasToggle: boolean; initial: Billing } {
  const lite = planName.trim().toLowerCase() === 'lite subscription';
  return { hasToggle: !lite, initial: 'annually' };
}

/** The time-package price shown: the lowest for Standard and Pro users, the highest for Lite. */
export function timePackagePrice<P extends PriceLike>(prices: readonly P[], tier: TierShort): P | undefined {
  if (prices.length === 0) return undefined;
  const pick =
    tier === 'Lite'
      ? (a: P, b: P) => (b.unit_amount > a.unit_amount ? b : a)
      : (a: P, b: P) => (b.unit_amount < a.unit_amount ? b : a);
  return prices.reduce(pick);
}

/** Plan cards use only GBP prices. */
export function gbpOnly<P extends Pick<PaymentPrice, 'currency'>>(prices: readonly P[]): P[] {
  return prices.filter((p) => p.currency.toLowerCase() === 'gbp');
}

/**
 * Plans sorted by their first price's unit amount, ascending; plans without a price go last.
 * Stable and does not change its input.
 */
export function sortPlansByFirstPrice<T extends { prices: readonly Pick<PaymentPrice, 'unit_amount'>[] }>(
  plans: readonly T[],
): T[] {
  const key = (p: T) => p.prices[0]?.unit_amount ?? Number.POSITIVE_INFINITY;
  return [...plans].sort((a, b) => key(a) - key(b));
}
