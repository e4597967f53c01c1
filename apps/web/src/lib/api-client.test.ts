import { describe, expect, it } from 'vitest';
import { splitDescription } from './api-client';

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
