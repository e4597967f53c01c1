import { ApiError, payment } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';

/** /api/stripe (spec/001 §7): thin; the rules are in PaymentService (docs/architecture.md#commerce). */
async function paymentRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const { payments, subscriptions, billing } = services;

  app.mountService(payment, {
    async GetProducts() {
      return { products: await payments.products() };
    },

    async GetCustomerID(_input, { caller }) {
      return { customer_id: await payments.customerId(caller) };
    },

    async HandlePurchase(input, { caller }) {
      const session = await payments.purchase(caller, {
        customerId: input.customer_id,
        lines: input.session.products,
        successUrl: input.session.success_url,
        cancelUrl: input.session.cancel_url,
      });
      return { session };
    },

    async ConfirmPurchase(input, { caller }) {
      return { purchase: await payments.confirm(caller, input.session_id) };
    },

    async GetActiveUserSubscription(_input, { caller }) {
      return subscriptions.activeView(caller);
    },

    async ListSubscriptions(_input, { caller }) {
      return subscriptions.listView(caller);
    },

    async GetSubscription(input, { caller }) {
      const subscription = await subscriptions.providerView(caller, input.subscription_id);
      if (!subscription)
        throw new ApiError('NOT_FOUND', 'subscription_id: no subscription with this id on your account');
      return { subscription };
    },

    async CreateBillingPortalSession(input, { caller }) {
      const customerId = await payments.customerId(caller);
      if (input.customer_id && input.customer_id !== customerId)
        throw new ApiError('FORBIDDEN', 'customer_id: is not the signed-in account’s customer');
      const session_url = await billing.portal(caller, { customerId, returnUrl: input.return_url });
      return { session: { session_url } };
    },
  });
}

export const paymentPlugin = fp(paymentRoutes, {
  name: 'payment-routes',
  dependencies: ['actions'],
  encapsulate: true,
});
