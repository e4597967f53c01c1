import type Stripe from 'stripe';
import type { Catalogue } from './catalogue.ts';

type CataloguePrice = Catalogue['products'][number]['prices'][number];

const samePrice = (a: Stripe.Price, b: CataloguePrice) =>
  a.currency === b.currency &&
  a.unit_amount === b.unit_amount &&
  (a.recurring?.interval ?? null) === (b.recurring?.interval ?? null) &&
  (a.recurring?.interval_count ?? null) === (b.recurring?.interval_count ?? null);

const productOf = (p: Stripe.Price) => (typeof p.product === 'string' ? p.product : p.product.id);

/** A product the portal sells: its metadata says what it is (BOW_SORTING or BOW_PRICING, catalogue.ts). */
const isPortalProduct = (p: Stripe.Product) =>
  p.metadata.BOW_SORTING !== undefined || p.metadata.BOW_PRICING !== undefined;

const describe = (p: { currency: string; unit_amount: number | null; recurring?: { interval: string } | null }) =>
  `${p.currency} ${p.unit_amount ?? '?'}${p.recurring ? ` per ${p.recurring.interval}` : ''}`;

/** One write that makes Stripe closer to the catalogue, with the line that says what it does. */
export interface PushStep {
  kind: 'create' | 'update' | 'archive';
  line: string;
  run(stripe: Stripe): Promise<unknown>;
}

/**
 * What `catalogue:push` would change at Stripe to make it equal to the catalogue, without writing.
 * Products keep the catalogue's ids; a price is found by its lookup key (the catalogue's price id).
 * Stripe's prices cannot change amount, so a changed price is a new one that takes over the lookup
 * key (transfer_lookup_key), and the one it replaces is archived; prices of a catalogue product that
 * the catalogue no longer names, and portal products (BOW_ metadata) it no longer lists, are archived.
 * Metadata is replaced: a key the catalogue dropped is unset. Existing subscriptions keep the price
 * they have (docs/decisions/063): archiving only stops new purchases.
 * The steps are ordered so a lookup key always has an active price: creations first, archives last.
 */
export async function planCataloguePush(stripe: Stripe, catalogue: Catalogue) {
  const [products, prices] = await Promise.all([
    stripe.products.list({ limit: 100 }).autoPagingToArray({ limit: 10_000 }),
    stripe.prices.list({ limit: 100 }).autoPagingToArray({ limit: 10_000 }),
  ]);
  const creates: PushStep[] = [];
  const updates: PushStep[] = [];
  const archives: PushStep[] = [];
  let unchanged = 0;
  const wanted = new Set(catalogue.products.map((p) => p.id));

  for (const product of catalogue.products) {
    const existing = products.find((p) => p.id === product.id);
    if (!existing) {
      creates.push({
        kind: 'create',
        line: `product ${product.id}: create`,
        run: (s) =>
          s.products.create({
            id: product.id,
            name: product.name,
            description: product.description || undefined,
            metadata: product.metadata,
          }),
      });
    } else {
      const changes: string[] = [];
      const params: Stripe.ProductUpdateParams = {};
      if (existing.name !== product.name) {
        params.name = product.name;
        changes.push('name');
      }
      if ((existing.description ?? '') !== product.description) {
        params.description = product.description;
        changes.push('description');
      }
      if (!existing.active) {
        params.active = true;
        changes.push('reactivate');
      }
      const metadata: Record<string, string> = {};
      for (const [k, v] of Object.entries(product.metadata))
        if (existing.metadata[k] !== v) {
          metadata[k] = v;
          changes.push(`metadata ${k}`);
        }
      for (const k of Object.keys(existing.metadata))
        if (!(k in product.metadata)) {
          metadata[k] = '';
          changes.push(`unset metadata ${k}`);
        }
      if (Object.keys(metadata).length) params.metadata = metadata;
      if (changes.length)
        updates.push({
          kind: 'update',
          line: `product ${product.id}: update (${changes.join(', ')})`,
          run: (s) => s.products.update(product.id, params),
        });
      else unchanged++;
    }

    const keep = new Set<string>();
    for (const price of product.prices) {
      const current = prices.find((p) => p.lookup_key === price.id);
      if (current && productOf(current) === product.id && samePrice(current, price)) {
        keep.add(current.id);
        if (current.active) unchanged++;
        else
          updates.push({
            kind: 'update',
            line: `price ${price.id}: reactivate ${current.id} (${describe(current)})`,
            run: (s) => s.prices.update(current.id, { active: true }),
          });
        continue;
      }
      creates.push({
        kind: 'create',
        line: current
          ? `price ${price.id}: create ${describe(price)}, replacing ${current.id} (${describe(current)})`
          : `price ${price.id}: create ${describe(price)}`,
        run: (s) =>
          s.prices.create({
            product: product.id,
            currency: price.currency,
            unit_amount: price.unit_amount,
            lookup_key: price.id,
            transfer_lookup_key: Boolean(current),
            ...(price.recurring
              ? { recurring: { interval: price.recurring.interval, interval_count: price.recurring.interval_count } }
              : {}),
          }),
      });
    }
    // Every other active price of the product is stale: replaced, or no longer in the catalogue.
    for (const stale of prices.filter((p) => productOf(p) === product.id && p.active && !keep.has(p.id)))
      archives.push({
        kind: 'archive',
        line: `price ${stale.id} (${stale.lookup_key ?? 'no lookup key'}, ${describe(stale)}): archive`,
        run: (s) => s.prices.update(stale.id, { active: false }),
      });
  }

  for (const gone of products.filter((p) => p.active && isPortalProduct(p) && !wanted.has(p.id))) {
    for (const stale of prices.filter((p) => productOf(p) === gone.id && p.active))
      archives.push({
        kind: 'archive',
        line: `price ${stale.id} (${stale.lookup_key ?? 'no lookup key'}, ${describe(stale)}): archive`,
        run: (s) => s.prices.update(stale.id, { active: false }),
      });
    archives.push({
      kind: 'archive',
      line: `product ${gone.id}: archive (not in the catalogue)`,
      run: (s) => s.products.update(gone.id, { active: false }),
    });
  }
  return { steps: [...creates, ...updates, ...archives], unchanged };
}

/**
 * `catalogue:push [--dry-run]` (docs/operations.md): makes Stripe equal to the committed catalogue
 * (planCataloguePush), or with `dryRun` only prints what it would do. Running it again changes nothing.
 */
export async function pushCatalogue(
  stripe: Stripe,
  catalogue: Catalogue,
  out: (line: string) => void,
  options: { dryRun?: boolean } = {},
) {
  const { steps, unchanged } = await planCataloguePush(stripe, catalogue);
  const counts = {
    created: steps.filter((s) => s.kind === 'create').length,
    updated: steps.filter((s) => s.kind === 'update').length,
    archived: steps.filter((s) => s.kind === 'archive').length,
    unchanged,
  };
  const summary = `${counts.created} created, ${counts.updated} updated, ${counts.archived} archived, ${counts.unchanged} unchanged`;
  if (options.dryRun) {
    for (const step of steps) out(`would ${step.line}`);
    out(
      steps.length
        ? `dry run, nothing written: would be ${summary}`
        : 'dry run, nothing written: Stripe already matches the catalogue',
    );
    return counts;
  }
  for (const step of steps) {
    await step.run(stripe);
    out(step.line);
  }
  out(
    steps.length
      ? `catalogue pushed: ${summary}`
      : `catalogue pushed: Stripe already matched the catalogue, ${summary}`,
  );
  return counts;
}
