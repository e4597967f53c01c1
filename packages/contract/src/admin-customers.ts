import * as z from 'zod/mini';
import { auditEntryView, staffRole } from './admin.ts';
import { epochMs, jwt } from './common.ts';
import { TIER_SHORT } from './constants.ts';
import { action, response, service } from './define.ts';
import { MAX_FLEX_SLOTS } from './flexible-license.ts';
import { robotLicense, userLicenses } from './license.ts';
import { grantOverrideKind, MAX_GRANT_DURATION_S, operatorPayment, subscriptionSummary } from './operator.ts';
import { robotDriverSubscription, subscriptionTier, userSubscription } from './payment.ts';
import { dataExport } from './privacy.ts';
import { robot } from './robots.ts';
import { passkey } from './security.ts';
import { supportStatus } from './support.ts';
import { usageHistory, userTime } from './time.ts';

/**
 * The customers of the back office (issue 35, docs/decisions/075): lookup, the customer view, and
 * the operator actions with a reason. Every action is `staff` (docs/decisions/071): anyone without a
 * staff credential gets the unknown-route 404, a staff member short of the role 403 naming it. Each
 * action with a reason calls the service method the command line and /api/operator call, with the
 * staff member (or the API key) as the actor; its one audit entry keeps the reason.
 */

/** Most results one search answers. */
export const CUSTOMER_SEARCH_MAX = 50;
/** The most dial minutes finance or an admin grants at once (support: STAFF_GOODWILL_MAX_MINUTES). */
export const STAFF_GRANT_MAX_MINUTES = 100_000;
/** How many of the customer's audit entries the view shows (the audit trail has the rest). */
export const CUSTOMER_AUDIT_SHOWN = 50;
/** How many dial-time ledger rows the view shows, newest first. */
export const CUSTOMER_LEDGER_SHOWN = 100;
/** The days of the usage chart in the view (the dashboard's default range). */
export const CUSTOMER_USAGE_DAYS = 30;

/** What a search result matched on. */
export const SEARCH_KEYS = ['email', 'name', 'company', 'robot_id', 'pairing_code', 'ticket_id', 'payment_id'] as const;
export type SearchKey = (typeof SEARCH_KEYS)[number];

/** The staff session's bearer token (the web client also sends it here); an API key goes in x-operator-token. */
const token = z.optional(jwt);
const userId = z.uuid({ error: 'User id must be a UUID' });
/** Why: 3 to 500 characters, kept in the audit entry's personal side row. */
export const staffReason = z
  .string({ error: 'Reason is required' })
  .check(
    z.trim(),
    z.minLength(3, { error: 'Reason must be at least 3 characters' }),
    z.maxLength(500, { error: 'Reason must be at most 500 characters' }),
  );
const withReason = { token, user_id: userId, reason: staffReason };

export const customerHit = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  company: z.string(),
  tier: z.enum(TIER_SHORT),
  /** the keys the query matched, e.g. ["email"], ["robot_id"] */
  matched: z.array(z.enum(SEARCH_KEYS)),
  /** the matching value for a key other than the profile's (the robot id, ticket or payment id); '' otherwise */
  matched_value: z.string(),
});
export type CustomerHit = z.infer<typeof customerHit>;

export const customerProfile = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  company: z.string(),
  country: z.string(),
  profession: z.string(),
  email_verified: z.boolean(),
  /** epoch ms; 0 while the account is enabled */
  disabled_at: epochMs,
  joined_at: epochMs,
  /** the account's last sign-in or refresh the portal knows of (epoch ms), 0 for none */
  last_active_at: epochMs,
  /** a staff account's role; null for a customer */
  staff_role: z.nullable(staffRole),
});

/** Flexible licence slots (docs/decisions/061): effective = the larger of the plan's count and the grant. */
export const customerSlots = z.object({
  plan: z.int().check(z.minimum(0)),
  /** the operator's grant; null when none */
  granted: z.nullable(z.int().check(z.minimum(0))),
  effective: z.int().check(z.minimum(0)),
});

export const ledgerRow = z.object({
  /** epoch ms */
  at: epochMs,
  /** allocation, expiry, purchase, grant, use… */
  kind: z.string(),
  minutes: z.int(),
  /** signed changes of the two pools */
  perishable: z.int(),
  durable: z.int(),
  robot_id: z.string(),
  reason: z.string(),
});

export const customerPayment = z.extend(operatorPayment, {
  /** Stripe's PaymentIntent, '' for the sandbox */
  payment_intent_id: z.string(),
  refunds: z.array(
    z.object({ amount: z.int(), source: z.enum(['portal', 'provider']), created_at: epochMs, refund_id: z.string() }),
  ),
  /** '' when never disputed */
  dispute_status: z.enum(['', 'open', 'won', 'lost']),
});

