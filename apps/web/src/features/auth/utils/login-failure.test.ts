import { describe, expect, it } from 'vitest';
import {
  LoginRejectedError,
  loginErrorBroadcast,
  loginFailureNotice,
  NO_HUB_CREDENTIALS,
  UNVERIFIED_LOGIN,
} from './login-failure';

class FakeCallError extends Error {
  constructor(
    message: string,
    readonly code: number | undefined,
    readonly status: number,
  ) {
    super(message);
  }
}

describe('loginFailureNotice', () => {
  it.each([
    [
      'a wrong password (401)',
      new FakeCallError('Invalid email or password', 101, 401),
      'Authentication Failed',
      'Invalid email or password. Please check your credentials and try again.',
    ],
    [
      'an unverified email (403, code 32)',
      new FakeCallError('EMAIL_NOT_VERIFIED: please validate your email', 32, 403),
      'Email Verification Required',
      'Please check your email for a verification link to verify your account before signing in.',
    ],
    [
      'a locked account (423, code 45)',
      new FakeCallError('Account locked: too many failed attempts.', 45, 423),
      'Account Locked',
      'Your account is temporarily locked due to too many failed attempts. Please try again later.',
    ],
    [
      'an existing email (code 26)',
      new FakeCallError('User email already exists', 26, 409),
      'Account Already Exists',
      'The email address you provided is already associated with an account. Please use a different email or sign in to your existing account.',
    ],
    [
      'a forbidden answer (403)',
      new FakeCallError('x-csrf-token: header missing', 106, 403),
      'Login Error',
      'We encountered an issue while trying to log you in. Please try again.',
    ],
    [
      'no answer at all',
      new FakeCallError('No response received from server', undefined, 0),
      'Login Error',
      'We encountered an issue while trying to log you in. Please try again.',
    ],
    [
      'a rate limit',
      new FakeCallError('Too many sign-in attempts from this address.', 105, 429),
      'Login Error',
      'We encountered an issue while trying to log you in. Please try again.',
    ],
    [
      'a user whose email is not validated',
      UNVERIFIED_LOGIN,
      'Email Verification Required',
      'Please check your email for a verification link to verify your account before signing in.',
    ],
    ['a hub answer without credentials', new Error(NO_HUB_CREDENTIALS), 'Login Failed', NO_HUB_CREDENTIALS],
    ['an error without a message', new Error(''), 'Login Failed', 'An unexpected error occurred'],
    ['something that is not an error', 'boom', 'Login Failed', 'An unexpected error occurred'],
    ['a page-side refusal', new LoginRejectedError({ title: 'T', text: 'X' }), 'T', 'X'],
  ])('%s', (_label, err, title, text) => {
    expect(loginFailureNotice(err)).toEqual({ title, text });
  });
});

describe('loginErrorBroadcast', () => {
  it.each([
    ['Account Locked', 'Account Locked'],
    ['Authentication Failed', 'Login Failed'],
    ['Email Verification Required', 'Login Failed'],
    ['Login Error', 'Login Failed'],
  ])('%s -> %s', (title, expected) => {
    expect(loginErrorBroadcast({ title, text: 'why' })).toEqual({ title: expected, message: 'why' });
  });
});
