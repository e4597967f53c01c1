import { describe, expect, it } from 'vitest';
import { ApiCallError, isMissingAuth, MISSING_AUTH, NO_USER_TOKEN, splitDescription, withMessage } from './api-client';

describe('splitDescription', () => {
  it.each([
    ['user.password: Current password is incorrect', 'Current password is incorrect', ['user.password']],
    [
      'password: Password must be at least 8 characters; password: Password must contain at least one number',
      'Password must be at least 8 characters Password must contain at least one number',
      ['password', 'password'],
    ],
    ['Invalid email or password', 'Invalid email or password', []],
    ['x-csrf-token: header missing (fetch one first)', 'header missing (fetch one first)', ['x-csrf-token']],
    // not a field name: kept whole
    [
      'Account locked: too many failed attempts. Please try again later.',
      'Account locked: too many failed attempts. Please try again later.',
      [],
    ],
  ])('%s', (description, message, fields) => expect(splitDescription(description)).toEqual({ message, fields }));
});

describe('withMessage', () => {
  it('names the failure as the spec does, keeping code and status', () => {
    const wrapped = withMessage(new ApiCallError('license_id: not yours', 24, 404), 'Failed to fetch licenses');
    expect(wrapped).toBeInstanceOf(ApiCallError);
    expect(wrapped).toMatchObject({ message: 'Failed to fetch licenses', code: 24, status: 404, fields: [] });
  });

  it.each([
    ['a plain error', new Error('boom')],
    ['a thrown string', 'boom'],
    ['nothing', undefined],
  ])('wraps %s with status 0 and no code', (_name, err) => {
    expect(withMessage(err, 'Failed to fetch assets')).toMatchObject({
      message: 'Failed to fetch assets',
      code: undefined,
      status: 0,
    });
  });

  it('keeps a network failure retryable (status 0)', () => {
    const wrapped = withMessage(new ApiCallError('No response received from server', undefined, 0), 'Failed');
    expect(wrapped).toMatchObject({ message: 'Failed', status: 0 });
  });

  it.each([MISSING_AUTH, NO_USER_TOKEN, 'No refresh token provided'])('keeps a missing session (%s) as is', (text) => {
    const err = new ApiCallError(text, 101, 401);
    expect(withMessage(err, 'Failed to check remaining time')).toBe(err);
    expect(isMissingAuth(withMessage(err, 'Failed to check remaining time'))).toBe(true);
  });

  it('keeps the message of a missing session that is not an ApiCallError', () => {
    const wrapped = withMessage(new Error(MISSING_AUTH), 'Failed to fetch assets');
    expect(wrapped).toBeInstanceOf(ApiCallError);
    expect(wrapped.message).toBe(MISSING_AUTH);
    expect(isMissingAuth(wrapped)).toBe(true);
  });
});
