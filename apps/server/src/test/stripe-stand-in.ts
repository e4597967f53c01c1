import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { Catalogue } from '../modules/payment/catalogue.ts';
import fixtures from './fixtures/stripe/objects.json' with { type: 'json' };

/**
 * A local, stateful stand-in of the part of Stripe's API the portal uses, for tests: Stripe cannot
 * be reached from our machines (docs/decisions/017), so the real SDK is pointed here through its
 * host, port and protocol options (stripeClient's apiBase).
 *
 * It keeps customers, products, prices, checkout sessions, subscriptions, invoices, payment
 * intents, charges, refunds, disputes, webhook endpoints and billing-portal configurations, and
 * enforces what Stripe enforces and the tests rely on:
 * - an Idempotency-Key is kept for 24 hours: the same key with the same parameters answers the saved
 *   answer and changes nothing; with other parameters it answers Stripe's 400 idempotency_error.
 *   Outages (`failing`, 5xx) and parameter errors (400) are not saved, as at Stripe;
 * - one price per lookup key, unless `transfer_lookup_key=true` moves the key;
 * - archived prices (active=false) cannot be bought (checkout, subscription updates); payment mode
 *   refuses recurring prices and subscription mode needs one;
 * - `active` filters on product and price lists; metadata updates where '' unsets a key.
 * Objects are Stripe's shapes: the published fixtures (fixtures/stripe, MIT) with our fields set.
 *
 * Knobs for failure tests: `failing` paths answer 500, `hanging` paths never answer,
 * `revokedKeys` answer 401 as Stripe does for a revoked secret key.
 *
 * Other tests add routes with NEW blocks in `routes` (one `route(...)` call per endpoint).
 */
export interface StandIn {
  url: string;
  /** checkout sessions by id, as Stripe would answer them; tests mark them paid (or call `complete`) */
  sessions: Map<string, Record<string, unknown>>;
  /** the form parameters of every POST, by path (flat form keys, e.g. `items[0][price]`) */
  posts: { path: string; params: Record<string, string>; idempotencyKey?: string | undefined }[];
  customers: Map<string, Record<string, unknown>>;
  products: Map<string, Record<string, unknown>>;
  prices: Map<string, Record<string, unknown>>;
  /** subscriptions by id, as Stripe would answer them; tests put them here when a checkout completes */
  subscriptions: Map<string, Record<string, unknown>>;
  /** invoices by id (a subscription checkout's refund finds its payment intent through one) */
  invoices: Map<string, Record<string, unknown>>;
  paymentIntents: Map<string, Record<string, unknown>>;
  charges: Map<string, Record<string, unknown>>;
  refunds: Map<string, Record<string, unknown>>;
  disputes: Map<string, Record<string, unknown>>;
  webhookEndpoints: Map<string, Record<string, unknown>>;
  portalConfigurations: Map<string, Record<string, unknown>>;
  /** every request as `METHOD /path`, in order */
  requests: string[];
  /** paths that answer 500 (a provider outage, for tests) */
  failing: Set<string>;
  /** paths that never answer (a stalled provider, for timeout tests) */
  hanging: Set<string>;
  /** secret keys answered with Stripe's 401 for a revoked or wrong key */
  revokedKeys: Set<string>;
  /** the stand-in's clock in ms (idempotency keys last 24 hours of it; `created` fields); tests may replace it */
  now: () => number;
  /** a Stripe-shaped object of `type` with a fresh id (prefix) and `fields` set over the fixture */
  make(type: StripeObjectType, prefix: string, fields?: Record<string, unknown>): Record<string, unknown>;
  /**
   * What Stripe does when the customer pays a session: the session complete and paid, with a
   * payment intent and charge; in subscription mode a subscription over its recurring lines and a
   * paid first invoice. Answers the session (as a `checkout.session.completed` event carries it).
   */
  complete(sessionId: string, details?: Partial<CustomerDetails>): Record<string, unknown>;
  close(): Promise<void>;
}

export interface CustomerDetails {
  name: string;
  email: string;
  line1: string;
  city: string;
  postal_code: string;
  country: string;
}

type Obj = Record<string, unknown>;
export type StripeObjectType = keyof typeof fixtures.resources;

/**
 * Fields of the published examples that describe a particular past (a cancelled subscription, a
 * discount, a pending update): a fresh object of ours starts without them.
 */
