import * as z from 'zod/mini';
import { PASSWORD_MAX } from './constants.ts';

/** Shapes shared by several services. */

export const email = z.email({ error: 'Invalid email address' }).check(z.maxLength(254));
/** Emails are compared case-insensitively; the server stores them lower-cased. */
export const normalisedEmail = z.pipe(z.string().check(z.trim(), z.toLowerCase()), email);
export const password = z
  .string()
  .check(z.maxLength(PASSWORD_MAX - 1, { error: 'Password must be less than 256 characters' }));
export const jwt = z.string().check(z.minLength(1), z.maxLength(4096));
export const epochSeconds = z.int();
export const epochMs = z.int();

export const tokenPair = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  /** seconds from issue until the access token expires */
  access_token_expires_in: z.int(),
  /** seconds from issue until the refresh token expires */
  refresh_token_expires_in: z.int(),
});
export type TokenPair = z.infer<typeof tokenPair>;

export const publicUser = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  year_born: z.int(),
  country: z.string(),
  marketing: z.boolean(),
  termsagreed: z.boolean(),
  company: z.string(),
  profession: z.string(),
  join_date: z.string(),
  email_validated: z.boolean(),
});
export type PublicUser = z.infer<typeof publicUser>;
