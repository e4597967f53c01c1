import { ClientError } from '@portal/client';
import { COMMON_PASSWORD_MESSAGE } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { serverFieldError } from './server-field-error';

const refusal = (description: string, kind: 'validation' | 'locked' = 'validation') =>
  new ClientError({ kind, status: kind === 'locked' ? 423 : 400, code: 100, description, call: 'x' });

describe('serverFieldError', () => {
  it.each([
    [refusal(`user.password: ${COMMON_PASSWORD_MESSAGE}`), 'user.password', COMMON_PASSWORD_MESSAGE],
    [refusal(`password: ${COMMON_PASSWORD_MESSAGE}`), 'password', COMMON_PASSWORD_MESSAGE],
    [refusal(`password: ${COMMON_PASSWORD_MESSAGE}`), 'user.password', undefined],
    [refusal('user.password: Current password is incorrect'), 'password', undefined],
    [refusal('Account locked: too many failed attempts.', 'locked'), 'password', undefined],
    [new Error('password: network down'), 'password', undefined],
    [undefined, 'password', undefined],
  ])('%#', (err, field, message) => {
    expect(serverFieldError(err, field)).toBe(message);
  });
});
