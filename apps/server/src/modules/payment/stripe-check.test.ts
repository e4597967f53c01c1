import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CommandFailed, runCli } from '../../cli.ts';
import type { Db } from '../../db/client.ts';
import { systemClock } from '../../lib/clock.ts';
import { testConfig } from '../../test/harness.ts';
import { type StandIn, startStripeStandIn } from '../../test/stripe-stand-in.ts';
import { loadCatalogue } from './catalogue.ts';
import { STRIPE_WEBHOOK_EVENTS } from './stripe-events.ts';

/**
 * `portal-admin stripe:check` against the stand-in (issue 31, "a go-live check for operators"): a good
 * account exits 0; a missing event, a wrong API version, a catalogue that drifted or a billing portal
 * that cannot change plans is a line each, and exit 1.
 */
const here = dirname(fileURLToPath(import.meta.url));
const KEY = 'sk_test_standin0123456789';
const PUBLIC = 'https://portal.example.test';
let standIn: StandIn;
beforeAll(async () => {
  standIn = await startStripeStandIn(loadCatalogue());
});
afterAll(() => standIn.close());

const lookup = (key: string) => [...standIn.prices.values()].find((p) => p.lookup_key === key)?.id as string;

/** The account as an operator sets it up following docs/operations.md. */
function goodAccount() {
  standIn.webhookEndpoints.clear();
  standIn.portalConfigurations.clear();
  const endpoint = standIn.make('webhook_endpoint', 'we', {
    url: `${PUBLIC}/api/stripe/webhook`,
    api_version: Stripe.API_VERSION,
    enabled_events: [...STRIPE_WEBHOOK_EVENTS],
    status: 'enabled',
  });
  standIn.webhookEndpoints.set(endpoint.id as string, endpoint);
  const portal = standIn.make('billing_portal.configuration', 'bpc', { active: true, is_default: true });
  const features = portal.features as Record<string, Record<string, unknown>>;
  (features.payment_method_update as Record<string, unknown>).enabled = true;
  Object.assign(features.subscription_cancel as object, { enabled: true, mode: 'at_period_end' });
  Object.assign(features.subscription_update as object, {
    enabled: true,
    products: [
      { product: 'prod_standard', prices: [lookup('price_standard_monthly_gbp'), lookup('price_standard_yearly_gbp')] },
      { product: 'prod_pro', prices: [lookup('price_pro_monthly_gbp'), lookup('price_pro_yearly_gbp')] },
    ],
  });
  standIn.portalConfigurations.set(portal.id as string, portal);
  return { endpoint, portal, features };
}

const config = () =>
  testConfig({
    STRIPE_SECRET_KEY: KEY,
    STRIPE_WEBHOOK_SECRET: 'whsec_check0123456789',
    STRIPE_API_BASE: standIn.url,
    PUBLIC_URL: PUBLIC,
  });

async function check(): Promise<{ lines: string[]; failed?: string }> {
  const lines: string[] = [];
  try {
    await runCli(['stripe:check'], {
      db: undefined as unknown as Db,
      config: config(),
      clock: systemClock,
      out: (l) => lines.push(l),
    });
    return { lines };
  } catch (err) {
    if (!(err instanceof CommandFailed)) throw err;
    return { lines, failed: err.message };
  }
}

describe('stripe:check', () => {
  beforeEach(() => {
    goodAccount();
  });

  it('passes a good account and writes nothing', async () => {
    const posts = standIn.posts.length;
    const { lines, failed } = await check();
    expect(failed).toBeUndefined();
    expect(lines.filter((l) => !l.startsWith('ok: '))).toEqual([
      `stripe:check: the Stripe account has what ${PUBLIC} needs`,
    ]);
    expect(standIn.posts.length).toBe(posts);
  });

  it('names an event the endpoint does not send', async () => {
    const { endpoint } = goodAccount();
    endpoint.enabled_events = STRIPE_WEBHOOK_EVENTS.filter(
      (e) => e !== 'charge.refunded' && e !== 'charge.dispute.closed',
    );
    const { lines, failed } = await check();
    expect(lines).toContain(
      `missing: webhook endpoint ${endpoint.id as string}: does not send charge.refunded, charge.dispute.closed`,
    );
    expect(failed).toBe(`stripe:check: 1 thing missing for ${PUBLIC}; see the lines above`);
  });

  it('names a wrong API version, a missing endpoint, a drifted catalogue and a portal without plan changes', async () => {
    const { endpoint, features } = goodAccount();
    endpoint.api_version = '2025-03-31.basil';
    (features.subscription_update as Record<string, unknown>).products = [
      { product: 'prod_standard', prices: [lookup('price_standard_monthly_gbp')] },
    ];
    const product = standIn.products.get('prod_pro') as { metadata: Record<string, string> };
    product.metadata = { ...product.metadata, STALE: 'x' };
    try {
      const { lines, failed } = await check();
      expect(lines).toEqual(
        expect.arrayContaining([
          `missing: webhook endpoint ${endpoint.id as string}: API version is 2025-03-31.basil, the portal needs ${Stripe.API_VERSION} (create a new endpoint on it; the version of an endpoint cannot be changed)`,
          'missing: catalogue: would product prod_pro: update (unset metadata STALE) (run portal-admin catalogue:push)',
          `missing: billing portal ${goodPortalId()}: plan changes do not offer ${lookup('price_standard_yearly_gbp')} (price_standard_yearly_gbp)`,
          `missing: billing portal ${goodPortalId()}: plan changes do not offer prod_pro`,
        ]),
      );
      expect(failed).toMatch(/^stripe:check: 4 things missing/);
      endpoint.url = 'https://elsewhere.example.test/api/stripe/webhook';
      expect((await check()).lines).toContain(
        `missing: webhook endpoint: none for ${PUBLIC}/api/stripe/webhook (create it on API version ${Stripe.API_VERSION} with the events in docs/operations.md)`,
      );
    } finally {
      delete product.metadata.STALE;
    }
  });

  it('as a program: prints the line and exits 1', async () => {
    const { endpoint } = goodAccount();
    endpoint.enabled_events = STRIPE_WEBHOOK_EVENTS.filter((e) => e !== 'invoice.paid');
    const run = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(here, '../../cli.ts'), 'stripe:check'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          NODE_ENV: 'test',
          JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
          DATA_DIR: '/tmp/portal-test-data',
          STRIPE_SECRET_KEY: KEY,
          STRIPE_WEBHOOK_SECRET: 'whsec_check0123456789',
          STRIPE_API_BASE: standIn.url,
          PUBLIC_URL: PUBLIC,
        },
        encoding: 'utf8',
        timeout: 60_000,
      },
    ).then(
      (r) => ({ code: 0, ...r }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`missing: webhook endpoint ${endpoint.id as string}: does not send invoice.paid`);
    expect(run.stderr.trim()).toBe(`stripe:check: 1 thing missing for ${PUBLIC}; see the lines above`);
  });
});

const goodPortalId = () => [...standIn.portalConfigurations.keys()][0] as string;
