import { ClientError } from '@portal/client';
import { ErrorCodes } from '@portal/contract';

export interface Notice {
  title: string;
  text: string;
}

const NOTICES = {
  exists: {
    title: 'Account Already Exists',
    text: 'The email address you provided is already associated with an account. Please use a different email or sign in to your existing account.',
  },
  unverified: {
    title: 'Email Verification Required',
    text: 'Please check your email for a verification link to verify your account before signing in.',
  },
  locked: {
    title: 'Account Locked',
    text: 'Your account is temporarily locked due to too many failed attempts. Please try again later.',
  },
  badCredentials: {
    title: 'Authentication Failed',
    text: 'Invalid email or password. Please check your credentials and try again.',
  },
  other: { title: 'Login Error', text: 'We encountered an issue while trying to log you in. Please try again.' },
} as const satisfies Record<string, Notice>;

/**
 * spec/000 §8: how a failed sign-in is shown. The spec defines this table "by server code or
 * message", so the code decides and the message is matched only as the spec's fallback, for
 * answers that carry no code. It is the one place in the app that reads a message.
 */
/** The server's message of code 26, matched when an answer carries no code. */
const EMAIL_EXISTS_MESSAGE = 'User email already exists';

export function classifyLoginError(code: number | undefined, message: string | undefined): Notice {
  if (code === ErrorCodes.EMAIL_EXISTS.code) return NOTICES.exists;
  if (code === ErrorCodes.EMAIL_NOT_VERIFIED.code) return NOTICES.unverified;
  if (code === ErrorCodes.ACCOUNT_LOCKED.code) return NOTICES.locked;
  const m = (message ?? '').toLowerCase();
  if (m.includes(EMAIL_EXISTS_MESSAGE.toLowerCase())) return NOTICES.exists;
  if (['validate your email', 'verification', 'verify your account', 'email_not_verified'].some((s) => m.includes(s)))
    return NOTICES.unverified;
  if (m.includes('locked') || m.includes('too many attempts')) return NOTICES.locked;
  if (m.includes('invalid email or password')) return NOTICES.badCredentials;
  return NOTICES.other;
}

/** spec/000 §8 HTTP failures of login. */
export function loginHttpMessage(status: number, bodyMessage: string | undefined): string {
  if (status === 401) return 'Invalid email or password.';
  if (status === 403) return 'Account access is forbidden.';
  return bodyMessage || 'Failed to log in';
}

/** A sign-in refused by the page itself (not by the server), with what to show. */
export class LoginRejectedError extends Error {
  constructor(readonly notice: Notice) {
    super(notice.text);
    this.name = 'LoginRejectedError';
  }
}

/** spec/000 §4 Login step 2: a user whose email is not validated is refused as code 32 would be. */
export const UNVERIFIED_LOGIN = new LoginRejectedError(NOTICES.unverified);

export const NO_HUB_CREDENTIALS = 'No encrypted credentials received for hub login';

/** spec/000 §8: the toast and inline notice of a failed sign-in. */
export function loginFailureNotice(err: unknown): Notice {
  if (err instanceof LoginRejectedError) return err.notice;
  if (err instanceof ClientError) return classifyLoginError(err.code, loginHttpMessage(err.status, err.message));
  const message = err instanceof Error && err.message ? err.message : 'An unexpected error occurred';
  return { title: 'Login Failed', text: message };
}

/** What the other tabs are told about a failed sign-in (spec/000 §8: Account Locked or Login Failed). */
export function loginErrorBroadcast(notice: Notice): { title: string; message: string } {
  return { title: notice.title === NOTICES.locked.title ? 'Account Locked' : 'Login Failed', message: notice.text };
}
