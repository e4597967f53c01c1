import { majorAmount, type PaymentPrice } from '@portal/contract';

/**
 * The plan cards of the Subscription Manager (spec/001 §2 and §9): which price is monthly and which
 * yearly, the billing toggle, the amounts shown and the button each card offers.
 */

type PriceLike = Pick<PaymentPrice, 'unit_amount' | 'currency'> & Partial<Pick<PaymentPrice, 'recurring'>>;

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

export type PlanButtonKind = 'current' | 'unavailable' | 'upgrade';

export const PLAN_BUTTON_LABELS: Record<PlanButtonKind, string> = {
  current: 'Current Plan',
  unavailable: 'Unavailable',
  upgrade: 'Upgrade Now',
};

export interface PlanButtonState {
  kind: PlanButtonKind;
  label: string;
  /** only an upgrade can be clicked */
  disabled: boolean;
}

/** The plan card button by tier index (the contract's tierIndex) against the current tier's index. */
export function planButtonState(planIndex: number, currentIndex: number): PlanButtonState {
  const kind: PlanButtonKind =
    planIndex === currentIndex ? 'current' : planIndex < currentIndex ? 'unavailable' : 'upgrade';
  return { kind, label: PLAN_BUTTON_LABELS[kind], disabled: kind !== 'upgrade' };
}
