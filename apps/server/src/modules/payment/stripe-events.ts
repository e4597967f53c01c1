import type Stripe from 'stripe';

/**
 * Every Stripe event the portal handles: what the webhook endpoint at PUBLIC_URL/api/stripe/webhook
 * must send (docs/operations.md, "Payments: the sandbox and Stripe"), and what `portal-admin
 * stripe:check` compares the endpoint's enabled events with. An event handled in
 * stripe-webhook.routes.ts or billing.service.ts is listed here too.
 */
export const STRIPE_WEBHOOK_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
  'charge.refunded',
  'charge.dispute.created',
  'charge.dispute.closed',
] as const satisfies readonly Stripe.WebhookEndpointCreateParams.EnabledEvent[];

export type StripeWebhookEvent = (typeof STRIPE_WEBHOOK_EVENTS)[number];
