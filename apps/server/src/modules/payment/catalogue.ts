import {
  type PaymentPrice,
  type PaymentProduct,
  ProductPricing,
  ProductSorting,
  paymentPrice,
  paymentProduct,
} from '@portal/contract';
import * as z from 'zod/mini';
import catalogueFile from './catalogue.json' with { type: 'json' };

/**
 * The sandbox's catalogue (docs/architecture.md#commerce): the committed catalogue.json, checked at
 * start, and what `catalogue:push` copies to Stripe. Product and price ids are stable: carts and
 * Stripe's lookup keys refer to them.
 */

/** Metadata key of a plan product: the flexible-license slots the tier grants. */
export const FLEX_SLOTS_KEY = 'BOW_FLEX_SLOTS';
/** Metadata key of a plan product: the tier it grants (a TIERS name). */
export const TIER_KEY = 'BOW_TIER';
/** Metadata key of a time package: the durable minutes one unit adds. */
export const MINUTES_KEY = 'BOW_MINUTES';

const digits = z.string().check(z.regex(/^\d+$/, { error: 'must be a whole number' }));

/** A catalogue product: the contract's payment product, with the metadata each kind needs. */
const catalogueProduct = z
  .extend(paymentProduct, {
    id: z.string().check(z.regex(/^[a-z0-9_]+$/)),
    prices: z.array(paymentPrice).check(z.minLength(1)),
  })
  .check(
    z.superRefine((p, ctx) => {
      const m = p.metadata;
      const need = (key: string, rule?: z.ZodMiniType) => {
        const value = m[key];
        if (value === undefined || value === '')
          ctx.addIssue({ code: 'custom', path: ['metadata', key], message: 'required' });
        else if (rule && !rule.safeParse(value).success)
          ctx.addIssue({ code: 'custom', path: ['metadata', key], message: 'must be a whole number' });
      };
      if (m.BOW_PRICING === ProductPricing.OneTime) {
        need(MINUTES_KEY, digits);
        if (p.prices.some((x) => x.type !== 'one_time'))
          ctx.addIssue({ code: 'custom', path: ['prices'], message: 'a time package has one-time prices only' });
      } else if (m.BOW_SORTING === ProductSorting.Driver) {
        for (const key of ['BOW_UUID', 'model', 'manufacturer', 'robotType', 'features']) need(key);
        if (p.prices.some((x) => x.recurring?.interval !== 'year'))
          ctx.addIssue({ code: 'custom', path: ['prices'], message: 'a driver is sold as a yearly subscription' });
      } else if (m.BOW_SORTING === ProductSorting.Subscription) {
        need('BOW_FEATURES');
        need(TIER_KEY);
        need(FLEX_SLOTS_KEY, digits);
      } else
        ctx.addIssue({ code: 'custom', path: ['metadata'], message: 'BOW_SORTING or BOW_PRICING must say what it is' });
    }),
  );

export const catalogueSchema = z
  .object({ version: z.literal(1), products: z.array(catalogueProduct).check(z.minLength(1)) })
  .check(
    z.superRefine((c, ctx) => {
      const ids = [...c.products.map((p) => p.id), ...c.products.flatMap((p) => p.prices.map((x) => x.id))];
      const seen = new Set<string>();
      for (const id of ids) {
        if (seen.has(id)) ctx.addIssue({ code: 'custom', path: ['products'], message: `id ${id} is used twice` });
        seen.add(id);
      }
    }),
  );
export type Catalogue = z.infer<typeof catalogueSchema>;

/** The committed catalogue, parsed once; a broken file stops the start with the field it breaks. */
export function loadCatalogue(source: unknown = catalogueFile): Catalogue {
  const parsed = catalogueSchema.safeParse(source);
  if (!parsed.success)
    throw new Error(
      `catalogue.json: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

/** What a product is, from its metadata (spec/001 §3). */
export type ProductKind = 'driver' | 'plan' | 'time';

export function kindOf(product: Pick<PaymentProduct, 'metadata'>): ProductKind | undefined {
  const m = product.metadata;
  if (m.BOW_PRICING === ProductPricing.OneTime) return 'time';
  if (m.BOW_SORTING === ProductSorting.Driver) return 'driver';
  if (m.BOW_SORTING === ProductSorting.Subscription) return 'plan';
  return undefined;
}

/** A plan whose every price is 0 (Lite): the tier of anyone without a subscription, never sold. */
export function isFreePlan(product: Pick<PaymentProduct, 'prices'>): boolean {
  return product.prices.every((p: PaymentPrice) => p.unit_amount === 0);
}
