import { payment } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli.ts';
import { as, signIn } from '../../test/fixtures.ts';
import { type TestApp, testConfig } from '../../test/harness.ts';
import type { StandIn } from '../../test/stripe-stand-in.ts';
import { tierName } from '../subscriptions/subscriptions.test-helpers.ts';
import { pushCatalogue } from './catalogue.push.ts';
import { type Catalogue, loadCatalogue } from './catalogue.ts';
import { checkout, line, postSignedPayload, startStripeApp } from './payment.test-helpers.ts';
import { stripeClient } from './stripe.provider.ts';

/**
 * The catalogue is the truth (issue 31, finding 2): `catalogue:push` makes Stripe equal to it, and
 * an existing subscriber keeps their price and tier when it is replaced (docs/decisions/063).
 */
const WEBHOOK_SECRET = 'whsec_cataloguepush0123456789';

let standIn: StandIn;
let t: TestApp;
let priceId: (lookupKey: string) => string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ standIn, t, priceId, close } = await startStripeApp(WEBHOOK_SECRET, []));
});
afterAll(() => close());

async function webhook(type: string, object: unknown) {
  const payload = JSON.stringify({ id: `evt_${type}_${Math.random()}`, object: 'event', type, data: { object } });
  const res = await postSignedPayload(t, payload, WEBHOOK_SECRET);
  expect(res.statusCode, res.body).toBe(200);
}

/** The committed catalogue with `change` made to it, as an operator edits catalogue.json. */
function edited(change: (c: Catalogue) => void): Catalogue {
  const c = structuredClone(loadCatalogue());
  change(c);
  return c;
}
const standard = (c: Catalogue) => c.products.find((p) => p.id === 'prod_standard') as Catalogue['products'][number];

const writes = () => standIn.posts.length;
const standardPrices = async (user: Awaited<ReturnType<typeof signIn>>) => {
  const res = await as(t, user, payment)('GetProducts', {});
  const products = res.body.products as { id: string; prices: { id: string; unit_amount: number }[] }[];
  return products.find((p) => p.id === 'prod_standard')?.prices ?? [];
};

