import { operator, type SubscriptionStatus } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { OperatorKey } from '../../plugins/actions.ts';
import type { RouteOptions } from '../../services.ts';
import type { OperatorActor } from './operator.service.ts';

/** The calling API key, the actor of what it changes (the router has checked it before any handler runs). */
const byKey = (key: OperatorKey | undefined): OperatorActor => ({ kind: 'key', id: key?.id ?? '' });

/**
 * /api/operator: the operator command line's grants over HTTP, for API keys only (x-operator-token).
 * Each state-changing action goes through OperatorService with the key as its actor, so it writes
 * its audit entry exactly as the command line does (docs/decisions/072).
 */
async function operatorRoutes(app: FastifyInstance, { services }: RouteOptions): Promise<void> {
  const { operators, billing, outbox } = services;

  app.mountService(operator, {
    async GrantSubscription(input, { request, key }) {
      const account = await operators.account(input.email);
      const subscription = await operators.grantSubscription(
        account,
        { tier: input.tier, overrideKind: input.override_kind, durationS: input.duration_s },
        byKey(key),
      );
      request.log.info(
        { user: account.id, tier: input.tier, overrideKind: input.override_kind },
        'operator granted a subscription',
      );
      return { subscription };
    },

    async SetSlotAmount(input, { request, key }) {
      const account = await operators.account(input.email);
      const slots = await operators.setSlotGrant(account, input.amount, byKey(key));
      request.log.info(
        { user: account.id, granted: slots.granted, amount: slots.amount },
        'operator set the slot grant',
      );
      return { user_slot_amount: slots.amount, plan_slot_amount: slots.plan, granted_slot_amount: slots.granted };
    },

    async ListPayments(input) {
      return { payments: await operators.payments(await operators.account(input.email)) };
    },

    async RefundPayment(input, { request, key }) {
      const payment = await operators.refund(input.payment_id, input.refund_amount, byKey(key));
      request.log.info(
        { payment: payment.payment_id, refunded: payment.refunded_amount, revoked: payment.revoked },
        'operator refunded a payment',
      );
      return { payment };
    },

    async EndSubscriptionPeriod(input, { key }) {
      const { run, statuses } = await operators.endPeriod(input.subscription_id, byKey(key));
      return { run, statuses: statuses as SubscriptionStatus[] };
    },

    async RunReconciliation(_input, { request, key }) {
      const run = await operators.runReconciliation(byKey(key));
      if (!run.skipped)
        request.log.info({ repaired: run.repaired, unexplained: run.unexplained }, 'reconciliation run');
      const last = run.skipped ? undefined : await billing.reconciliation.last();
      return {
        run: { ...run, started_at: last?.startedAt.getTime() ?? 0, finished_at: last?.finishedAt?.getTime() ?? 0 },
      };
    },

    async GetReconciliation() {
      const last = await billing.reconciliation.last();
      return {
        run: last
          ? {
              skipped: false,
              repaired: last.repaired,
              unexplained: last.unexplained,
              details: last.details,
              started_at: last.startedAt.getTime(),
              finished_at: last.finishedAt?.getTime() ?? 0,
            }
          : { skipped: true, repaired: 0, unexplained: 0, details: [], started_at: 0, finished_at: 0 },
      };
    },

    async RunLifecycle(_input, { key }) {
      return { run: await operators.runLifecycle(byKey(key)) };
    },

    async ListOutbox() {
      return {
        outbox: (await outbox.pending(0)).map((r) => ({
          kind: r.kind,
          key: r.key,
          attempts: r.attempts,
          run_after: r.runAfter.getTime(),
          last_error: r.lastError ?? '',
          created_at: r.createdAt.getTime(),
        })),
      };
    },

    async RunOutbox(_input, { key }) {
      return operators.runOutbox(byKey(key));
    },
  });
}

export const operatorPlugin = fp(operatorRoutes, {
  name: 'operator-routes',
  dependencies: ['actions'],
  encapsulate: true,
});
