import type { Currency, PaymentProduct } from '@portal/contract';
import type { BillingDetails, SessionLine } from '../../db/tables/payment.ts';

/**
 * A payment provider (docs/architecture.md#commerce): Stripe when its keys are set, else the
 * built-in sandbox. The payment service calls only this interface, so HandlePurchase,
 * ConfirmPurchase and fulfilment are one code path for both.
 */
export interface PaymentProvider {
  readonly kind: 'sandbox' | 'stripe';
  /** The catalogue customers can buy from: the sandbox's file, or Stripe's active products. */
  products(): Promise<PaymentProduct[]>;
  /**
   * Every product and price an existing row may name, archived ones included: what renewals, the
   * tier rule (planOfPrice), refunds and webhooks read, so archiving a price never strips its
   * subscribers. New checkouts and GetProducts read `products()` (active only).
   */
  knownProducts(): Promise<PaymentProduct[]>;
  /** A new customer for the user; answers its id. */
  createCustomer(user: { userId: string; email: string }): Promise<string>;
  /** A hosted checkout for lines the server priced; answers its id and where to send the browser. */
  createCheckoutSession(input: CheckoutInput): Promise<{ id: string; url: string }>;
  /** Whether the provider holds the session as paid, with what its checkout collected. */
  retrieveSession(id: string): Promise<ProviderSession>;

  // Subscriptions (docs/decisions/019). The sandbox's subscriptions are the portal's own rows, so
  // its versions only answer; the portal's lifecycle applies the change for both.
  /**
   * Moves the plan item of a provider subscription to another price, prorated at once (as of
   * `prorationDate`, seconds, when the customer reviewed a preview). The key is the plan-change
   * intent's (docs/decisions/066): a retry is the same key, a new change a new one.
   */
  changePlan(input: PlanChangeInput & { idempotencyKey: string }): Promise<void>;
  /**
   * What `changePlan` at `prorationDate` would invoice now, for the customer's review; nothing is
   * charged. Undefined from the sandbox, whose subscriptions the portal prorates itself.
   */
  previewPlanChange(input: PlanChangeInput & { prorationDate: number }): Promise<PlanChangePreview | undefined>;
  /** Cancels at the end of the current period (true) or takes that back (false). */
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<void>;
  /** Cancels now: nothing more is charged. */
  cancelNow(subscriptionId: string): Promise<void>;
  /** A billing-portal session for the customer; answers where to send the browser. */
  billingPortal(input: { customerId: string; userId: string; returnUrl: string }): Promise<string>;
  /** Refunds `amount` minor units of a charge; answers the refund's id. The key makes a retry refund once. */
  refund(input: { providerRef: string; amount: number; idempotencyKey: string }): Promise<string>;
}

export interface PlanChangeInput {
  subscriptionId: string;
  toPriceId: string;
  /** every plan price, to find the plan's item among a subscription's items */
  planPriceIds: readonly string[];
  /** seconds since the epoch: the moment the proration is computed for */
  prorationDate?: number | undefined;
}

export interface PlanChangePreview {
  /** what the change invoices now, minor units */
  amountDue: number;
  /** seconds since the epoch: the end of the subscription's current period (its next renewal) */
  periodEnd: number;
  /** the card that is charged, as the review shows it ("Visa ending 4242"), when the provider knows it */
  card?: string | undefined;
}

export interface CheckoutInput {
  /** the checkout intent's key (docs/decisions/066): a retried request makes one session */
  idempotencyKey: string;
  customerId: string;
  userId: string;
  lines: SessionLine[];
  currency: Currency;
  /** the caller's success_url; the provider arranges for `session_id` to be appended to it */
  successUrl: string;
  cancelUrl: string;
}

export interface ProviderSession {
  paid: boolean;
  /** the provider expired it: nothing will be granted */
  expired: boolean;
  billing?: BillingDetails | undefined;
  subscriptionId?: string | undefined;
  /** the charge a refund is made against (Stripe: a payment intent or an invoice) */
  paymentRef?: string | undefined;
  /**
   * Stripe's PaymentIntent of the payment (the session's, or its first invoice's when the invoice
   * came expanded): a charge or dispute event finds the payment row by it (issue 31)
   */
  paymentIntentId?: string | undefined;
}

/** The success URL with `session_id` appended, as the success page reads it (ConfirmPurchase). */
export function withSessionId(url: string, sessionId: string): string {
  const u = new URL(url);
  u.searchParams.set('session_id', sessionId);
  return u.toString();
}
