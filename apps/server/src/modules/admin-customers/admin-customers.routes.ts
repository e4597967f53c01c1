import { adminCustomers } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteOptions } from '../../services.ts';

/**
 * /api/admin/customers: lookup, the customer view and the actions with a reason (issue 35,
 * docs/decisions/075). The staff auth kind and each action's permission are checked by the router.
 */
async function adminCustomersRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const { customers } = services;
  app.mountService(adminCustomers, {
    async SearchCustomers(input) {
      return { customers: await customers.search(input.query, input.limit) };
    },
    async GetCustomer(input, { staff, ip }) {
      return { customer: await customers.open(staff, input.user_id, ip) };
    },
    async VerifyEmail(input, { staff }) {
      return { customer: await customers.verifyEmail(staff, input.user_id, input.reason) };
    },
    async DisableAccount(input, { staff }) {
      return { customer: await customers.setDisabled(staff, input.user_id, true, input.reason) };
    },
    async EnableAccount(input, { staff }) {
      return { customer: await customers.setDisabled(staff, input.user_id, false, input.reason) };
    },
    async RevokeSessions(input, { staff }) {
      return { customer: await customers.revokeSessions(staff, input.user_id, input.reason) };
    },
    async ResendVerification(input, { staff }) {
      return { customer: await customers.resendVerification(staff, input.user_id, input.reason) };
    },
    async GrantDialTime(input, { staff }) {
      return { customer: await customers.grantTime(staff, input.user_id, input.minutes, input.reason) };
    },
    GrantLicense: (input, { staff }) => customers.grantLicense(staff, input.user_id, input.model, input.reason),
    GrantSubscription: (input, { staff }) => customers.grantSubscription(staff, input.user_id, input),
    async EndSubscription(input, { staff }) {
      return { customer: await customers.endSubscription(staff, input.user_id, input.reason) };
    },
    async SetSlotGrant(input, { staff }) {
      return { customer: await customers.setSlotGrant(staff, input.user_id, input.amount, input.reason) };
    },
    RefundPayment: (input, { staff }) =>
      customers.refund(staff, input.user_id, input.payment_id, input.amount, input.reason),
    async UnpairRobot(input, { staff }) {
      return { customer: await customers.unpairRobot(staff, input.user_id, input.robot_id, input.reason) };
    },
    DeleteAccount: (input, { staff }) => customers.deleteAccount(staff, input.user_id, input.reason),
    ExportCustomerData: (input, { staff, ip }) => customers.exportData(staff, input.user_id, input.reason, ip),
  });
}

export const adminCustomersPlugin = fp(adminCustomersRoutes, {
  name: 'admin-customers-routes',
  dependencies: ['actions'],
  encapsulate: true,
});
