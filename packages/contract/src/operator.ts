import * as z from 'zod/mini';
import { epochMs, normalisedEmail } from './common.ts';
import { ONE_DAY_S, OverrideKind, TIER_SHORT } from './constants.ts';
import { action, response, service } from './define.ts';
import { MAX_FLEX_SLOTS } from './flexible-license.ts';
import { Currency, minorUnits, overrideKind, subscriptionStatus, subscriptionTier } from './payment.ts';

/**
 * Operator actions over HTTP (docs/operations.md, docs/decisions/009): what the operator
 * command line does to an account, for when the server holds the database (the embedded one opens
 * in one process only) and for end-to-end tests that set real state. Every action needs the
 * server's OPERATOR_TOKEN in the `x-operator-token` header; `email` names the target account.
 */

/** A granted subscription lasts a year unless the operator says otherwise. */
export const DEFAULT_GRANT_DURATION_S = 365 * ONE_DAY_S;
/** Longest grant: ten years (the command line's --days bound). */
export const MAX_GRANT_DURATION_S = 3660 * ONE_DAY_S;

/** The kinds an operator may grant: free trial 0, override 1, other 2 (99 is "paid", never granted). */
export const grantOverrideKind = z.literal([OverrideKind.FreeTrial, OverrideKind.BowOverride, OverrideKind.Other], {
  error: 'Override kind must be 0 (free trial), 1 (override) or 2 (other)',
});

/** The account's subscription after an operator's grant. */
export const subscriptionSummary = z.object({
  user_email: z.string(),
  /** the tier the account has now (spec/001 §4), read back after the grant */
  tier: z.enum(TIER_SHORT),
  subscription_tier: subscriptionTier,
  /** the granted subscription's id; '' for Lite, which only ends the active subscription */
  uuid: z._default(z.string(), ''),
  /** 99 (none) for Lite */
  override_kind: overrideKind,
  /** epoch ms; 0 for Lite */
  start_date: z._default(epochMs, 0),
  /** epoch ms; 0 for Lite */
  end_date: z._default(epochMs, 0),
  /** seconds; 0 for Lite */
  duration: z._default(z.int().check(z.minimum(0)), 0),
});
export type SubscriptionSummary = z.infer<typeof subscriptionSummary>;

/** A payment as the operator sees it (ListPayments, RefundPayment). Amounts in minor units. */
export const operatorPayment = z.object({
  payment_id: z.string(),
  user_email: z.string(),
  /** checkout, renewal or plan_change */
  kind: z.string(),
  description: z.string(),
  amount: minorUnits,
  currency: Currency,
  /** paid or failed */
  status: z.string(),
  refunded_amount: minorUnits,
  /** epoch ms */
  created_at: epochMs,
  /** the checkout session it paid, '' for a renewal */
  session_id: z._default(z.string(), ''),
  /** whether a whole refund took back what it granted */
  revoked: z._default(z.boolean(), false),
});
export type OperatorPayment = z.infer<typeof operatorPayment>;

/** What one run of the subscription lifecycle job did (docs/decisions/019). */
export const lifecycleRun = z.object({
  renewed: z.int().check(z.minimum(0)),
  payment_failed: z.int().check(z.minimum(0)),
  ended: z.int().check(z.minimum(0)),
  reminders: z.int().check(z.minimum(0)),
});
export type LifecycleRun = z.infer<typeof lifecycleRun>;

/**
 * Work the server does after a commit, at the payment provider (docs/decisions/066): retried with
 * backoff until it succeeds. A row with many attempts keeps failing and needs an operator.
 */
export const outboxItem = z.object({
  /** what it does, e.g. provider.cancel_subscription */
  kind: z.string(),
  /** one row per piece of work, e.g. cancel-sub:<subscription id> */
  key: z.string(),
  /** failed attempts so far */
  attempts: z.int().check(z.minimum(0)),
  /** epoch ms: the next attempt */
  run_after: epochMs,
  /** the last attempt's error, '' before any */
  last_error: z._default(z.string(), ''),
  /** epoch ms */
  created_at: epochMs,
});
export type OutboxItem = z.infer<typeof outboxItem>;
/** A run of the nightly reconciliation with Stripe (docs/decisions/065). */
export const reconciliationRun = z.object({
  /** another instance was running it, or payments go through the sandbox (nothing to reconcile) */
  skipped: z._default(z.boolean(), false),
  /** differences a missed webhook explains, applied as it would have */
  repaired: z.int().check(z.minimum(0)),
  /** differences nothing explains: each logged at error for an operator to look at */
  unexplained: z.int().check(z.minimum(0)),
  details: z._default(z.array(z.string()), []),
  /** epoch ms; 0 when the run was skipped */
  started_at: z._default(epochMs, 0),
  finished_at: z._default(epochMs, 0),
});
export type ReconciliationRunView = z.infer<typeof reconciliationRun>;

