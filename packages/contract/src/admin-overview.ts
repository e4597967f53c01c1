import * as z from 'zod/mini';
import { epochMs, jwt } from './common.ts';
import { action, response, service } from './define.ts';

/**
 * The business at a glance (issue 35 item 7, docs/decisions/076), from the portal's own rows.
 * Auth `staff`, permission `customers.read`; the recurring revenue only for a role with
 * `payments.read` (finance and admin): for support it is left out and `revenue_visible` is false.
 */

const token = z.optional(jwt);
const count = z.int().check(z.minimum(0));

/** Recurring revenue of one currency, normalised to a month. */
export const monthlyRevenue = z.object({
  /** ISO 4217, lower case as the catalogue writes it */
  currency: z.string(),
  /**
   * minor units a month: each active subscription's price over its interval in months (a yearly
   * price / 12), summed exactly and rounded once, half up
   */
  monthly_amount: z.int(),
  /** active paid plans counted in it */
  plans: count,
  /** active robot-driver subscriptions counted in it */
  drivers: count,
});
export type MonthlyRevenue = z.infer<typeof monthlyRevenue>;

export const adminOverview = service('adminOverview', '/api/admin/overview', {
  GetOverview: action({
    summary:
      "The business now: accounts, active plans by tier, recurring revenue a month by currency (finance and admin only), robots online, open support requests, failed renewals, open disputes, and the outbox's and Stripe webhooks' state.",
    auth: 'staff',
    permission: 'customers.read',
    request: z.object({ token }),
    response: response({
      /** epoch ms the figures are of */
      as_of: epochMs,
      /** customer accounts (staff accounts left out); new: made in the last 7 days */
      accounts: z.object({ total: count, new_this_week: count }),
      /** active tier subscriptions by tier: bought (`paid`) and operator grants (`granted`) */
      plans_by_tier: z.array(z.object({ tier: z.string(), paid: count, granted: count })),
      /** the caller's role may see revenue (payments.read); false: `recurring_revenue` is left out */
      revenue_visible: z.boolean(),
      /** by currency, largest first */
      recurring_revenue: z.optional(z.array(monthlyRevenue)),
      /** active paid subscriptions whose price the catalogue does not know: not in the revenue */
      unpriced_subscriptions: z.optional(count),
      /** robots whose hub reported them available and has reported within the report timeout */
      robots_online: count,
      /** support requests not closed, by status */
      support_open: z.object({ new: count, open: count, waiting: count, total: count }),
      /** active subscriptions whose last renewal charge failed (the provider still retries) */
      failed_renewals: z.object({ plans: count, drivers: count }),
      /** payments with a dispute still open */
      open_disputes: count,
      /** work after commits: due now (not done, time to run) and failing (not done, tried and failed) */
      outbox: z.object({ due: count, failing: count }),
      /**
       * Stripe's events as the portal stored them: an event is stored only once applied (a failed one
       * rolls back and Stripe sends it again), so there is no backlog to count here; what is shown is
       * when the last arrived (0: never) and how many in the last 24 hours
       */
      webhooks: z.object({ last_received_at: z._default(epochMs, 0), received_last_day: count }),
    }),
  }),
});

/** GetOverview's answer without its error object. */
export type AdminOverviewAnswer = Omit<z.output<(typeof adminOverview.actions.GetOverview)['response']>, 'error'>;