export const customerSession = z.object({
  session_id: z.string(),
  target: z.string(),
  user_agent: z.string(),
  address: z.string(),
  started_at: epochMs,
  last_used_at: epochMs,
});

export const customerSupportRequest = z.object({
  id: z.string(),
  ticket_id: z.string(),
  subject: z.string(),
  category: z.string(),
  /** new, open, waiting (on the customer) or closed (docs/decisions/074) */
  status: supportStatus,
  created_at: epochMs,
});

/** The customer view: everything the console shows of one account. */
export const customerView = z.object({
  profile: customerProfile,
  /** the tier in force (spec/001 §4) */
  tier: z.enum(TIER_SHORT),
  /** every tier subscription, every status, oldest first (past-due ones carry payment_failed_at) */
  subscriptions: z.array(userSubscription),
  robot_driver_subscriptions: z.array(robotDriverSubscription),
  /** own (incl. flexible), shared with the customer, and asset licences, as the dashboard shows them */
  licenses: userLicenses,
  slots: customerSlots,
  /** robots with their live state (robot_state.available as the dashboard reads it) */
  robots: z.array(robot),
  time: userTime,
  /** newest first, at most CUSTOMER_LEDGER_SHOWN */
  ledger: z.array(ledgerRow),
  /** the usage chart's series over the last CUSTOMER_USAGE_DAYS days */
  usage: usageHistory,
  /** whether the caller's role reads payments (payments.read); false: `payments` is empty */
  payments_visible: z.boolean(),
  payments: z.array(customerPayment),
  sessions: z.array(customerSession),
  passkeys: z.array(passkey),
  support_requests: z.array(customerSupportRequest),
  /** entries whose subject is this customer, newest first, at most CUSTOMER_AUDIT_SHOWN */
  audit: z.array(auditEntryView),
});
export type CustomerView = z.infer<typeof customerView>;

/** The customer's data as a download (a privacy request): the same for the customer and staff. */

const viewResponse = response({ customer: customerView });