const FRESH: Partial<Record<StripeObjectType, Obj>> = {
  customer: { discount: null, email: null },
  product: { package_dimensions: null, default_price: null, images: [] },
  price: { transform_quantity: null, custom_unit_amount: null, lookup_key: null, nickname: null },
  'checkout.session': {
    after_expiration: null,
    customer_details: null,
    payment_intent: null,
    invoice: null,
    subscription: null,
    shipping_cost: null,
    shipping_address_collection: null,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    currency_conversion: null,
    collected_information: null,
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
  },
  subscription: {
    cancel_at: null,
    canceled_at: null,
    ended_at: null,
    trial_end: null,
    trial_start: null,
    pending_update: null,
    next_pending_invoice_item_invoice: null,
    pending_invoice_item_interval: null,
    transfer_data: null,
    pause_collection: null,
    cancel_at_period_end: false,
    billing_schedules: [],
    billing_cycle_anchor_config: null,
    managed_payments: null,
  },
  subscription_item: { plan: null, billing_thresholds: null },
  invoice: {
    from_invoice: null,
    last_finalization_error: null,
    shipping_cost: null,
    amount_overpaid: 0,
    parent: null,
    next_payment_attempt: null,
    webhooks_delivered_at: null,
    due_date: null,
    subscription: null,
  },
  payment_intent: { last_payment_error: null, canceled_at: null, client_secret: null },
  charge: { failure_code: null, failure_message: null, refunds: null },
  dispute: { payment_intent: null },
  webhook_endpoint: { description: null },
};

/** A Stripe-shaped object: the published example of its type, our fresh state, then `fields`. */
export function stripeObject(type: StripeObjectType, fields: Obj): Obj {
  return { ...structuredClone(fixtures.resources[type] as Obj), ...FRESH[type], ...fields };
}

let events = 0;
/**
 * A webhook event in Stripe's shape (the published fixture), on the API version the SDK is pinned to,
 * carrying `object`; sign its JSON with the SDK's `webhooks.generateTestHeaderString`.
 */
export function stripeEvent(type: string, object: unknown, fields: Obj = {}): Obj {
  return stripeObject('event', {
    id: `evt_standin_${(++events).toString().padStart(6, '0')}`,
    type,
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
    ...fields,
  });
}

/** An error as Stripe answers it; thrown by a route, answered by the server. */
class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: { type: string; message: string; code?: string; param?: string },
    /** a parameter error is not saved under the request's idempotency key (Stripe's rule) */
    readonly saved = status !== 400,
  ) {
    super(error.message);
  }
}
const invalid = (message: string, param?: string, code?: string) =>
  new StripeFailure(400, {
    type: 'invalid_request_error',
    message,
    ...(param ? { param } : {}),
    ...(code ? { code } : {}),
  });
const noSuch = (what: string, id: string, param?: string) =>
  new StripeFailure(
    param ? 400 : 404,
    {
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: `No such ${what}: '${id}'`,
      ...(param ? { param } : {}),
    },
    true,
  );

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => {
      data += c;
    });
    req.on('end', () => resolve(data));
  });

/**
 * Form keys as the SDK sends them (`metadata[k]`, `line_items[0][price]`, `expand[]`) into the nested
 * object Stripe reads; numbered or empty brackets make arrays.
 */
export function parseForm(entries: Iterable<[string, string]>): Obj {
  const root: Obj = {};
  for (const [key, value] of entries) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: Obj = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const name = part === '' ? String(Object.keys(node).length) : part;
      if (last) node[name] = value;
      else {
        if (typeof node[name] !== 'object' || node[name] === null) node[name] = {};
        node = node[name] as Obj;
      }
    });
  }
  const arrays = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    const o = v as Obj;
    const keys = Object.keys(o);
    const mapped = Object.fromEntries(keys.map((k) => [k, arrays(o[k])]));
    if (keys.length && keys.every((k) => /^\d+$/.test(k)))
      return keys.sort((a, b) => Number(a) - Number(b)).map((k) => mapped[k]);
    return mapped;
  };
  return arrays(root) as Obj;
}

const bool = (v: unknown) => (v === undefined ? undefined : v === 'true');
const num = (v: unknown) => (v === undefined || v === '' ? undefined : Number(v));

/** Metadata updated as Stripe does: keys set, a key sent as '' removed. */
function withMetadata(current: unknown, update: unknown): Obj {
  const out: Obj = { ...((current as Obj | undefined) ?? {}) };
  if (update === '') return {};
  for (const [k, v] of Object.entries((update as Obj | undefined) ?? {})) {
    if (v === '') delete out[k];
    else out[k] = v;
  }
  return out;
}

