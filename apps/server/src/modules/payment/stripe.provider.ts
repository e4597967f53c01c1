import { type PaymentPrice, type PaymentProduct, paymentPrice } from '@portal/contract';
import Stripe from 'stripe';
import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import type {
  CheckoutInput,
  PaymentProvider,
  PlanChangeInput,
  PlanChangePreview,
  ProviderSession,
} from './payment.provider.ts';

/** How long Stripe's catalogue is reused: the spec's products go stale after 5 minutes (spec/001 §7). */
const CATALOGUE_TTL_MS = 60_000;

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** a stand-in of Stripe's API (tests); Stripe's own by default */
  apiBase?: string | undefined;
  /** how long one attempt waits (STRIPE_TIMEOUT_MS) */
  timeoutMs?: number | undefined;
  /** attempts after the first (STRIPE_MAX_RETRIES) */
  maxNetworkRetries?: number | undefined;
}

/** The Stripe settings of a configuration with STRIPE_SECRET_KEY set (the server's provider, the CLI's commands). */
export function stripeSettings(
  config: Pick<
    Config,
    'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_BASE' | 'STRIPE_TIMEOUT_MS' | 'STRIPE_MAX_RETRIES'
  >,
): StripeSettings {
  return {
    secretKey: config.STRIPE_SECRET_KEY ?? '',
    webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? '',
    apiBase: config.STRIPE_API_BASE,
    timeoutMs: config.STRIPE_TIMEOUT_MS,
    maxNetworkRetries: config.STRIPE_MAX_RETRIES,
  };
}

