import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Catalogue } from '../modules/payment/catalogue.ts';

/**
 * A local stand-in of the part of Stripe's API the portal uses, for tests: Stripe cannot be reached
 * from our machines (docs/decisions/017), so the real SDK is pointed here through its host, port
 * and protocol options. It keeps what it was sent, so tests can check the calls.
 */
export interface StandIn {
  url: string;
  /** checkout sessions by id, as Stripe would answer them; tests mark them paid */
  sessions: Map<string, Record<string, unknown>>;
  /** the form parameters of every POST, by path */
  posts: { path: string; params: Record<string, string> }[];
  products: Map<string, Record<string, unknown>>;
  prices: Map<string, Record<string, unknown>>;
  /** subscriptions by id, as Stripe would answer them; tests put them here when a checkout completes */
  subscriptions: Map<string, Record<string, unknown>>;
  /** invoices by id (a subscription checkout's refund finds its payment intent through one) */
  invoices: Map<string, Record<string, unknown>>;
  /** every request as `METHOD /path`, in order */
  requests: string[];
  /** paths that answer 500 (a provider outage, for tests) */
  failing: Set<string>;
  /** refunds made at the stand-in (the Stripe Dashboard's, in tests), by id: listed with GET /v1/refunds */
  dashboardRefunds: Map<string, Record<string, unknown>>;
  /** disputes by id: listed with GET /v1/disputes */
  disputes: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => {
      data += c;
    });
    req.on('end', () => resolve(data));
  });

const list = (data: unknown[], url: string) => ({ object: 'list', data, has_more: false, url });

/** Flat form keys (`metadata[BOW_UUID]`) back into objects, one level deep as the portal sends them. */
function nest(params: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    const m = new RegExp(`^${prefix}\\[([^\\]]+)\\]$`).exec(k);
    if (m?.[1]) out[m[1]] = v;
  }
  return out;
}

