import Stripe from 'stripe';
import { planCataloguePush } from './catalogue.push.ts';
import { type Catalogue, isFreePlan, kindOf } from './catalogue.ts';
import { STRIPE_WEBHOOK_EVENTS } from './stripe-events.ts';
import { STRIPE_WEBHOOK_PATH } from './stripe-webhook.routes.ts';

/** One finding of `stripe:check`: what is right (`ok`) or what is missing for the portal. */
export interface StripeCheckLine {
  ok: boolean;
  text: string;
}

/**
 * `portal-admin stripe:check` (docs/operations.md): compares the Stripe account with what the portal
 * needs, reading only: the catalogue as `catalogue:push --dry-run` sees it, the webhook endpoint at
 * PUBLIC_URL + /api/stripe/webhook (enabled, on the SDK's pinned API version, sending every event of
 * STRIPE_WEBHOOK_EVENTS), and the billing portal's default configuration (active, with payment methods,
 * plan changes between the plans' prices and cancelling at period end).
 */
export async function checkStripeAccount(
  stripe: Stripe,
  wanted: { catalogue: Catalogue; publicUrl: string; apiVersion?: string },
): Promise<StripeCheckLine[]> {
  const lines: StripeCheckLine[] = [];
  const ok = (text: string) => lines.push({ ok: true, text });
  const missing = (text: string) => lines.push({ ok: false, text });
  const apiVersion = wanted.apiVersion ?? Stripe.API_VERSION;

  // The catalogue, as catalogue:push --dry-run sees it.
  const { steps } = await planCataloguePush(stripe, wanted.catalogue);
  if (steps.length === 0) ok('catalogue: Stripe matches catalogue.json');
  for (const step of steps) missing(`catalogue: would ${step.line} (run portal-admin catalogue:push)`);

  // The webhook endpoint.
  const url = `${wanted.publicUrl.replace(/\/$/, '')}${STRIPE_WEBHOOK_PATH}`;
  const endpoints = await stripe.webhookEndpoints.list({ limit: 100 }).autoPagingToArray({ limit: 1000 });
  const mine = endpoints.filter((e) => e.url === url);
  const endpoint = mine.find((e) => e.status === 'enabled') ?? mine[0];
  if (!endpoint)
    missing(
      `webhook endpoint: none for ${url} (create it on API version ${apiVersion} with the events in docs/operations.md)`,
    );
  else {
    if (endpoint.status !== 'enabled') missing(`webhook endpoint ${endpoint.id}: is ${endpoint.status}, not enabled`);
    if (endpoint.api_version !== apiVersion)
      missing(
        `webhook endpoint ${endpoint.id}: API version is ${endpoint.api_version ?? "the account's default"}, the portal needs ${apiVersion} (create a new endpoint on it; the version of an endpoint cannot be changed)`,
      );
    const enabled = new Set(endpoint.enabled_events);
    const absent = enabled.has('*') ? [] : STRIPE_WEBHOOK_EVENTS.filter((e) => !enabled.has(e));
    if (absent.length) missing(`webhook endpoint ${endpoint.id}: does not send ${absent.join(', ')}`);
    if (endpoint.status === 'enabled' && endpoint.api_version === apiVersion && !absent.length)
      ok(`webhook endpoint ${endpoint.id}: ${url}, API version ${apiVersion}, ${STRIPE_WEBHOOK_EVENTS.length} events`);
  }

  // The billing portal (Update Payment Info).
  const configurations = await stripe.billingPortal.configurations.list({ is_default: true, limit: 10 });
  const portal = configurations.data[0];
  if (!portal)
    missing('billing portal: no default configuration (save one in the Dashboard, Settings, Billing, Customer portal)');
  else {
    const before = lines.length;
    const f = portal.features;
    if (!portal.active) missing(`billing portal ${portal.id}: the default configuration is not active`);
    if (!f.payment_method_update.enabled)
      missing(`billing portal ${portal.id}: customers cannot update payment methods`);
    if (!f.subscription_cancel.enabled || f.subscription_cancel.mode !== 'at_period_end')
      missing(`billing portal ${portal.id}: customers cannot cancel at the end of the period`);
    if (!f.subscription_update.enabled) missing(`billing portal ${portal.id}: customers cannot change plans`);
    else {
      const offered = f.subscription_update.products ?? [];
      const plans = wanted.catalogue.products.filter((p) => kindOf(p) === 'plan' && !isFreePlan(p));
      const keys = plans.flatMap((p) => p.prices.map((x) => x.id));
      const current = keys.length
        ? await stripe.prices.list({ lookup_keys: keys, active: true, limit: 100 })
        : { data: [] as Stripe.Price[] };
      for (const plan of plans) {
        const prices = offered.find((o) => o.product === plan.id)?.prices ?? [];
        const absentPrices = plan.prices
          .map((x) => current.data.find((p) => p.lookup_key === x.id))
          .filter((p): p is Stripe.Price => p !== undefined && !prices.includes(p.id));
        if (!offered.some((o) => o.product === plan.id))
          missing(`billing portal ${portal.id}: plan changes do not offer ${plan.id}`);
        else if (absentPrices.length)
          missing(
            `billing portal ${portal.id}: plan changes do not offer ${absentPrices.map((p) => `${p.id} (${p.lookup_key})`).join(', ')}`,
          );
      }
    }
    if (lines.length === before)
      ok(`billing portal ${portal.id}: active, payment methods, plan changes, cancel at period end`);
  }
  return lines;
}