/** The SDK client: Stripe's API, or the stand-in at apiBase (tests, docs/decisions/017). */
export function stripeClient(
  settings: Pick<StripeSettings, 'secretKey' | 'apiBase' | 'timeoutMs' | 'maxNetworkRetries'>,
): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : undefined;
  return new Stripe(settings.secretKey, {
    // docs/decisions/064: 3 attempts of 3 s by default, so a stalled Stripe is given up within ~10 s.
    maxNetworkRetries: settings.maxNetworkRetries ?? 2,
    timeout: settings.timeoutMs ?? 3_000,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/** A Stripe price as the contract has it; one in a currency or shape the portal does not sell is left out. */
function priceOf(p: Stripe.Price): PaymentPrice | undefined {
  const parsed = paymentPrice.safeParse({
    id: p.id,
    currency: p.currency,
    unit_amount: p.unit_amount,
    recurring: p.recurring ? { interval: p.recurring.interval, interval_count: p.recurring.interval_count } : null,
    type: p.type,
  });
  return parsed.success ? parsed.data : undefined;
}

/**
 * Stripe through its official SDK (docs/decisions/017): products and prices carry the spec's
 * metadata (pushed by `catalogue:push`), drivers and plans are subscriptions, time packages
 * one-time prices; a cart with both is one Checkout Session in subscription mode.
 */
export class StripeProvider implements PaymentProvider {
  readonly kind = 'stripe';
  readonly stripe: Stripe;
  private cached: Partial<Record<'active' | 'known', { at: number; products: PaymentProduct[] }>> = {};

  constructor(
    private readonly settings: StripeSettings,
    private readonly clock: Clock,
  ) {
    this.stripe = stripeClient(settings);
  }

  /** The catalogue customers can buy from: active products and their active prices. */
  async products(): Promise<PaymentProduct[]> {
    return this.catalogue('active');
  }

  /**
   * Every product and price an existing row may name, archived ones included (catalogue:push archives
   * replaced prices; their subscribers keep them, docs/decisions/063): the tier rule, renewals,
   * refunds and webhooks read this.
   */
  knownProducts(): Promise<PaymentProduct[]> {
    return this.catalogue('known');
  }

  private async catalogue(which: 'active' | 'known'): Promise<PaymentProduct[]> {
    const now = this.clock.now().getTime();
    const cached = this.cached[which];
    if (cached && now - cached.at < CATALOGUE_TTL_MS) return cached.products;
    const filter = which === 'active' ? { active: true } : {};
    const [products, prices] = await Promise.all([
      this.stripe.products.list({ ...filter, limit: 100 }).autoPagingToArray({ limit: 1000 }),
      this.stripe.prices.list({ ...filter, limit: 100 }).autoPagingToArray({ limit: 5000 }),
    ]);
    const answer = products.map(
      (p): PaymentProduct => ({
        id: p.id,
        name: p.name,
        description: p.description ?? '',
        metadata: { ...p.metadata },
        prices: prices
          .filter((x) => (typeof x.product === 'string' ? x.product : x.product.id) === p.id)
          .map(priceOf)
          .filter((x): x is PaymentPrice => x !== undefined),
      }),
    );
    this.cached[which] = { at: now, products: answer };
    return answer;
  }

  async createCustomer(user: { userId: string; email: string }): Promise<string> {
    // The key makes a retried first call create one customer, not two.
    const customer = await this.stripe.customers.create(
      { email: user.email, metadata: { user_id: user.userId } },
      { idempotencyKey: `portal-customer-${user.userId}` },
    );
    return customer.id;
  }

  async createCheckoutSession(input: CheckoutInput): Promise<{ id: string; url: string }> {
    const recurring = input.lines.some((l) => l.interval !== null);
    // Stripe fills {CHECKOUT_SESSION_ID} in; URLSearchParams would escape its braces.
    const successUrl = `${input.successUrl}${input.successUrl.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`;
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: recurring ? 'subscription' : 'payment',
        customer: input.customerId,
        client_reference_id: input.userId,
        line_items: input.lines.map((l) => ({ price: l.price_id, quantity: l.quantity })),
        success_url: successUrl,
        cancel_url: input.cancelUrl,
        billing_address_collection: 'required',
        metadata: { user_id: input.userId },
      },
      { idempotencyKey: input.idempotencyKey },
    );
    if (!session.url) throw new Error(`Stripe gave checkout session ${session.id} no url`);
    return { id: session.id, url: session.url };
  }

  async retrieveSession(id: string): Promise<ProviderSession> {
    return sessionState(await this.stripe.checkout.sessions.retrieve(id));
  }

  async changePlan(input: PlanChangeInput & { idempotencyKey: string }) {
    const item = await this.planItem(input);
    // One subscription changes price in place: never a second plan. The difference is invoiced now.
    // The key is the intent's (docs/decisions/066), never the parameters: Standard -> Pro -> Standard
    // -> Pro is two intents to go to Pro, and a key made of the prices would replay the first.
    await this.stripe.subscriptions.update(
      input.subscriptionId,
      {
        items: [{ id: item.id, price: input.toPriceId }],
        proration_behavior: 'always_invoice',
        ...(input.prorationDate ? { proration_date: input.prorationDate } : {}),
      },
      { idempotencyKey: input.idempotencyKey },
    );
  }

  async previewPlanChange(input: PlanChangeInput & { prorationDate: number }): Promise<PlanChangePreview> {
    const sub = await this.stripe.subscriptions.retrieve(input.subscriptionId, {
      expand: ['default_payment_method', 'customer.invoice_settings.default_payment_method'],
    });
    const item = planItemOf(sub, input.planPriceIds);
    // The invoice the update would make, at the same pinned proration date Confirm sends.
    const invoice = await this.stripe.invoices.createPreview({
      subscription: sub.id,
      subscription_details: {
        items: [{ id: item.id, price: input.toPriceId }],
        proration_date: input.prorationDate,
        proration_behavior: 'always_invoice',
      },
    });
    return {
      amountDue: invoice.amount_due,
      periodEnd: Math.max(0, ...sub.items.data.map((i) => i.current_period_end ?? 0)),
      card: cardOf(sub),
    };
  }

  /** The plan's item of a subscription (the first item when none holds a plan price). */
  private async planItem(input: Pick<PlanChangeInput, 'subscriptionId' | 'planPriceIds'>) {
    return planItemOf(await this.stripe.subscriptions.retrieve(input.subscriptionId), input.planPriceIds);
  }

  async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean) {
    await this.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel });
  }

  async cancelNow(subscriptionId: string) {
    try {
      await this.stripe.subscriptions.cancel(subscriptionId);
    } catch (err) {
      // Already cancelled at Stripe: nothing is billing, which is what was asked.
      if ((err as { code?: string }).code !== 'resource_missing') throw err;
    }
  }

  async billingPortal(input: { customerId: string; returnUrl: string }) {
    const session = await this.stripe.billingPortal.sessions.create({
      customer: input.customerId,
      return_url: input.returnUrl,
    });
    return session.url;
  }

  async refund(input: { providerRef: string; amount: number; idempotencyKey: string }) {
    let paymentIntent = input.providerRef;
    if (paymentIntent.startsWith('in_')) {
      // A subscription's invoice: its payment is the payment intent to refund.
      const invoice = await this.stripe.invoices.retrieve(paymentIntent, { expand: ['payments'] });
      const pi = invoice.payments?.data.find((p) => p.payment.payment_intent)?.payment.payment_intent;
      paymentIntent = typeof pi === 'string' ? pi : (pi?.id ?? '');
    }
    if (!paymentIntent.startsWith('pi_')) throw new Error(`no Stripe payment to refund for ${input.providerRef}`);
    const refund = await this.stripe.refunds.create(
      { payment_intent: paymentIntent, amount: input.amount },
      { idempotencyKey: input.idempotencyKey },
    );
    return refund.id;
  }

  /** The event of a webhook call, if its signature over the raw body verifies; throws otherwise. */
  verifyEvent(rawBody: Buffer | string, signature: string): Stripe.Event {
    return this.stripe.webhooks.constructEvent(rawBody, signature, this.settings.webhookSecret);
  }
}

