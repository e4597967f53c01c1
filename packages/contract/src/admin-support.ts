import * as z from 'zod/mini';
import { epochMs, jwt, publicUser } from './common.ts';
import { SUPPORT_CATEGORIES, TIER_SHORT } from './constants.ts';
import { action, response, service } from './define.ts';
import { SETTABLE_SUPPORT_STATUSES } from './domain/support-status.ts';
import { userLicenses } from './license.ts';
import { operatorPayment } from './operator.ts';
import { robotDriverSubscription, userSubscription } from './payment.ts';
import { robot } from './robots.ts';
import { supportMessageText, supportStatus, ticketId } from './support.ts';

/**
 * The support inbox of the back office (issue 35, docs/decisions/074): every request from the
 * contact form, its thread, and the customer beside it. Auth `staff` as the rest of the back office
 * (decision 070): a passkey session of a staff account or an API key, whose role has the action's
 * permission; anyone else gets the unknown-route 404. Reads need `customers.read`, answers and
 * changes `support.answer`; every change is one audit entry in its transaction.
 */

/** The bearer header carries the staff session; the web client also puts the access token here. */
const token = z.optional(jwt);

/** Most requests one page of the inbox lists. */
export const SUPPORT_INBOX_PAGE_MAX = 100;
/** Payments the customer context shows (the newest). */
export const SUPPORT_CONTEXT_PAYMENTS = 10;

/** A message as staff read it: the staff author named. */
export const staffSupportMessage = z.object({
  author: z.enum(['customer', 'staff']),
  /** the staff member's email for a staff reply ('' for an API key or a staff account since removed); the customer's for theirs */
  author_email: z.string(),
  body: z.string(),
  at: epochMs,
});

/** A request as the inbox lists it. Instants are epoch ms. */
export const inboxRequest = z.object({
  ticket_id: z.string(),
  category: z.enum(SUPPORT_CATEGORIES),
  subject: z.string(),
  status: supportStatus,
  customer_user_id: z.string(),
  /** the customer's address now */
  customer_email: z.string(),
  /** '' when unassigned */
  assignee_user_id: z.string(),
  assignee_email: z.string(),
  created_at: epochMs,
  updated_at: epochMs,
  last_message_at: epochMs,
  messages: z.int(),
});
export type InboxRequest = z.infer<typeof inboxRequest>;

export const inboxRequestWithThread = z.object({
  ...inboxRequest.shape,
  robot_model: z.string(),
  thread: z.array(staffSupportMessage),
});
export type InboxRequestWithThread = z.infer<typeof inboxRequestWithThread>;

/** The customer beside a request: who they are, what they pay for, what they run. */
export const supportCustomerContext = z.object({
  profile: z.object({ ...publicUser.shape, disabled: z.boolean() }),
  tier: z.enum(TIER_SHORT),
  /** every plan and driver subscription, every status */
  subscriptions: z.object({
    user_subscriptions: z.array(userSubscription),
    robot_driver_subscriptions: z.array(robotDriverSubscription),
  }),
  robots: z.array(robot),
  licenses: userLicenses,
  /** the newest payments, with what was refunded */
  payments: z.array(operatorPayment),
});
export type SupportCustomerContext = z.infer<typeof supportCustomerContext>;

const assigneeFilter = z.optional(z.nullable(z.uuid({ error: 'Assignee user id must be a UUID (null: unassigned)' })));

export const adminSupport = service('adminSupport', '/api/admin/support', {
  ListSupportRequests: action({
    summary: `The support inbox, newest first, with each customer's email: filtered by status and assignee (null: unassigned), at most ${SUPPORT_INBOX_PAGE_MAX} a page from \`offset\`; \`total\` counts every match.`,
    auth: 'staff',
    permission: 'customers.read',
    request: z.object({
      token,
      status: z.optional(supportStatus),
      assignee_user_id: assigneeFilter,
      offset: z._default(z.int().check(z.minimum(0, { error: 'Offset must be at least 0' })), 0),
      limit: z._default(
        z
          .int()
          .check(
            z.minimum(1, { error: 'Limit must be at least 1' }),
            z.maximum(SUPPORT_INBOX_PAGE_MAX, { error: `Limit must be at most ${SUPPORT_INBOX_PAGE_MAX}` }),
          ),
        50,
      ),
    }),
    response: response({ requests: z.array(inboxRequest), total: z.int() }),
  }),
  GetSupportRequest: action({
    summary: `One request with its thread, and the customer beside it: profile, tier and subscriptions, robots, licences and the ${SUPPORT_CONTEXT_PAYMENTS} newest payments. Opening it is a read entry of the audit trail.`,
    auth: 'staff',
    permission: 'customers.read',
    request: z.object({ token, ticket_id: ticketId }),
    response: response({ request: inboxRequestWithThread, customer: supportCustomerContext }),
  }),
  ReplySupportRequest: action({
    summary:
      'A staff reply in the thread: the request waits on the customer, who is mailed (the ticket id in the subject) to read it and answer in the portal at /dashboard/support. One audit entry, support.reply.',
    auth: 'staff',
    permission: 'support.answer',
    request: z.object({ token, ticket_id: ticketId, message: supportMessageText }),
    response: response({ request: inboxRequestWithThread }),
  }),
  SetSupportStatus: action({
    summary:
      'Set the status by hand: open, waiting (on the customer) or closed. One audit entry, support.status, with before and after; the status it already has changes nothing and records nothing.',
    auth: 'staff',
    permission: 'support.answer',
    request: z.object({
      token,
      ticket_id: ticketId,
      status: z.enum(SETTABLE_SUPPORT_STATUSES, {
        error: `Status must be one of ${SETTABLE_SUPPORT_STATUSES.join(', ')}`,
      }),
    }),
    response: response({ request: inboxRequestWithThread }),
  }),
  AssignSupportRequest: action({
    summary:
      'Assign the request to a staff member, or unassign it (null). One audit entry, support.assign, with before and after; the same assignee changes nothing and records nothing.',
    auth: 'staff',
    permission: 'support.answer',
    request: z.object({
      token,
      ticket_id: ticketId,
      assignee_user_id: z.nullable(z.uuid({ error: 'Assignee user id must be a UUID (null: unassign)' })),
    }),
    response: response({ request: inboxRequestWithThread }),
  }),
});
