import { ErrorCodes } from '../errors.ts';

export interface Notice {
  title: string;
  text: string;
}

/** spec/000 §8: how a failed sign-in is shown, by server code first, then by message. */
export function classifyLoginError(code: number | undefined, message: string | undefined): Notice {
  const m = (message ?? '').toLowerCase();
  if (code === ErrorCodes.EMAIL_EXISTS.code || m.includes('User email already exists'.toLowerCase()))
    return {
      title: 'Account Already Exists',
      text: 'The email address you provided is already associated with an account. Please use a different email or sign in to your existing account.',
    };
  if (
    code === ErrorCodes.EMAIL_NOT_VERIFIED.code ||
    ['validate your email', 'verification', 'verify your account', 'email_not_verified'].some((s) => m.includes(s))
  )
    return {
      title: 'Email Verification Required',
      text: 'Please check your email for a verification link to verify your account before signing in.',
    };
  if (code === ErrorCodes.ACCOUNT_LOCKED.code || m.includes('locked') || m.includes('too many attempts'))
    return {
      title: 'Account Locked',
      text: 'Your account is temporarily locked due to too many failed attempts. Please try again later.',
    };
  if (m.includes('invalid email or password'))
    return {
      title: 'Authentication Failed',
      text: 'Invalid email or password. Please check your credentials and try again.',
    };
  return { title: 'Login Error', text: 'We encountered an issue while trying to log you in. Please try again.' };
}

/** spec/000 §8 HTTP failures of login. */
export function loginHttpMessage(status: number, bodyMessage: string | undefined): string {
  if (status === 401) return 'Invalid email or password.';
  if (status === 403) return 'Account access is forbidden.';
  return bodyMessage || 'Failed to log in';
}

/** spec/000 §8 HTTP failures of get-self. */
export function getSelfHttpMessage(status: number, bodyMessage: string | undefined): string {
  if (status === 401) return 'Authentication failed - invalid or expired token';
  if (status === 403) return 'Access forbidden';
  return bodyMessage || 'No response received from server';
}