function planItemOf(sub: Stripe.Subscription, planPriceIds: readonly string[]): Stripe.SubscriptionItem {
  const item = sub.items.data.find((i) => planPriceIds.includes(i.price.id)) ?? sub.items.data[0];
  if (!item) throw new Error(`Stripe subscription ${sub.id} has no items`);
  return item;
}

/** The card a subscription charges ("Visa ending 4242"): its default payment method, else its customer's. */
function cardOf(sub: Stripe.Subscription): string | undefined {
  const customer =
    typeof sub.customer === 'object' && sub.customer && !('deleted' in sub.customer) ? sub.customer : undefined;
  const method = sub.default_payment_method ?? customer?.invoice_settings?.default_payment_method;
  const card = typeof method === 'object' && method ? method.card : undefined;
  if (!card) return undefined;
  const brand = card.brand ? card.brand.charAt(0).toUpperCase() + card.brand.slice(1) : 'Card';
  return `${brand} ending ${card.last4}`;
}

/** What a Stripe Checkout Session says about payment, in the provider interface's words. */
export function sessionState(s: Stripe.Checkout.Session): ProviderSession {
  const d = s.customer_details;
  return {
    paid: s.status === 'complete' && (s.payment_status === 'paid' || s.payment_status === 'no_payment_required'),
    expired: s.status === 'expired',
    billing: d
      ? {
          name: d.name ?? '',
          email: d.email ?? '',
          line1: d.address?.line1 ?? '',
          city: d.address?.city ?? '',
          postcode: d.address?.postal_code ?? '',
          country: d.address?.country ?? '',
        }
      : undefined,
    subscriptionId: typeof s.subscription === 'string' ? s.subscription : (s.subscription?.id ?? undefined),
    // What a refund is made against: the payment (one-time mode) or the first invoice (subscription mode).
    paymentRef:
      (typeof s.payment_intent === 'string' ? s.payment_intent : s.payment_intent?.id) ??
      (typeof s.invoice === 'string' ? s.invoice : s.invoice?.id) ??
      undefined,
    paymentIntentId: paymentIntentOfSession(s),
  };
}

/** A session's PaymentIntent: its own (payment mode), or its invoice's payment when the invoice is expanded. */
function paymentIntentOfSession(s: Stripe.Checkout.Session): string | undefined {
  const own = typeof s.payment_intent === 'string' ? s.payment_intent : s.payment_intent?.id;
  if (own) return own;
  if (!s.invoice || typeof s.invoice === 'string') return undefined;
  const pi = s.invoice.payments?.data.find((p) => p.payment?.payment_intent)?.payment.payment_intent;
  return typeof pi === 'string' ? pi : (pi?.id ?? undefined);
}
