import { ApiError, OK } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type Stripe from 'stripe';
import type { RouteOptions } from '../../services.ts';
import { StripeProvider, sessionState } from './stripe.provider.ts';
import type { EventOutcome } from './stripe-events.service.ts';

/** The webhook's path: not an action of the contract (contract-coverage.test.ts lists it). */
export const STRIPE_WEBHOOK_PATH = '/api/stripe/webhook';

/**
 * Stripe's webhook (docs/decisions/017). Its signature is over the exact bytes Stripe sent, so this
 * plugin parses JSON as a raw buffer (encapsulated: no other route sees that parser) and the route
 * skips the browser CSRF check through its config. Each event is applied once: its id is inserted in
 * the transaction that applies it (decision 065), so a replay or a concurrent delivery changes
 * nothing and a failed handling, rolled back, is retried by Stripe.
 */
async function stripeWebhookRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const { payments, billing } = services;

  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_request, body, done) =>
    done(null, body),
  );

  app.post(STRIPE_WEBHOOK_PATH, { config: { csrf: false } }, async (request) => {
    const provider = payments.provider;
    if (!(provider instanceof StripeProvider))
      throw new ApiError('NOT_FOUND', 'url: Stripe is not configured; this server sells through the sandbox');
    const header = request.headers['stripe-signature'];
    const signature = Array.isArray(header) ? header[0] : header;
    let event: Stripe.Event;
    try {
      if (!signature) throw new ApiError('VALIDATION', 'stripe-signature: header missing');
      if (!Buffer.isBuffer(request.body)) throw new ApiError('VALIDATION', 'body: must be the JSON event Stripe sent');
      event = verify(provider, request.body, signature);
    } catch (err) {
      app.metrics.webhookEvent(undefined, 'refused');
      throw err;
    }
    // A fast path for a replay; the atomic check is the insert of the event id below.
    if (await payments.eventSeen(event.id)) {
      app.metrics.webhookEvent(event.type, 'duplicate');
      return { received: true, error: OK };
    }
    let outcome: EventOutcome;
    try {
      outcome = await handle(event);
    } catch (err) {
      app.metrics.webhookEvent(event.type, 'failed');
      throw err;
    }
    app.metrics.webhookEvent(event.type, outcome === 'applied' ? 'handled' : outcome);
    if (outcome === 'stale')
      request.log.info({ event: event.id, type: event.type }, 'an older Stripe event changed nothing');
    return { received: true, error: OK };
  });

  async function handle(event: Stripe.Event): Promise<EventOutcome> {
    switch (event.type) {
      // A checkout's fulfilment is once by its own claim (the fulfilments row, in the transaction of
      // every grant), whichever of this event, the success page or a replay comes first.
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const state = sessionState(event.data.object);
        if (state.paid) {
          // A subscription checkout's PaymentIntent is its first invoice's payment (read before any transaction).
          const paymentIntentId =
            state.paymentIntentId ?? (await billing.events.paymentIntentOfInvoice(event.data.object.invoice));
          await payments.fulfil(
            event.data.object.id,
            {
              billing: state.billing,
              subscriptionId: state.subscriptionId,
              paymentRef: state.paymentRef,
              paymentIntentId,
            },
            { kind: 'stripe', id: event.id },
          );
          // The success page may have fulfilled it first, without the invoice's PaymentIntent.
          await billing.events.rememberIntent(state.paymentRef, paymentIntentId);
        }
        await payments.recordEvent(event.id, event.type);
        return 'applied';
      }
      case 'checkout.session.expired':
      case 'checkout.session.async_payment_failed':
        await payments.expire(event.data.object.id, { kind: 'stripe', id: event.id });
        await payments.recordEvent(event.id, event.type);
        return 'applied';
      default:
        // Subscriptions, invoices, refunds and disputes (decision 065): the event id is inserted in
        // the transaction that applies it; others are recorded and ignored.
        return billing.stripeEvent(event);
    }
  }
}

function verify(provider: StripeProvider, body: Buffer, signature: string): Stripe.Event {
  try {
    return provider.verifyEvent(body, signature);
  } catch {
    throw new ApiError('VALIDATION', 'stripe-signature: does not verify for this body and webhook secret');
  }
}

export const stripeWebhookPlugin = fp(stripeWebhookRoutes, {
  name: 'stripe-webhook-routes',
  dependencies: ['security'],
  encapsulate: true,
});
