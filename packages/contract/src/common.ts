import { z } from 'zod';
import { PASSWORD_MAX } from './constants.ts';

/** Shapes shared by several services. */

export const email = z.email({ error: 'Invalid email address' }).max(254);
/** Emails are compared case-insensitively; the server stores them lower-cased. */
export const normalisedEmail = z.string().trim().toLowerCase().pipe(email);
export const password = z.string().max(PASSWORD_MAX - 1, { error: 'Password must be less than 256 characters' });
export const jwt = z.string().min(1).max(4096);
export const epochSeconds = z.number().int();
export const epochMs = z.number().int();

export const tokenPair = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  /** seconds from issue until the access token expires */
  access_token_expires_in: z.number().int(),
  /** seconds from issue until the refresh token expires */
  refresh_token_expires_in: z.number().int(),
});
export type TokenPair = z.infer<typeof tokenPair>;

export const publicUser = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  year_born: z.number().int(),
  country: z.string(),
  marketing: z.boolean(),
  termsagreed: z.boolean(),
  company: z.string(),
  profession: z.string(),
  join_date: z.string(),
  email_validated: z.boolean(),
});
export type PublicUser = z.infer<typeof publicUser>;
