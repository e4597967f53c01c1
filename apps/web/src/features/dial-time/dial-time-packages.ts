import {
  type CartItem,
  DEFAULT_CURRENCY,
  formatPrice,
  type PaymentPrice,
  type PaymentProduct,
  ProductPricing,
  type TierShort,
  timePackagePrice,
} from '@portal/contract';
import { itemsLabel } from '@/lib/cart';

/**
 * The time-purchase widget of the dial panel (spec/001 §2 "Buy More Time", §9): the catalogue's
 * dial-time packages at the price of the user's tier. The server charges the same rule again.
 */

export const BUY_TIME_TEXT = {
  button: 'Buy More Time',
  title: 'Buy More Time',
  description: 'Choose a dial time package. Bought minutes never expire and are used after your yearly allowance.',
  goToCheckout: 'Go to Checkout',
  loading: 'Loading products...',
  tierUnknown: 'Error: Unable to determine subscription tier.',
  proCannotBuy: 'Pro subscribers have infinite dial time and cannot buy more.',
  none: 'No dial time packages are available right now.',
} as const;

/** Said in the dialog when the cart holds items, with the cart page's count wording ("2 Items"). */
export function cartReplacedText(count: number): string {
  return `Your cart's ${count} ${itemsLabel(count)} will be replaced by this package`;
}

/** The metadata key of a package's minutes (the server reads the same key to credit them). */
export const MINUTES_KEY = 'BOW_MINUTES';

export interface TimePackage {
  product: PaymentProduct;
  price: PaymentPrice;
  /** 0 when the package does not say */
  minutes: number;
  /** "£12.00" */
  priceText: string;
}

/**
 * Packages (BOW_PRICING "onetime") at the tier's price of the default currency, fewest minutes
 * first; a package without such a price is left out.
 */
export function timePackages(products: readonly PaymentProduct[], tier: TierShort): TimePackage[] {
  return products
    .filter((p) => p.metadata?.BOW_PRICING === ProductPricing.OneTime)
    .flatMap((product) => {
      const price = timePackagePrice(
        product.prices.filter((p) => p.currency === DEFAULT_CURRENCY),
        tier,
      );
      if (!price) return [];
      const minutes = Number.parseInt(product.metadata?.[MINUTES_KEY] ?? '', 10);
      return [
        {
          product,
          price,
          minutes: Number.isFinite(minutes) && minutes > 0 ? minutes : 0,
          priceText: formatPrice(price.unit_amount, price.currency),
        },
      ];
    })
    .sort((a, b) => a.minutes - b.minutes);
}

/** The one line the cart becomes: the package at the shown price, quantity 1. */
export function timePackageCartItem(pkg: TimePackage): CartItem {
  return {
    id: pkg.product.id,
    name: pkg.product.name,
    description: pkg.product.description,
    prices: pkg.product.prices,
    selected_price_id: pkg.price.id,
    selected_price_unit_amount: pkg.price.unit_amount,
    quantity: 1,
  };
}
