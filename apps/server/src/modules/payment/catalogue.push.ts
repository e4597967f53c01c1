import type Stripe from 'stripe';
import type { Catalogue } from './catalogue.ts';

type CataloguePrice = Catalogue['products'][number]['prices'][number];

const samePrice = (a: Stripe.Price, b: CataloguePrice) =>
  a.currency === b.currency &&
  a.unit_amount === b.unit_amount &&
  (a.recurring?.interval ?? null) === (b.recurring?.interval ?? null) &&
  (a.recurring?.interval_count ?? null) === (b.recurring?.interval_count ?? null);

/**
 * `catalogue:push` (docs/operations.md): makes Stripe hold the committed catalogue. Products keep
 * the catalogue's ids; a price is found by its lookup key (the catalogue's price id). Stripe's
 * prices cannot change amount, so a changed price is a new one that takes over the lookup key.
 * Running it twice changes nothing the second time.
 */
export async function pushCatalogue(stripe: Stripe, catalogue: Catalogue, out: (line: string) => void) {
  const counts = { created: 0, updated: 0, kept: 0 };
  for (const product of catalogue.products) {
    const fields = { name: product.name, description: product.description || undefined, metadata: product.metadata };
    let existing: Stripe.Product | undefined;
    try {
      existing = await stripe.products.retrieve(product.id);
    } catch (err) {
      if ((err as { code?: string }).code !== 'resource_missing') throw err;
    }
    if (!existing) {
      await stripe.products.create({ id: product.id, ...fields });
      out(`product ${product.id}: created`);
      counts.created++;
    } else {
      const changed =
        existing.name !== product.name ||
        (existing.description ?? '') !== product.description ||
        Object.entries(product.metadata).some(([k, v]) => existing.metadata[k] !== v);
      if (changed) {
        await stripe.products.update(product.id, fields);
        out(`product ${product.id}: updated`);
        counts.updated++;
      } else counts.kept++;
    }

    for (const price of product.prices) {
      const found = await stripe.prices.list({ lookup_keys: [price.id], active: true, limit: 1 });
      const current = found.data[0];
      if (current && samePrice(current, price)) {
        counts.kept++;
        continue;
      }
      await stripe.prices.create({
        product: product.id,
        currency: price.currency,
        unit_amount: price.unit_amount,
        lookup_key: price.id,
        transfer_lookup_key: Boolean(current),
        ...(price.recurring
          ? { recurring: { interval: price.recurring.interval, interval_count: price.recurring.interval_count } }
          : {}),
      });
      out(`price ${price.id}: ${current ? 'replaced' : 'created'}`);
      counts.created++;
    }
  }
  out(`catalogue pushed: ${counts.created} created, ${counts.updated} updated, ${counts.kept} unchanged`);
  return counts;
}
