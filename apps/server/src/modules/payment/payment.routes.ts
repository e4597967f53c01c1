import { payment } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';

/** /api/stripe (spec/001 §7): thin; the rules are in PaymentService (docs/architecture.md#commerce). */
async function paymentRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const { payments } = services;

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
  });
}

export const paymentPlugin = fp(paymentRoutes, {
  name: 'payment-routes',
  dependencies: ['actions'],
  encapsulate: true,
});