export async function startStripeStandIn(catalogue?: Catalogue): Promise<StandIn> {
  const sessions = new Map<string, Record<string, unknown>>();
  const products = new Map<string, Record<string, unknown>>();
  const prices = new Map<string, Record<string, unknown>>();
  const posts: StandIn['posts'] = [];
  const subscriptions = new Map<string, Record<string, unknown>>();
  const invoices = new Map<string, Record<string, unknown>>();
  const requests: string[] = [];
  const failing = new Set<string>();
  const dashboardRefunds = new Map<string, Record<string, unknown>>();
  const disputes = new Map<string, Record<string, unknown>>();
  let counter = 0;
  const next = (prefix: string) => `${prefix}_${(++counter).toString().padStart(6, '0')}`;

  const priceObject = (id: string, product: string, p: Record<string, unknown>) => ({
    object: 'price',
    id,
    product,
    active: true,
    ...p,
  });
  for (const product of catalogue?.products ?? []) {
    products.set(product.id, {
      object: 'product',
      id: product.id,
      name: product.name,
      description: product.description,
      active: true,
      metadata: product.metadata,
    });
    for (const price of product.prices) {
      // Stripe makes its own price ids; the catalogue's id is the lookup key.
      const id = next('price');
      prices.set(
        id,
        priceObject(id, product.id, {
          currency: price.currency,
          unit_amount: price.unit_amount,
          recurring: price.recurring ?? null,
          type: price.type,
          lookup_key: price.id,
        }),
      );
    }
  }

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const params = Object.fromEntries(new URLSearchParams(await body(req)));
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': next('req') });
      res.end(JSON.stringify(json));
    };
    const missing = () =>
      send(404, {
        error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such object: ${url.pathname}` },
      });
    if (req.method === 'POST') posts.push({ path: url.pathname, params });
    const path = url.pathname;
    requests.push(`${req.method} ${path}`);
    if (failing.has(path))
      return send(500, { error: { type: 'api_error', message: 'The stand-in was told to fail this call.' } });
    // The reconciliation's lists (issue 31): Stripe's list endpoints with `created[gte]` (and an
    // invoice's `status`), newest first, one page.
    if (req.method === 'GET') {
      const listed: Record<string, () => Record<string, unknown>[]> = {
        '/v1/subscriptions': () => [...subscriptions.values()],
        '/v1/invoices': () => [...invoices.values()],
        '/v1/refunds': () => [...dashboardRefunds.values()],
        '/v1/disputes': () => [...disputes.values()],
      };
      const all = listed[path];
      if (all) {
        const gte = Number(url.searchParams.get('created[gte]') ?? 0);
        const status = url.searchParams.get('status');
        const data = all()
          .filter((o) => typeof o.created !== 'number' || o.created >= gte)
          .filter((o) => path !== '/v1/invoices' || !status || o.status === status)
          .sort((a, b) => Number(b.created ?? 0) - Number(a.created ?? 0));
        return send(200, list(data, path));
      }
    }
    const subscriptionPath = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (subscriptionPath) {
      const sub = subscriptions.get(decodeURIComponent(subscriptionPath[1] as string));
      if (!sub) return missing();
      if (req.method === 'GET') return send(200, sub);
      if (req.method === 'DELETE') {
        Object.assign(sub, { status: 'canceled' });
        return send(200, sub);
      }
      if (params.cancel_at_period_end !== undefined) sub.cancel_at_period_end = params.cancel_at_period_end === 'true';
      const itemId = params['items[0][id]'];
      const priceId = params['items[0][price]'];
      if (itemId && priceId) {
        const items = (sub.items as { data: { id: string; price: Record<string, unknown> }[] }).data;
        const item = items.find((i) => i.id === itemId);
        const price = prices.get(priceId);
        if (!item || !price) return missing();
        item.price = price;
      }
      return send(200, sub);
    }
    const invoicePath = /^\/v1\/invoices\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && invoicePath) {
      const invoice = invoices.get(decodeURIComponent(invoicePath[1] as string));
      return invoice ? send(200, invoice) : missing();
    }
    if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
      const id = next('bps');
      return send(200, {
        object: 'billing_portal.session',
        id,
        customer: params.customer,
        return_url: params.return_url,
        url: `https://billing.stripe.test/p/session/${id}`,
      });
    }
    if (req.method === 'POST' && path === '/v1/refunds')
      return send(200, {
        object: 'refund',
        id: next('re'),
        amount: Number(params.amount),
        payment_intent: params.payment_intent,
        status: 'succeeded',
      });
    const productPath = /^\/v1\/products\/([^/]+)$/.exec(path);
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);

    if (req.method === 'POST' && path === '/v1/customers')
      return send(200, {
        object: 'customer',
        id: next('cus'),
        email: params.email,
        metadata: nest(params, 'metadata'),
      });
    if (req.method === 'GET' && path === '/v1/products')
      return send(
        200,
        list(
          [...products.values()].filter((p) => p.active),
          path,
        ),
      );
    if (req.method === 'GET' && path === '/v1/prices') {
      const keys = url.searchParams.getAll('lookup_keys[]').concat(url.searchParams.getAll('lookup_keys[0]'));
      const all = [...prices.values()].filter(
        (p) => p.active && (!keys.length || keys.includes(p.lookup_key as string)),
      );
      return send(200, list(all, path));
    }
    if (productPath) {
      const id = decodeURIComponent(productPath[1] as string);
      const existing = products.get(id);
      if (req.method === 'GET') return existing ? send(200, existing) : missing();
      if (!existing) return missing();
      const updated = {
        ...existing,
        name: params.name ?? existing.name,
        description: params.description ?? existing.description,
        metadata: { ...(existing.metadata as object), ...nest(params, 'metadata') },
      };
      products.set(id, updated);
      return send(200, updated);
    }
    if (req.method === 'POST' && path === '/v1/products') {
      const product = {
        object: 'product',
        id: params.id ?? next('prod'),
        name: params.name,
        description: params.description ?? null,
        active: true,
        metadata: nest(params, 'metadata'),
      };
      products.set(product.id as string, product);
      return send(200, product);
    }
    if (req.method === 'POST' && path === '/v1/prices') {
      const id = next('price');
      const recurring = params['recurring[interval]']
        ? { interval: params['recurring[interval]'], interval_count: Number(params['recurring[interval_count]'] ?? 1) }
        : null;
      const price = priceObject(id, params.product as string, {
        currency: params.currency,
        unit_amount: Number(params.unit_amount),
        recurring,
        type: recurring ? 'recurring' : 'one_time',
        lookup_key: params.lookup_key ?? null,
      });
      prices.set(id, price);
      return send(200, price);
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const id = next('cs_test');
      const session = {
        object: 'checkout.session',
        id,
        url: `https://checkout.stripe.test/c/pay/${id}`,
        mode: params.mode,
        status: 'open',
        payment_status: 'unpaid',
        customer: params.customer,
        client_reference_id: params.client_reference_id,
        success_url: params.success_url,
        cancel_url: params.cancel_url,
        customer_details: null,
        subscription: null,
        metadata: nest(params, 'metadata'),
      };
      sessions.set(id, session);
      return send(200, session);
    }
    if (req.method === 'GET' && sessionPath) {
      const session = sessions.get(decodeURIComponent(sessionPath[1] as string));
      return session ? send(200, session) : missing();
    }
    return missing();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sessions,
    posts,
    products,
    prices,
    subscriptions,
    invoices,
    requests,
    failing,
    dashboardRefunds,
    disputes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