/** `created[gte]=...` and friends, as list endpoints take them. */
function createdMatches(created: unknown, filter: unknown): boolean {
  if (filter === undefined) return true;
  const c = Number(created);
  if (typeof filter === 'string') return c === Number(filter);
  const f = filter as Obj;
  return (
    (f.gte === undefined || c >= Number(f.gte)) &&
    (f.gt === undefined || c > Number(f.gt)) &&
    (f.lte === undefined || c <= Number(f.lte)) &&
    (f.lt === undefined || c < Number(f.lt))
  );
}

const idOf = (v: unknown) => (typeof v === 'string' ? v : ((v as Obj | null)?.id as string | undefined));

/** A period end `count` intervals after `startS` (seconds), in UTC calendar terms as Stripe bills. */
function addInterval(startS: number, interval: string, count: number): number {
  const d = new Date(startS * 1000);
  if (interval === 'day') d.setUTCDate(d.getUTCDate() + count);
  else if (interval === 'week') d.setUTCDate(d.getUTCDate() + 7 * count);
  else if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + count);
  else d.setUTCFullYear(d.getUTCFullYear() + count);
  return Math.floor(d.getTime() / 1000);
}

interface Request {
  method: string;
  path: string;
  /** the parsed form (POST) or query (GET, DELETE) */
  p: Obj;
  /** the path's captures, decoded */
  m: string[];
}
type Route = { method: string; pattern: RegExp; handle: (r: Request) => unknown };

const DAY_MS = 24 * 60 * 60 * 1000;