export const adminCustomers = service('adminCustomers', '/api/admin/customers', {
  SearchCustomers: action({
    summary: `Customers whose email, name, organisation, robot id, ticket id or payment id (ours or Stripe's PaymentIntent) starts with \`query\` (case-insensitive), or whose unused pairing code is \`query\`; at most \`limit\` (up to ${CUSTOMER_SEARCH_MAX}), each with what matched.`,
    auth: 'staff',
    permission: 'customers.read',
    request: z.object({
      token,
      query: z
        .string({ error: 'Query is required' })
        .check(
          z.trim(),
          z.minLength(2, { error: 'Query must be at least 2 characters' }),
          z.maxLength(254, { error: 'Query must be at most 254 characters' }),
        ),
      limit: z._default(
        z
          .int({ error: 'Limit must be a whole number' })
          .check(
            z.minimum(1, { error: 'Limit must be at least 1' }),
            z.maximum(CUSTOMER_SEARCH_MAX, { error: `Limit must be at most ${CUSTOMER_SEARCH_MAX}` }),
          ),
        20,
      ),
    }),
    response: response({ customers: z.array(customerHit) }),
  }),
  GetCustomer: action({
    summary:
      'One customer whole: profile, tier and subscription history, licences and slots, robots live, dial time with its ledger and usage, payments (finance and admins only), sessions, passkeys, support requests and their audit timeline. Opening it is a read entry customer.view.',
    auth: 'staff',
    permission: 'customers.read',
    request: z.object({ token, user_id: userId }),
    response: viewResponse,
  }),
  VerifyEmail: action({
    summary: "Mark the customer's address verified (the command line's users:verify). 409 when it is already.",
    auth: 'staff',
    permission: 'accounts.disable',
    request: z.object(withReason),
    response: viewResponse,
  }),
  DisableAccount: action({
    summary: 'Disable the account: no sign-in, every session ends (users:disable). 409 when it is already.',
    auth: 'staff',
    permission: 'accounts.disable',
    request: z.object(withReason),
    response: viewResponse,
  }),
  EnableAccount: action({
    summary: 'Let a disabled account sign in again (users:enable). 409 when it is not disabled.',
    auth: 'staff',
    permission: 'accounts.disable',
    request: z.object(withReason),
    response: viewResponse,
  }),
  RevokeSessions: action({
    summary: 'End every session of the customer: signed out everywhere, the password stays.',
    auth: 'staff',
    permission: 'sessions.revoke',
    request: z.object(withReason),
    response: viewResponse,
  }),
  ResendVerification: action({
    summary: 'Send the verification link again (earlier links stop working). 409 when the address is verified already.',
    auth: 'staff',
    permission: 'verification.resend',
    request: z.object(withReason),
    response: viewResponse,
  }),
  GrantDialTime: action({
    summary: `Add durable dial minutes (the command line's add-time). Support grants at most STAFF_GOODWILL_MAX_MINUTES at once (403 above it); finance and admins up to ${STAFF_GRANT_MAX_MINUTES}.`,
    auth: 'staff',
    permission: 'dial_time.goodwill',
    request: z.object({
      ...withReason,
      minutes: z
        .number({ error: 'Minutes must be a whole number' })
        .check(
          z.int({ error: 'Minutes must be a whole number' }),
          z.minimum(1, { error: 'Minutes must be at least 1' }),
          z.maximum(STAFF_GRANT_MAX_MINUTES, { error: `Minutes must be at most ${STAFF_GRANT_MAX_MINUTES}` }),
        ),
    }),
    response: viewResponse,
  }),
  GrantLicense: action({
    summary:
      "An unpaired robot licence of a model (the command line's grant-license): the model's driver licence when the catalogue has one. Answers its pairing code.",
    auth: 'staff',
    permission: 'licenses.grant',
    request: z.object({
      ...withReason,
      model: z
        .string({ error: 'Model is required' })
        .check(
          z.trim(),
          z.minLength(1, { error: 'Model is required' }),
          z.maxLength(255, { error: 'Model must be at most 255 characters' }),
        ),
    }),
    response: response({
      customer: customerView,
      license_id: z.string(),
      pair_code: z.string(),
      license: z.optional(robotLicense),
    }),
  }),
  GrantSubscription: action({
    summary:
      'Give the customer a subscription without payment, starting now (earlier grants end), for `duration_s` seconds (a year when absent): the same as /api/operator GrantSubscription.',
    auth: 'staff',
    permission: 'subscriptions.grant',
    request: z.object({
      ...withReason,
      tier: subscriptionTier,
      override_kind: grantOverrideKind,
      duration_s: z._default(
        z.number({ error: 'Duration must be a whole number of seconds' }).check(
          z.int({ error: 'Duration must be a whole number of seconds' }),
          z.minimum(1, { error: 'Duration must be at least 1 second' }),
          z.maximum(MAX_GRANT_DURATION_S, {
            error: `Duration must be at most ${MAX_GRANT_DURATION_S} seconds (ten years)`,
          }),
        ),
        365 * 86_400,
      ),
    }),
    response: response({ customer: customerView, subscription: subscriptionSummary }),
  }),
  EndSubscription: action({
    summary:
      "End the customer's granted subscriptions now (the grant of Lite). A paid plan is the customer's, ended by a refund or at the provider. 409 when no grant is in force.",
    auth: 'staff',
    permission: 'subscriptions.grant',
    request: z.object(withReason),
    response: viewResponse,
  }),
  SetSlotGrant: action({
    summary: `Set (0 to ${MAX_FLEX_SLOTS}) or clear (null) the operator's grant of flexible licence slots: the customer has the larger of the plan's count and the grant (slots:set).`,
    auth: 'staff',
    permission: 'slots.set',
    request: z.object({
      ...withReason,
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
    response: viewResponse,
  }),
  RefundPayment: action({
    summary:
      "Refund one of the customer's payments, whole (no `amount`) or in part (minor units), through the provider: the billing refund path of /api/operator RefundPayment. A whole refund takes back what it granted.",
    auth: 'staff',
    permission: 'payments.refund',
    request: z.object({
      ...withReason,
      payment_id: z.uuid({ error: 'Payment id must be a payment id' }),
      amount: z.optional(
        z
          .number({ error: 'Amount must be a whole number of minor units' })
          .check(
            z.int({ error: 'Amount must be a whole number of minor units' }),
            z.minimum(1, { error: 'Amount must be at least 1' }),
          ),
      ),
    }),
    response: response({ customer: customerView, payment: operatorPayment }),
  }),
  UnpairRobot: action({
    summary:
      "Unpair the customer's robot: its licence lets it go and gets a new pairing code (the dashboard's UNPAIR). 409 when no licence holds it.",
    auth: 'staff',
    permission: 'robots.unpair',
    request: z.object({ ...withReason, robot_id: z.uuid({ error: 'Robot id must be a UUID' }) }),
    response: viewResponse,
  }),
  DeleteAccount: action({
    summary:
      "Delete the account at the customer's request: the customer's own deletion (subscriptions cancelled at the provider first, then everything it owns), its entry naming the staff member. A staff account is refused.",
    auth: 'staff',
    permission: 'accounts.disable',
    request: z.object(withReason),
    response: response({ deleted: z.boolean() }),
  }),
  ExportCustomerData: action({
    summary:
      "The customer's data as JSON for a privacy request: the same document the customer downloads from their profile (/api/privacy ExportMyData: account, licences, robots, subscriptions, dial-time ledger, payments with refunds, support requests with threads, security events). A read entry data.export by the staff member, with the reason.",
    auth: 'staff',
    permission: 'customers.read',
    request: z.object(withReason),
    response: response({ filename: z.string(), data: dataExport }),
  }),
});
