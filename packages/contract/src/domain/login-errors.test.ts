import { describe, expect, it } from 'vitest';
import { classifyLoginError, getSelfHttpMessage, loginHttpMessage } from './login-errors.ts';

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
    [500, 'boom', 'Login Error'],
    [undefined, undefined, 'Login Error'],
  ])('code %s message %s', (code, message, title) => expect(classifyLoginError(code, message).title).toBe(title));
});

describe('HTTP failure messages', () => {
  it.each([
    [401, 'x', 'Invalid email or password.', 'Authentication failed - invalid or expired token'],
    [403, 'x', 'Account access is forbidden.', 'Access forbidden'],
    [500, 'Server says', 'Server says', 'Server says'],
    [500, '', 'Failed to log in', 'No response received from server'],
  ])('%s', (status, body, login, getSelf) => {
    expect(loginHttpMessage(status, body)).toBe(login);
    expect(getSelfHttpMessage(status, body)).toBe(getSelf);
  });
});
