import * as z from 'zod/mini';
import { epochMs, jwt, publicUser } from './common.ts';
import { SUPPORT_CATEGORIES } from './constants.ts';
import { action, response, service } from './define.ts';
import { LEDGER_KINDS } from './domain/time-ledger.ts';
import { userLicenses } from './license.ts';
import { operatorPayment } from './operator.ts';
import { robotDriverSubscription, userSubscription } from './payment.ts';
import { robot } from './robots.ts';
import { supportMessage, supportStatus } from './support.ts';
import { userTime } from './time.ts';

/**
 * The privacy policy's data-protection rights (spec/000; issue 35 item 5): a customer downloads what
 * the portal holds about them as one JSON document. The same collection serves staff answering a
 * request for it (modules/privacy/privacy.service.ts exportAccount). docs/decisions/074.
 */

/** Raised when the document's shape changes in a way a reader must know (a field removed or renamed). */
export const DATA_EXPORT_FORMAT_VERSION = 1;

export const dataExport = z.object({
  format_version: z.int(),
  /** ISO 8601 UTC */
  exported_at: z.string(),
  account: z.object({ ...publicUser.shape, disabled: z.boolean() }),
  licenses: userLicenses,
  robots: z.array(robot),
  subscriptions: z.object({
    user_subscriptions: z.array(userSubscription),
    robot_driver_subscriptions: z.array(robotDriverSubscription),
  }),
  dial_time: z.object({
    balance: userTime,
    /** every entry of the minutes ledger, oldest first */
    ledger: z.array(
      z.object({
        at: epochMs,
        kind: z.enum(LEDGER_KINDS),
        minutes: z.int(),
        perishable: z.int(),
        durable: z.int(),
        period_start: epochMs,
        robot_id: z.string(),
        robot_model: z.string(),
        reason: z.string(),
      }),
    ),
  }),
  payments: z.array(
    z.object({
      ...operatorPayment.shape,
      refunds: z.array(z.object({ amount: z.int(), at: epochMs, source: z.string() })),
    }),
  ),
  support_requests: z.array(
    z.object({
      ticket_id: z.string(),
      category: z.enum(SUPPORT_CATEGORIES),
      subject: z.string(),
      robot_model: z.string(),
      status: supportStatus,
      created_at: epochMs,
      thread: z.array(supportMessage),
    }),
  ),
  /** the audit trail's entries about the account (sign-ins, password and passkey changes, staff actions), with their personal fields */
  security_events: z.array(
    z.object({
      at: epochMs,
      kind: z.string(),
      action: z.string(),
      /** customer, staff, key, stripe or system */
      actor: z.string(),
      ip: z.string(),
      user_agent: z.string(),
      reason: z.string(),
      changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })),
      /** the rest of what the entry recorded (e.g. how a sign-in was made) */
      details: z.record(z.string(), z.unknown()),
      /** the personal side row was anonymised (past retention) */
      anonymised: z.boolean(),
    }),
  ),
});
export type DataExport = z.infer<typeof dataExport>;

export const privacy = service('privacy', '/api/privacy', {
  ExportMyData: action({
    summary:
      'Everything the portal holds about the signed-in user as one JSON document (account, licences, robots, subscriptions, dial time and its ledger, payments with refunds, support requests with their threads, security events), with its format version and time; `filename` is what to save it as. The export is itself a read entry of the audit trail.',
    auth: 'bearer',
    request: z.object({ token: z.optional(jwt) }),
    response: response({ filename: z.string(), data: dataExport }),
  }),
});
