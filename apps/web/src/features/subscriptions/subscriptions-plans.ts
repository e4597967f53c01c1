import { formatPrice, type PaymentPrice, type PaymentProduct, ProductSorting, tierIndex } from '@portal/contract';

/**
 * The plan cards of the Subscription Manager (spec/001 §2 and §9): which price is monthly and which
 * yearly, the billing toggle, the amounts shown and the button each card offers.
 */

type PriceLike = Pick<PaymentPrice, 'unit_amount' | 'currency'> & Partial<Pick<PaymentPrice, 'recurring'>>;

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

// ---- the cards ------------------------------------------------------------------------------

export const PLAN_TEXT = {
  mostPopular: 'Most Popular',
  proIntro: 'Everything in standard, plus...',
  otherIntro: 'Includes the following...',
  monthly: 'Monthly',
  annually: 'Annually',
  perUserPerMonth: 'per user per month',
} as const;

type PlanProduct = Pick<PaymentProduct, 'id' | 'name' | 'description' | 'metadata' | 'prices'>;

export interface PlanCardModel<P extends PlanProduct = PlanProduct> {
  product: P;
  /** GBP prices only */
  prices: PaymentPrice[];
  /** Lite 0, Standard 1, Pro 2; -1 for a plan that names no tier */
  tierIndex: number;
  popular: boolean;
  intro: string;
  features: string[];
  billing: { hasToggle: boolean; initial: Billing };
}

/** BOW_FEATURES: semicolon-separated, blanks dropped. */
export function planFeatures(metadata: { BOW_FEATURES?: string | undefined } | undefined): string[] {
  return (metadata?.BOW_FEATURES ?? '')
    .split(';')
    .map((f) => f.trim())
    .filter(Boolean);
}

/** The tier a plan sells: its BOW_TIER metadata when set, else its name ("Pro Subscription"). */
export function planTierIndex(plan: Pick<PaymentProduct, 'name' | 'metadata'>): number {
  const byMeta = tierIndex(plan.metadata?.BOW_TIER);
  return byMeta >= 0 ? byMeta : tierIndex(plan.name);
}

/**
 * The plan cards of the Subscription Manager: the catalogue's subscription products with their GBP
 * prices, sorted by the first price; Standard is "Most Popular"; Pro builds on Standard.
 */
export function planCards<P extends PlanProduct>(products: readonly P[]): PlanCardModel<P>[] {
  const plans = products
    .filter((p) => p.metadata?.BOW_SORTING === ProductSorting.Subscription)
    .map((product) => ({ product, prices: gbpOnly(product.prices) }));
  return sortPlansByFirstPrice(plans).map(({ product, prices }) => {
    const index = planTierIndex(product);
    return {
      product,
      prices,
      tierIndex: index,
      popular: index === 1,
      intro: index === 2 ? PLAN_TEXT.proIntro : PLAN_TEXT.otherIntro,
      features: planFeatures(product.metadata),
      billing: planBilling(product.name),
    };
  });
}

export interface PlanPriceView<P> {
  /** the price a click buys; undefined when the plan has none */
  price: P | undefined;
  /** "£150.00", "£15.00" or "£0" (a zero price shows 0) */
  amount: string;
  /** "/year" or "/month" */
  period: '/year' | '/month';
  /** an annual price's monthly equivalent: "£12.50" (yearly / 12, two decimals) */
  monthlyEquivalent?: string;
}

/**
 * What a card shows for the chosen billing: the yearly total and its monthly equivalent per user
 * per month, or the monthly price. A plan without the chosen kind of price shows the other.
 */
export function planPriceView<P extends PriceLike>(prices: readonly P[], billing: Billing): PlanPriceView<P> {
  const { monthly, yearly } = pairPlanPrices(prices);
  const annual = billing === 'annually' ? yearly : monthly ? undefined : yearly;
  if (annual) {
    return {
      price: annual,
      amount: formatPrice(annual.unit_amount, annual.currency),
      period: '/year',
      monthlyEquivalent: formatPrice(annual.unit_amount / 12, annual.currency),
    };
  }
  return {
    price: monthly,
    amount: formatPrice(monthly?.unit_amount ?? 0, monthly?.currency),
    period: '/month',
  };
}

/** A cart holds one plan (issue 31): what the customer is told when a plan replaces the cart's other plan. */
export function planReplacedNotice(replaced: string, by: string): string {
  return `${by} replaced ${replaced} in your cart: a cart holds one plan.`;
}
