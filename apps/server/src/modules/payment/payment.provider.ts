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
  /** A new customer for the user; answers its id. */
  createCustomer(user: { userId: string; email: string }): Promise<string>;
  /** A hosted checkout for lines the server priced; answers its id and where to send the browser. */
  createCheckoutSession(input: CheckoutInput): Promise<{ id: string; url: string }>;
  /** Whether the provider holds the session as paid, with what its checkout collected. */
  retrieveSession(id: string): Promise<ProviderSession>;
}

export interface CheckoutInput {
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
}

/** The success URL with `session_id` appended, as the success page reads it (ConfirmPurchase). */
export function withSessionId(url: string, sessionId: string): string {
  const u = new URL(url);
  u.searchParams.set('session_id', sessionId);
  return u.toString();
}
