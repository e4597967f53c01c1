import * as z from 'zod/mini';
import { jwt, normalisedEmail } from './common.ts';
import {
  SUPPORT_CATEGORIES,
  SUPPORT_MESSAGE_MAX,
  SUPPORT_MESSAGE_MIN,
  SUPPORT_ROBOT_MODEL_MAX,
  SUPPORT_SUBJECT_MAX,
  SUPPORT_SUBJECT_MIN,
} from './constants.ts';
import { action, response, service } from './define.ts';

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
});