export const operator = service('operator', '/api/operator', {
  GrantSubscription: action({
    summary:
      "Give the account of `email` a subscription without payment, starting now: its earlier grants end and the new one begins (granting Lite only ends them). While a grant lasts it decides the tier and the flexible slots, whatever plan is paid for (docs/decisions/019). Operators only (x-operator-token); the command line's grant-subscription does the same.",
    auth: 'operator',
    permission: 'subscriptions.grant',
    caller: 'operator',
    request: z.object({
      /** the account that receives the subscription */
      email: normalisedEmail,
      tier: subscriptionTier,
      override_kind: grantOverrideKind,
      /** seconds from now; a year when absent */
      duration_s: z._default(
        z.number().check(
          z.int({ error: 'Duration must be a whole number of seconds' }),
          z.minimum(1, { error: 'Duration must be at least 1 second' }),
          z.maximum(MAX_GRANT_DURATION_S, {
            error: `Duration must be at most ${MAX_GRANT_DURATION_S} seconds (ten years)`,
          }),
        ),
        DEFAULT_GRANT_DURATION_S,
      ),
    }),
    response: response({ subscription: subscriptionSummary }),
  }),
  SetSlotAmount: action({
    summary:
      "Set or clear an operator's grant of flexible license slots for the account of `email`: `amount` 0 to 100, or null to clear the grant. The account has the larger of its plan's count and the grant (docs/decisions/061); when that shrinks, the highest-numbered slots are emptied and their licenses removed. Answers the plan's count, the grant and the count in force. Operators only (x-operator-token); the command line's slots:set does the same.",
    auth: 'operator',
    permission: 'slots.set',
    caller: 'operator',
    request: z.object({
      email: normalisedEmail,
      /** the grant; null clears it, leaving the plan's count */
      amount: z.nullable(
        z
          .number({ error: `Amount must be a whole number from 0 to ${MAX_FLEX_SLOTS}, or null to clear the grant` })
          .check(
            z.int({ error: 'Amount must be a whole number' }),
            z.minimum(0, { error: 'Amount must be at least 0' }),
            z.maximum(MAX_FLEX_SLOTS, { error: `Amount must be at most ${MAX_FLEX_SLOTS}` }),
          ),
      ),
    }),
    response: response({
      /** the slots the account has now: the larger of the two below */
      user_slot_amount: z.int().check(z.minimum(0)),
      /** what the account's plan gives (0 without one) */
      plan_slot_amount: z._default(z.int().check(z.minimum(0)), 0),
      /** the operator's grant; null when none */
      granted_slot_amount: z._default(z.nullable(z.int().check(z.minimum(0))), null),
    }),
  }),
  ListPayments: action({
    summary: 'The payments of the account of `email`, newest first, with what was refunded. Operators only.',
    auth: 'operator',
    permission: 'payments.read',
    caller: 'operator',
    request: z.object({ email: normalisedEmail }),
    response: response({ payments: z._default(z.array(operatorPayment), []) }),
  }),
  RefundPayment: action({
    summary:
      "Refund a payment through the payment provider, whole (no `refund_amount`) or in part (minor units). A refund that completes the whole amount takes back what the payment granted, once; the customer gets an email. Operators only; the command line's refund does the same.",
    auth: 'operator',
    permission: 'payments.refund',
    caller: 'operator',
    request: z.object({
      payment_id: z.uuid({ error: 'Payment id must be a payment id' }),
      /** minor units; the rest of the payment when absent */
      refund_amount: z.optional(
        z
          .number()
          .check(
            z.int({ error: 'Refund amount must be a whole number of minor units' }),
            z.minimum(1, { error: 'Refund amount must be at least 1' }),
          ),
      ),
    }),
    response: response({ payment: operatorPayment }),
  }),
  EndSubscriptionPeriod: action({
    summary:
      "Sandbox only: the current period of a subscription (a row's uuid or stripe_id) ends now and the lifecycle job runs for it at once: it renews, or ends if it was cancelled at period end or its payment fails. How tests and demos move a subscription on without waiting a month. Operators only.",
    auth: 'operator',
    permission: 'subscriptions.grant',
    caller: 'operator',
    request: z.object({ subscription_id: z.string().check(z.minLength(1), z.maxLength(255)) }),
    response: response({
      run: lifecycleRun,
      /** the statuses of the subscription's rows after the run */
      statuses: z._default(z.array(subscriptionStatus), []),
    }),
  }),
  RunReconciliation: action({
    summary:
      "Run the reconciliation with Stripe now (the server runs it nightly): the last days' subscriptions, paid invoices, refunds and disputes at Stripe compared with the portal's rows; what a missed webhook explains is applied, what nothing explains is counted and logged at error. Stripe mode only. Operators only.",
    auth: 'operator',
    permission: 'jobs.run',
    caller: 'operator',
    request: z.object({}),
    response: response({ run: reconciliationRun }),
  }),
  GetReconciliation: action({
    summary:
      'The last run of the reconciliation with Stripe: when it ran, what it repaired and how many differences it could not explain (0 for none; `skipped` when there has been no run). Operators only.',
    auth: 'operator',
    permission: 'payments.read',
    caller: 'operator',
    request: z.object({}),
    response: response({ run: reconciliationRun }),
  }),
  RunLifecycle: action({
    summary:
      'Run the subscription lifecycle job now (the server runs it periodically): sandbox renewals and expiries, reminders 30 and 7 days ahead, notices. Operators only.',
    auth: 'operator',
    permission: 'jobs.run',
    caller: 'operator',
    request: z.object({}),
    response: response({ run: lifecycleRun }),
  }),
  ListOutbox: action({
    summary:
      'The work the server still has to do at the payment provider after a commit (cancelling a plan another replaced), oldest first: each with its attempts, next attempt and last error. Retried with backoff (a minute, doubling to an hour) until it succeeds; from 5 failed attempts it is logged at error and counted in portal_outbox_failing. Operators only.',
    auth: 'operator',
    permission: 'payments.read',
    caller: 'operator',
    request: z.object({}),
    response: response({ outbox: z._default(z.array(outboxItem), []) }),
  }),
  RunOutbox: action({
    summary:
      'Run the outbox now (the server runs it after each commit that adds work and with the lifecycle job): every row that is due is tried once. Answers how many succeeded and failed. Operators only.',
    auth: 'operator',
    permission: 'jobs.run',
    caller: 'operator',
    request: z.object({}),
    response: response({ done: z.int().check(z.minimum(0)), failed: z.int().check(z.minimum(0)) }),
  }),
});
