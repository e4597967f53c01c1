import {
  DEFAULT_CURRENCY,
  displayModel,
  type PaymentPrice,
  type PaymentProduct,
  ProductSorting,
} from '@portal/contract';
import { robotImage } from '@/lib/robot-models';
import type { MakeAndModel } from './add-robot-catalogue';

/** Add Robot's cards (spec/001 §2) from the catalogue's driver products. */

export interface AddRobotItem extends MakeAndModel {
  product: PaymentProduct;
  /** the model as shown (Tiago_Steel shows as Tiago) */
  modelLabel: string;
  /** the version shown beside the model (Steel), when the model has one */
  variant?: string;
  image: string;
  /** the price the button shows and the cart takes; none means the button reports the spec's error */
  price?: PaymentPrice;
}

/** The price a card offers, chosen as the cart chooses it: the product's selected price, else GBP, else the first. */
export function offeredPrice(product: Pick<PaymentProduct, 'prices' | 'selected_price_id'>): PaymentPrice | undefined {
  return (
    product.prices.find((p) => p.id === product.selected_price_id) ??
    product.prices.find((p) => p.currency === DEFAULT_CURRENCY) ??
    product.prices[0]
  );
}

/**
 * The driver products as Add Robot items. A driver product names the model it drives in its
 * `model` metadata ("Pepper driver" drives Pepper); a product without one is taken to be named
 * after its model, as the flexible-license cards read it. The make is its `manufacturer` metadata.
 * Time packages and plans are not robots, so anything not marked `driver` is left out.
 */
export function addRobotItems(products: readonly PaymentProduct[]): AddRobotItem[] {
  return products
    .filter((p) => p.metadata.BOW_SORTING === ProductSorting.Driver)
    .map((p) => {
      const model = (p.metadata.model?.trim() || p.name).trim();
      const shown = displayModel(model);
      return {
        product: p,
        model,
        make: p.metadata.manufacturer?.trim() ?? '',
        modelLabel: shown.model,
        variant: shown.version,
        image: robotImage(model),
        price: offeredPrice(p),
      };
    });
}
