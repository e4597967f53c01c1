import { ClientError } from '@portal/client';
import { errorKindOf } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  classifyLoginError,
  LoginRejectedError,
  loginErrorBroadcast,
  loginFailureNotice,
  loginHttpMessage,
  NO_HUB_CREDENTIALS,
  UNVERIFIED_LOGIN,
} from './login-failure';

/** A failed answer as the action client reports it. */
const callError = (description: string, code: number | undefined, status: number) =>
  new ClientError({ kind: status === 0 ? 'network' : errorKindOf(code, status), status, code, description });

describe('classifyLoginError', () => {
  it.each([
    [26, '', 'Account Already Exists'],
    [undefined, 'User email already exists', 'Account Already Exists'],
    [32, '', 'Email Verification Required'],
    [undefined, 'Please validate your email first', 'Email Verification Required'],
    [undefined, 'EMAIL_NOT_VERIFIED', 'Email Verification Required'],
    [undefined, 'verify your account', 'Email Verification Required'],
    [45, '', 'Account Locked'],
    [undefined, 'Too many attempts', 'Account Locked'],
    [undefined, 'account is locked', 'Account Locked'],
    [101, 'Invalid email or password', 'Authentication Failed'],
    // the code decides before any message is read
    [45, 'Invalid email or password', 'Account Locked'],
    [500, 'boom', 'Login Error'],
    [undefined, undefined, 'Login Error'],
  ])('code %s message %s', (code, message, title) => expect(classifyLoginError(code, message).title).toBe(title));
});

describe('loginHttpMessage', () => {
  it.each([
    [401, 'x', 'Invalid email or password.'],
    [403, 'x', 'Account access is forbidden.'],
    [500, 'Server says', 'Server says'],
    [500, '', 'Failed to log in'],
  ])('%s', (status, body, login) => expect(loginHttpMessage(status, body)).toBe(login));
});

describe('loginFailureNotice', () => {
  it.each([
    [
      'a wrong password (401)',
      callError('Invalid email or password', 101, 401),
      'Authentication Failed',
      'Invalid email or password. Please check your credentials and try again.',
    ],
    [
      'an unverified email (403, code 32)',
      callError('EMAIL_NOT_VERIFIED: please validate your email', 32, 403),
      'Email Verification Required',
      'Please check your email for a verification link to verify your account before signing in.',
    ],
    [
      'a locked account (423, code 45)',
      callError('Account locked: too many failed attempts.', 45, 423),
      'Account Locked',
      'Your account is temporarily locked due to too many failed attempts. Please try again later.',
    ],
    [
      'an existing email (code 26)',
      callError('User email already exists', 26, 409),
      'Account Already Exists',
      'The email address you provided is already associated with an account. Please use a different email or sign in to your existing account.',
    ],
    [
      'a forbidden answer (403)',
      callError('x-csrf-token: header missing', 106, 403),
      'Login Error',
      'We encountered an issue while trying to log you in. Please try again.',
    ],
    [
      'no answer at all',
      callError('No response received from server', undefined, 0),
      'Login Error',
      'We encountered an issue while trying to log you in. Please try again.',
    ],
    [
      'a rate limit',
      callError('Too many sign-in attempts from this address.', 105, 429),
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