export async function startStripeStandIn(catalogue?: Catalogue): Promise<StandIn> {
  const sessions = new Map<string, Obj>();
  const customers = new Map<string, Obj>();
  const products = new Map<string, Obj>();
  const prices = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  const paymentIntents = new Map<string, Obj>();
  const charges = new Map<string, Obj>();
  const refunds = new Map<string, Obj>();
  const disputes = new Map<string, Obj>();
  const webhookEndpoints = new Map<string, Obj>();
  const portalConfigurations = new Map<string, Obj>();
  /** each checkout session's line items (Stripe lists them apart from the session) */
  const sessionLines = new Map<string, { price: Obj; quantity: number }[]>();
  const idempotency = new Map<string, { at: number; request: string; status: number; json: unknown }>();
  const posts: StandIn['posts'] = [];
  const requests: string[] = [];
  const failing = new Set<string>();
  const hanging = new Set<string>();
  const revokedKeys = new Set<string>();
  const held: ServerResponse[] = [];
  let counter = 0;
  const next = (prefix: string) => `${prefix}_${(++counter).toString().padStart(6, '0')}`;

  const standIn = {
    now: () => Date.now(),
  } as StandIn;
  const nowS = () => Math.floor(standIn.now() / 1000);
  const make = (type: StripeObjectType, prefix: string, fields: Obj = {}) =>
    stripeObject(type, { id: next(prefix), created: nowS(), livemode: false, metadata: {}, ...fields });

  const priceObject = (id: string, product: string, p: Obj) =>
    stripeObject('price', {
      id,
      product,
      active: true,
      created: nowS(),
      livemode: false,
      metadata: {},
      billing_scheme: 'per_unit',
      tax_behavior: 'unspecified',
      ...p,
      unit_amount_decimal: String(p.unit_amount),
    });
  const productObject = (id: string, p: Obj) =>
    stripeObject('product', {
      id,
      active: true,
      created: nowS(),
      updated: nowS(),
      livemode: false,
      metadata: {},
      ...p,
    });

  for (const product of catalogue?.products ?? []) {
    products.set(
      product.id,
      productObject(product.id, {
        name: product.name,
        description: product.description,
        metadata: { ...product.metadata },
      }),
    );
    for (const price of product.prices) {
      // Stripe makes its own price ids; the catalogue's id is the lookup key.
      const id = next('price');
      prices.set(
        id,
        priceObject(id, product.id, {
          currency: price.currency,
          unit_amount: price.unit_amount,
          recurring: price.recurring
            ? { ...price.recurring, meter: null, usage_type: 'licensed', trial_period_days: null }
            : null,
          type: price.type,
          lookup_key: price.id,
        }),
      );
    }
  }

  /** One price per lookup key: taken by another price is an error, unless `transfer` moves it. */
  function claimLookupKey(key: unknown, self: string | undefined, transfer: boolean) {
    if (typeof key !== 'string' || key === '') return;
    for (const other of prices.values()) {
      if (other.id === self || other.lookup_key !== key) continue;
      if (!transfer)
        throw invalid(
          `A price (\`${other.id as string}\`) already uses that lookup key.`,
          'lookup_key',
          'lookup_key_exists',
        );
      other.lookup_key = null;
    }
  }

  /** A price a customer may be sold now: it exists and is active. */
  function buyable(id: unknown, param: string): Obj {
    const price = prices.get(String(id));
    if (!price) throw noSuch('price', String(id), param);
    if (!price.active) throw invalid('The price specified is inactive. This field only accepts active prices.', param);
    if (products.get(price.product as string)?.active === false)
      throw invalid(`The price specified belongs to an inactive product (${price.product as string}).`, param);
    return price;
  }

  function list(data: Obj[], path: string, p: Obj) {
    const limit = Math.min(num(p.limit) ?? 10, 100);
    let from = 0;
    if (typeof p.starting_after === 'string') from = data.findIndex((d) => d.id === p.starting_after) + 1;
    const page = data.slice(from, from + limit);
    return { object: 'list', data: page, has_more: from + limit < data.length, url: path };
  }
  const where = (map: Map<string, Obj>, p: Obj, fields: string[]) =>
    [...map.values()].filter(
      (o) =>
        createdMatches(o.created, p.created) &&
        fields.every((f) => p[f] === undefined || idOf(o[f]) === p[f] || String(o[f]) === p[f]),
    );

  function paymentFor(customer: unknown, amount: number, currency: unknown) {
    const pi = make('payment_intent', 'pi', {
      amount,
      amount_received: amount,
      currency,
      customer: customer ?? null,
      status: 'succeeded',
    });
    const charge = make('charge', 'ch', {
      amount,
      amount_captured: amount,
      amount_refunded: 0,
      captured: true,
      paid: true,
      refunded: false,
      disputed: false,
      currency,
      customer: customer ?? null,
      payment_intent: pi.id,
      status: 'succeeded',
    });
    pi.latest_charge = charge.id;
    paymentIntents.set(pi.id as string, pi);
    charges.set(charge.id as string, charge);
    return { pi, charge };
  }

  const routes: Route[] = [];
  const route = (method: string, pattern: RegExp, handle: Route['handle']) => routes.push({ method, pattern, handle });

  // Customers
  route('POST', /^\/v1\/customers$/, ({ p }) => {
    const c = make('customer', 'cus', {
      email: p.email ?? null,
      name: p.name ?? null,
      metadata: withMetadata({}, p.metadata),
    });
    customers.set(c.id as string, c);
    return c;
  });
  route('GET', /^\/v1\/customers$/, ({ p, path }) => list(where(customers, p, ['email']), path, p));
  route(
    'GET',
    /^\/v1\/customers\/([^/]+)$/,
    ({ m }) => customers.get(m[0] as string) ?? noSuch('customer', m[0] as string),
  );
  route('POST', /^\/v1\/customers\/([^/]+)$/, ({ m, p }) => {
    const c = customers.get(m[0] as string);
    if (!c) throw noSuch('customer', m[0] as string);
    if (p.email !== undefined) c.email = p.email;
    if (p.name !== undefined) c.name = p.name;
    if (p.metadata !== undefined) c.metadata = withMetadata(c.metadata, p.metadata);
    return c;
  });

  // Products
  route('GET', /^\/v1\/products$/, ({ p, path }) => {
    const ids = p.ids as string[] | undefined;
    const active = bool(p.active);
    const all = [...products.values()].filter(
      (x) => (active === undefined || x.active === active) && (!ids || ids.includes(x.id as string)),
    );
    return list(all, path, p);
  });
  route('POST', /^\/v1\/products$/, ({ p }) => {
    const id = (p.id as string | undefined) ?? next('prod');
    if (products.has(id)) throw invalid(`Product already exists.`, 'id', 'resource_already_exists');
    const product = productObject(id, {
      name: p.name,
      description: p.description ?? null,
      active: bool(p.active) ?? true,
      metadata: withMetadata({}, p.metadata),
    });
    products.set(id, product);
    return product;
  });
  route(
    'GET',
    /^\/v1\/products\/([^/]+)$/,
    ({ m }) => products.get(m[0] as string) ?? noSuch('product', m[0] as string),
  );
  route('POST', /^\/v1\/products\/([^/]+)$/, ({ m, p }) => {
    const product = products.get(m[0] as string);
    if (!product) throw noSuch('product', m[0] as string);
    if (p.name !== undefined) product.name = p.name;
    if (p.description !== undefined) product.description = p.description === '' ? null : p.description;
    if (p.active !== undefined) product.active = bool(p.active);
    if (p.default_price !== undefined) product.default_price = p.default_price === '' ? null : p.default_price;
    if (p.metadata !== undefined) product.metadata = withMetadata(product.metadata, p.metadata);
    product.updated = nowS();
    return product;
  });

  // Prices
  route('GET', /^\/v1\/prices$/, ({ p, path }) => {
    const keys = p.lookup_keys as string[] | undefined;
    const active = bool(p.active);
    const recurring = p.recurring as Obj | undefined;
    const all = [...prices.values()].filter(
      (x) =>
        (active === undefined || x.active === active) &&
        (!keys || keys.includes(x.lookup_key as string)) &&
        (p.product === undefined || x.product === p.product) &&
        (p.type === undefined || x.type === p.type) &&
        (p.currency === undefined || x.currency === p.currency) &&
        (recurring?.interval === undefined || (x.recurring as Obj | null)?.interval === recurring.interval),
    );
    return list(all, path, p);
  });
  route('POST', /^\/v1\/prices$/, ({ p }) => {
    if (!products.has(String(p.product))) throw noSuch('product', String(p.product), 'product');
    const r = p.recurring as Obj | undefined;
    claimLookupKey(p.lookup_key, undefined, bool(p.transfer_lookup_key) ?? false);
    const id = next('price');
    const price = priceObject(id, p.product as string, {
      currency: p.currency,
      unit_amount: Number(p.unit_amount),
      recurring: r
        ? {
            interval: r.interval,
            interval_count: Number(r.interval_count ?? 1),
            meter: null,
            usage_type: 'licensed',
            trial_period_days: null,
          }
        : null,
      type: r ? 'recurring' : 'one_time',
      lookup_key: p.lookup_key ?? null,
      nickname: p.nickname ?? null,
      active: bool(p.active) ?? true,
      metadata: withMetadata({}, p.metadata),
    });
    prices.set(id, price);
    return price;
  });
  route('GET', /^\/v1\/prices\/([^/]+)$/, ({ m }) => prices.get(m[0] as string) ?? noSuch('price', m[0] as string));
  route('POST', /^\/v1\/prices\/([^/]+)$/, ({ m, p }) => {
    const price = prices.get(m[0] as string);
    if (!price) throw noSuch('price', m[0] as string);
    if (p.lookup_key !== undefined) {
      claimLookupKey(p.lookup_key, price.id as string, bool(p.transfer_lookup_key) ?? false);
      price.lookup_key = p.lookup_key === '' ? null : p.lookup_key;
    }
    if (p.active !== undefined) price.active = bool(p.active);
    if (p.nickname !== undefined) price.nickname = p.nickname === '' ? null : p.nickname;
    if (p.metadata !== undefined) price.metadata = withMetadata(price.metadata, p.metadata);
    return price;
  });

  // Checkout sessions
  route('POST', /^\/v1\/checkout\/sessions$/, ({ p }) => {
    const items = (p.line_items as Obj[] | undefined) ?? [];
    if (!items.length) throw invalid('You must provide at least one line item.', 'line_items');
    const lines = items.map((l, i) => ({
      price: buyable(l.price, `line_items[${i}][price]`),
      quantity: Number(l.quantity ?? 1),
    }));
    const recurring = lines.some((l) => l.price.type === 'recurring');
    if (p.mode === 'payment' && recurring)
      throw invalid(
        'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
        'line_items',
      );
    if (p.mode === 'subscription' && !recurring)
      throw invalid(
        'You must provide at least one recurring price in `subscription` mode when using prices.',
        'line_items',
      );
    const amount = lines.reduce((n, l) => n + Number(l.price.unit_amount) * l.quantity, 0);
    const session = make('checkout.session', 'cs_test', {
      mode: p.mode,
      status: 'open',
      payment_status: 'unpaid',
      customer: p.customer ?? null,
      client_reference_id: p.client_reference_id ?? null,
      success_url: p.success_url ?? null,
      cancel_url: p.cancel_url ?? null,
      billing_address_collection: p.billing_address_collection ?? null,
      currency: lines[0]?.price.currency ?? null,
      amount_subtotal: amount,
      amount_total: amount,
      expires_at: nowS() + 24 * 60 * 60,
      metadata: withMetadata({}, p.metadata),
    });
    session.url = `https://checkout.stripe.test/c/pay/${session.id as string}`;
    sessions.set(session.id as string, session);
    sessionLines.set(session.id as string, lines);
    return session;
  });
  route('GET', /^\/v1\/checkout\/sessions$/, ({ p, path }) =>
    list(where(sessions, p, ['customer', 'payment_intent', 'subscription', 'status']), path, p),
  );
  route(
    'GET',
    /^\/v1\/checkout\/sessions\/([^/]+)$/,
    ({ m }) => sessions.get(m[0] as string) ?? noSuch('checkout.session', m[0] as string),
  );
  route('GET', /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/, ({ m, p, path }) => {
    const lines = sessionLines.get(m[0] as string);
    if (!lines) throw noSuch('checkout.session', m[0] as string);
    const data = lines.map((l, i) => ({
      object: 'item',
      id: `li_${m[0] as string}_${i}`,
      price: l.price,
      quantity: l.quantity,
      currency: l.price.currency,
      amount_subtotal: Number(l.price.unit_amount) * l.quantity,
      amount_total: Number(l.price.unit_amount) * l.quantity,
      description: (products.get(l.price.product as string)?.name as string | undefined) ?? null,
    }));
    return list(data, path, p);
  });
  route('POST', /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, ({ m }) => {
    const session = sessions.get(m[0] as string);
    if (!session) throw noSuch('checkout.session', m[0] as string);
    if (session.status !== 'open')
      throw invalid(`Only Checkout Sessions with a status in ["open"] can be expired.`, undefined, 'session_expired');
    session.status = 'expired';
    return session;
  });

  // Subscriptions
  route('GET', /^\/v1\/subscriptions$/, ({ p, path }) => {
    const status = (p.status as string | undefined) ?? 'not_canceled';
    const all = where(subscriptions, { ...p, status: undefined }, ['customer']).filter((s) =>
      status === 'all' ? true : status === 'not_canceled' ? s.status !== 'canceled' : s.status === status,
    );
    return list(all, path, p);
  });
  route(
    'GET',
    /^\/v1\/subscriptions\/([^/]+)$/,
    ({ m }) => subscriptions.get(m[0] as string) ?? noSuch('subscription', m[0] as string),
  );
  route('DELETE', /^\/v1\/subscriptions\/([^/]+)$/, ({ m }) => {
    const sub = subscriptions.get(m[0] as string);
    if (!sub) throw noSuch('subscription', m[0] as string);
    Object.assign(sub, { status: 'canceled', canceled_at: nowS(), ended_at: nowS() });
    return sub;
  });
  route('POST', /^\/v1\/subscriptions\/([^/]+)$/, ({ m, p }) => {
    const sub = subscriptions.get(m[0] as string);
    if (!sub) throw noSuch('subscription', m[0] as string);
    if (p.cancel_at_period_end !== undefined) sub.cancel_at_period_end = bool(p.cancel_at_period_end);
    if (p.metadata !== undefined) sub.metadata = withMetadata(sub.metadata, p.metadata);
    const updates = (p.items as Obj[] | undefined) ?? [];
    const items = (sub.items as { data: Obj[] }).data;
    updates.forEach((u, i) => {
      const item = items.find((x) => x.id === u.id);
      if (u.id !== undefined && !item) throw noSuch('subscription item', String(u.id), `items[${i}][id]`);
      if (u.price === undefined || !item) return;
      item.price = buyable(u.price, `items[${i}][price]`);
      if (u.quantity !== undefined) item.quantity = Number(u.quantity);
    });
    return sub;
  });

  // Invoices, payment intents, charges
  route('GET', /^\/v1\/invoices$/, ({ p, path }) =>
    list(where(invoices, p, ['customer', 'subscription', 'status']), path, p),
  );
  route(
    'GET',
    /^\/v1\/invoices\/([^/]+)$/,
    ({ m }) => invoices.get(m[0] as string) ?? noSuch('invoice', m[0] as string),
  );
  route(
    'GET',
    /^\/v1\/payment_intents\/([^/]+)$/,
    ({ m }) => paymentIntents.get(m[0] as string) ?? noSuch('payment_intent', m[0] as string),
  );
  route('GET', /^\/v1\/charges\/([^/]+)$/, ({ m }) => charges.get(m[0] as string) ?? noSuch('charge', m[0] as string));

  // Refunds and disputes
  route('POST', /^\/v1\/refunds$/, ({ p }) => {
    const pi = p.payment_intent === undefined ? undefined : paymentIntents.get(String(p.payment_intent));
    const charge = pi
      ? charges.get(pi.latest_charge as string)
      : p.charge === undefined
        ? undefined
        : charges.get(String(p.charge));
    if (p.charge !== undefined && !charge) throw noSuch('charge', String(p.charge), 'charge');
    const left = charge ? Number(charge.amount) - Number(charge.amount_refunded) : undefined;
    const amount = num(p.amount) ?? left ?? 0;
    if (left !== undefined && amount > left)
      throw invalid(
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
        'amount',
        'amount_too_large',
      );
    const refund = make('refund', 're', {
      amount,
      currency: charge?.currency ?? 'gbp',
      charge: charge?.id ?? null,
      payment_intent: p.payment_intent ?? charge?.payment_intent ?? null,
      status: 'succeeded',
      reason: p.reason ?? null,
      metadata: withMetadata({}, p.metadata),
    });
    refunds.set(refund.id as string, refund);
    if (charge) {
      charge.amount_refunded = Number(charge.amount_refunded) + amount;
      charge.refunded = charge.amount_refunded === charge.amount;
    }
    return refund;
  });
  route('GET', /^\/v1\/refunds$/, ({ p, path }) => list(where(refunds, p, ['payment_intent', 'charge']), path, p));
  route('GET', /^\/v1\/refunds\/([^/]+)$/, ({ m }) => refunds.get(m[0] as string) ?? noSuch('refund', m[0] as string));
  route('GET', /^\/v1\/disputes$/, ({ p, path }) => list(where(disputes, p, ['payment_intent', 'charge']), path, p));
  route(
    'GET',
    /^\/v1\/disputes\/([^/]+)$/,
    ({ m }) => disputes.get(m[0] as string) ?? noSuch('dispute', m[0] as string),
  );

  // Billing portal
  route('POST', /^\/v1\/billing_portal\/sessions$/, ({ p }) => {
    const s = make('billing_portal.session', 'bps', {
      customer: p.customer,
      return_url: p.return_url ?? null,
      flow: null,
      configuration: [...portalConfigurations.values()].find((c) => c.is_default)?.id ?? null,
    });
    s.url = `https://billing.stripe.test/p/session/${s.id as string}`;
    return s;
  });
  route('GET', /^\/v1\/billing_portal\/configurations$/, ({ p, path }) => {
    const active = bool(p.active);
    const isDefault = bool(p.is_default);
    const all = [...portalConfigurations.values()].filter(
      (c) => (active === undefined || c.active === active) && (isDefault === undefined || c.is_default === isDefault),
    );
    return list(all, path, p);
  });

  // Webhook endpoints
  route('GET', /^\/v1\/webhook_endpoints$/, ({ p, path }) => list([...webhookEndpoints.values()], path, p));
  route('POST', /^\/v1\/webhook_endpoints$/, ({ p }) => {
    const endpoint = make('webhook_endpoint', 'we', {
      url: p.url,
      enabled_events: p.enabled_events ?? [],
      api_version: p.api_version ?? null,
      status: 'enabled',
      description: p.description ?? null,
    });
    webhookEndpoints.set(endpoint.id as string, endpoint);
    return { ...endpoint, secret: `whsec_${endpoint.id as string}` };
  });

  /** Answers a request: the saved answer of its idempotency key, or the route's. */
  function dispatch(method: string, path: string, p: Obj): { status: number; json: unknown; saved: boolean } {
    for (const r of routes) {
      if (r.method !== method) continue;
      const match = r.pattern.exec(path);
      if (!match) continue;
      try {
        const json = r.handle({ method, path, p, m: match.slice(1).map((s) => decodeURIComponent(s)) });
        if (json instanceof StripeFailure) throw json;
        return { status: 200, json, saved: true };
      } catch (err) {
        if (!(err instanceof StripeFailure)) throw err;
        return { status: err.status, json: { error: err.error }, saved: err.saved };
      }
    }
    return {
      status: 404,
      json: {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${method}: ${path}).`,
        },
      },
      saved: false,
    };
  }

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const raw = await body(req);
    const flat = Object.fromEntries(new URLSearchParams(raw));
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const key = req.headers['idempotency-key'] as string | undefined;
    if (method === 'POST') posts.push({ path, params: flat, idempotencyKey: key });
    requests.push(`${method} ${path}`);
    const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': next('req'), ...headers });
      res.end(JSON.stringify(json));
    };
    if (hanging.has(path)) {
      held.push(res);
      return;
    }
    const secret = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (revokedKeys.has(secret))
      return send(401, {
        error: {
          type: 'invalid_request_error',
          message: `Invalid API Key provided: ${secret.slice(0, 8)}*****${secret.slice(-4)}`,
        },
      });
    if (failing.has(path))
      return send(500, { error: { type: 'api_error', message: 'The stand-in was told to fail this call.' } });
    const p = parseForm(method === 'POST' ? new URLSearchParams(raw) : url.searchParams);
    // Stripe compares the parameters of a repeated key, not their order.
    const request = `${method} ${path} ${JSON.stringify(Object.entries(flat).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
    if (method === 'POST' && key) {
      const saved = idempotency.get(key);
      if (saved && standIn.now() - saved.at < DAY_MS) {
        if (saved.request !== request)
          return send(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            },
          });
        return send(saved.status, saved.json, { 'idempotent-replayed': 'true', 'idempotency-key': key });
      }
    }
    const answer = dispatch(method, path, p);
    if (method === 'POST' && key && answer.saved && answer.status < 500)
      idempotency.set(key, { at: standIn.now(), request, status: answer.status, json: structuredClone(answer.json) });
    return send(answer.status, answer.json, key ? { 'idempotency-key': key } : {});
  });

  function complete(sessionId: string, details: Partial<CustomerDetails> = {}): Obj {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`stand-in: no checkout session ${sessionId}`);
    const lines = sessionLines.get(sessionId) ?? [];
    const d: CustomerDetails = {
      name: 'Grace Hopper',
      email: 'grace@example.test',
      line1: '2 Compiler Way',
      city: 'Arlington',
      postal_code: '22201',
      country: 'US',
      ...details,
    };
    const customer = session.customer ?? null;
    const amount = Number(session.amount_total ?? 0);
    const { pi } = paymentFor(customer, amount, session.currency);
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      customer_details: {
        address: {
          city: d.city,
          country: d.country,
          line1: d.line1,
          line2: null,
          postal_code: d.postal_code,
          state: null,
        },
        email: d.email,
        name: d.name,
        phone: null,
        tax_exempt: 'none',
        tax_ids: [],
        business_name: null,
        individual_name: null,
      },
    });
    if (session.mode !== 'subscription') {
      session.payment_intent = pi.id;
      return session;
    }
    const start = nowS();
    const subId = next('sub');
    const items = lines
      .filter((l) => l.price.type === 'recurring')
      .map((l) => {
        const r = l.price.recurring as { interval: string; interval_count: number };
        return stripeObject('subscription_item', {
          id: next('si'),
          created: start,
          metadata: {},
          price: l.price,
          quantity: l.quantity,
          subscription: subId,
          current_period_start: start,
          current_period_end: addInterval(start, r.interval, r.interval_count),
        });
      });
    const invoice = make('invoice', 'in', {
      customer,
      status: 'paid',
      amount_due: amount,
      amount_paid: amount,
      amount_remaining: 0,
      subtotal: amount,
      total: amount,
      currency: session.currency,
      billing_reason: 'subscription_create',
      period_start: start,
      period_end: start,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { metadata: {}, subscription: subId },
      },
      lines: { object: 'list', has_more: false, url: '/v1/invoices/lines', data: [] },
      payments: {
        object: 'list',
        has_more: false,
        data: [
          { object: 'invoice_payment', status: 'paid', payment: { type: 'payment_intent', payment_intent: pi.id } },
        ],
      },
      status_transitions: { finalized_at: start, marked_uncollectible_at: null, paid_at: start, voided_at: null },
    });
    invoices.set(invoice.id as string, invoice);
    const sub = stripeObject('subscription', {
      id: subId,
      created: start,
      start_date: start,
      billing_cycle_anchor: start,
      livemode: false,
      customer,
      currency: session.currency,
      status: 'active',
      metadata: {},
      latest_invoice: invoice.id,
      items: { object: 'list', has_more: false, url: `/v1/subscription_items?subscription=${subId}`, data: items },
    });
    subscriptions.set(subId, sub);
    Object.assign(session, { subscription: subId, invoice: invoice.id });
    return session;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(standIn, {
    url: `http://127.0.0.1:${port}`,
    sessions,
    posts,
    customers,
    products,
    prices,
    subscriptions,
    invoices,
    paymentIntents,
    charges,
    refunds,
    disputes,
    webhookEndpoints,
    portalConfigurations,
    requests,
    failing,
    hanging,
    revokedKeys,
    make,
    complete,
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of held) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