describe('catalogue:push', () => {
  it('archives a replaced price, unsets a removed metadata key, changes nothing twice; the subscriber keeps the tier', async () => {
    const stripe = stripeClient({ secretKey: 'sk_test_standin0123456789', apiBase: standIn.url });
    const lines: string[] = [];
    const out = (l: string) => lines.push(l);
    const catalogue = loadCatalogue();
    /** what a push compares: every product and every price */
    const total = catalogue.products.length + catalogue.products.reduce((n, p) => n + p.prices.length, 0);

    // A Standard subscriber on the GBP 15 monthly price.
    const user = await signIn(t);
    const res = await checkout(t, user, [line('prod_standard', priceId('price_standard_monthly_gbp'))]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { session_id } = res.body.session as { session_id: string };
    await webhook('checkout.session.completed', standIn.complete(session_id));
    expect(await tierName(t, user)).toBe('Standard Subscription');
    const oldPrice = priceId('price_standard_monthly_gbp');

    // The catalogue once had a key it has since dropped.
    await pushCatalogue(
      stripe,
      edited((c) => {
        standard(c).metadata.BOW_BADGE = 'launch';
      }),
      out,
    );
    expect(standIn.products.get('prod_standard')?.metadata).toMatchObject({ BOW_BADGE: 'launch' });

    // The price rises to GBP 16 and the key is gone.
    const risen = edited((c) => {
      const monthly = standard(c).prices.find((p) => p.id === 'price_standard_monthly_gbp');
      if (monthly) monthly.unit_amount = 1600;
    });
    lines.length = 0;
    const before = writes();
    await pushCatalogue(stripe, risen, out, { dryRun: true });
    expect(writes()).toBe(before);
    expect(lines).toContain('would product prod_standard: update (unset metadata BOW_BADGE)');
    expect(lines).toContain(
      `would price price_standard_monthly_gbp: create gbp 1600 per month, replacing ${oldPrice} (gbp 1500 per month)`,
    );
    expect(lines.at(-1)).toBe(
      `dry run, nothing written: would be 1 created, 1 updated, 1 archived, ${total - 2} unchanged`,
    );

    // A second customer opens a checkout on the GBP 15 price before the push and pays after it.
    const late = await signIn(t);
    const opened = await checkout(t, late, [line('prod_standard', oldPrice)]);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);

    lines.length = 0;
    await pushCatalogue(stripe, risen, out);
    const newPrice = priceId('price_standard_monthly_gbp');
    expect(newPrice).not.toBe(oldPrice);
    expect(standIn.prices.get(newPrice)).toMatchObject({ active: true, unit_amount: 1600 });
    expect(standIn.prices.get(oldPrice)).toMatchObject({ active: false, lookup_key: null });
    expect(standIn.products.get('prod_standard')?.metadata).not.toHaveProperty('BOW_BADGE');
    expect(lines.at(-1)).toBe(`catalogue pushed: 1 created, 1 updated, 1 archived, ${total - 2} unchanged`);

    // A second run changes nothing, and says so.
    lines.length = 0;
    const settled = writes();
    await pushCatalogue(stripe, risen, out);
    expect(writes()).toBe(settled);
    expect(lines).toEqual([
      `catalogue pushed: Stripe already matched the catalogue, 0 created, 0 updated, 0 archived, ${total} unchanged`,
    ]);

    // Once the portal's catalogue cache is stale: GetProducts sells the new price only, and the
    // subscriber on the archived price keeps the tier it grants.
    t.clock.advance(61_000);
    const prices = (await standardPrices(user)).map((p) => p.id);
    expect(prices).toContain(newPrice);
    expect(prices).not.toContain(oldPrice);
    expect(await tierName(t, user)).toBe('Standard Subscription');
    // Stripe renews the subscriber at the archived price (docs/decisions/063): the plan goes on.
    const sub = standIn.subscriptions.get(standIn.sessions.get(session_id)?.subscription as string) as {
      id: string;
      items: { data: { current_period_end: number }[] };
    };
    for (const item of sub.items.data) item.current_period_end += 31 * 24 * 3600;
    await webhook('customer.subscription.updated', sub);
    expect(await tierName(t, user)).toBe('Standard Subscription');
    // The checkout paid on the archived price still grants its plan.
    const lateSession = (opened.body.session as { session_id: string }).session_id;
    await webhook('checkout.session.completed', standIn.complete(lateSession));
    expect(await tierName(t, late)).toBe('Standard Subscription');
    // A cart still naming the archived price is refused, not charged at the old amount.
    const stale = await checkout(t, user, [line('prod_standard', oldPrice)]);
    expect(stale.status).toBe(400);
  });

  it('--dry-run over the command line prints the plan and writes nothing; products removed from the catalogue are archived', async () => {
    const config = testConfig({
      STRIPE_SECRET_KEY: 'sk_test_standin0123456789',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: standIn.url,
    });
    // A portal product the catalogue no longer lists.
    standIn.products.set(
      'prod_time_9',
      standIn.make('product', 'unused', {
        id: 'prod_time_9',
        name: 'Time 9',
        active: true,
        metadata: { BOW_PRICING: 'one_time', BOW_MINUTES: '9' },
      }),
    );
    const lines: string[] = [];
    const ctx = { db: t.app.deps.db, config, clock: t.clock, out: (l: string) => lines.push(l) };
    const before = writes();
    await runCli(['catalogue:push', '--dry-run'], ctx);
    expect(writes()).toBe(before);
    expect(lines).toContain('would product prod_time_9: archive (not in the catalogue)');
    await runCli(['catalogue:push'], ctx);
    expect(standIn.products.get('prod_time_9')?.active).toBe(false);
    lines.length = 0;
    await runCli(['catalogue:push', '--dry-run'], ctx);
    expect(lines).toEqual(['dry run, nothing written: Stripe already matches the catalogue']);
  });
});
