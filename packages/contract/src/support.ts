import * as z from 'zod/mini';
import { epochMs, jwt, normalisedEmail } from './common.ts';
import {
  SUPPORT_CATEGORIES,
  SUPPORT_MESSAGE_MAX,
  SUPPORT_MESSAGE_MIN,
  SUPPORT_ROBOT_MODEL_MAX,
  SUPPORT_SUBJECT_MAX,
  SUPPORT_SUBJECT_MIN,
} from './constants.ts';
import { action, response, service } from './define.ts';
import { SUPPORT_STATUSES } from './domain/support-status.ts';

/**
 * The contact form of /dashboard/support: where "Get Help" and "Get in touch" lead. The request is
 * stored server-side and answered with a ticket id the user can quote.
 */

/** The fields a person fills in; the web form and the server validate with this one schema. */
export const supportRequestFields = z.object({
  category: z.enum(SUPPORT_CATEGORIES, { error: 'Please choose a category' }),
  subject: z
    .string({ error: 'Please enter a subject' })
    .check(
      z.trim(),
      z.minLength(SUPPORT_SUBJECT_MIN, { error: `Subject must be at least ${SUPPORT_SUBJECT_MIN} characters` }),
      z.maxLength(SUPPORT_SUBJECT_MAX, { error: `Subject must be at most ${SUPPORT_SUBJECT_MAX} characters` }),
    ),
  message: z
    .string({ error: 'Please enter a message' })
    .check(
      z.trim(),
      z.minLength(SUPPORT_MESSAGE_MIN, { error: `Message must be at least ${SUPPORT_MESSAGE_MIN} characters` }),
      z.maxLength(SUPPORT_MESSAGE_MAX, { error: `Message must be at most ${SUPPORT_MESSAGE_MAX} characters` }),
    ),
  robot_model: z.optional(
    z.string().check(
      z.trim(),
      z.maxLength(SUPPORT_ROBOT_MODEL_MAX, {
        error: `Robot model must be at most ${SUPPORT_ROBOT_MODEL_MAX} characters`,
      }),
    ),
  ),
});
export type SupportRequestFields = z.infer<typeof supportRequestFields>;

/** The message of a reply: the same rules as the form's message. */
export const supportMessageText = supportRequestFields.shape.message;

/** A ticket id as the acknowledgement mail gives it (SR-XXXX-XXXX); read case-insensitively. */
export const ticketId = z
  .string({ error: 'Please enter a ticket id' })
  .check(
    z.trim(),
    z.toUpperCase(),
    z.regex(/^SR-[A-Z2-9]{4}-[A-Z2-9]{4}$/, { error: 'Ticket id must look like SR-XXXX-XXXX' }),
  );

export const supportStatus = z.enum(SUPPORT_STATUSES);

/** One message of a thread. Instants are epoch ms. */
export const supportMessage = z.object({
  /** who wrote it: the customer, or our support staff (never which staff member, to the customer) */
  author: z.enum(['customer', 'staff']),
  body: z.string(),
  at: epochMs,
});
export type SupportMessage = z.infer<typeof supportMessage>;

/** A request as its customer lists it. */
export const mySupportRequestSummary = z.object({
  ticket_id: z.string(),
  category: z.enum(SUPPORT_CATEGORIES),
  subject: z.string(),
  status: supportStatus,
  created_at: epochMs,
  /** the newest message of the thread */
  last_message_at: epochMs,
  /** how many messages the thread holds, the request itself included */
  messages: z.int(),
});
export type MySupportRequestSummary = z.infer<typeof mySupportRequestSummary>;

/** A request with its thread, oldest message first; the first is the request's own message. */
export const mySupportRequest = z.object({
  ...mySupportRequestSummary.shape,
  robot_model: z.string(),
  thread: z.array(supportMessage),
});
export type MySupportRequest = z.infer<typeof mySupportRequest>;

/** Most requests ListMySupportRequests answers (the newest). */
export const MY_SUPPORT_REQUESTS_MAX = 100;

export const support = service('support', '/api/support', {
  SubmitSupportRequest: action({
    summary: 'Store a support request of the signed-in user and answer its ticket id.',
    auth: 'bearer',
    request: z.object({
      /** the web client also puts the access token here; the Bearer header is what counts */
      token: z.optional(jwt),
      email: normalisedEmail,
      ...supportRequestFields.shape,
    }),
    response: response({ ticket_id: z.string() }),
  }),
  ListMySupportRequests: action({
    summary: `The signed-in user's support requests, newest first (at most ${MY_SUPPORT_REQUESTS_MAX}), with their status and the time of their last message.`,
    auth: 'bearer',
    request: z.object({ token: z.optional(jwt) }),
    response: response({ requests: z.array(mySupportRequestSummary) }),
  }),
  GetMySupportRequest: action({
    summary:
      "One of the signed-in user's support requests with its thread. Another account's ticket id answers 404, as one that does not exist.",
    auth: 'bearer',
    request: z.object({ token: z.optional(jwt), ticket_id: ticketId }),
    response: response({ request: mySupportRequest }),
  }),
  ReplyToMySupportRequest: action({
    summary:
      "The signed-in user answers in the thread of their own request: the request becomes open again (a closed one too) and the support inbox is told. The message follows the form's rules. Another account's ticket id answers 404.",
    auth: 'bearer',
    request: z.object({ token: z.optional(jwt), ticket_id: ticketId, message: supportMessageText }),
    response: response({ request: mySupportRequest }),
  }),
});
