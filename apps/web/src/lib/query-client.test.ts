import { ClientError } from '@portal/client';
import { type ErrorKind, errorKindOf } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { retryDelay, retryPolicy } from './query-client';

const failed = (status: number, code?: number, kind: ErrorKind = errorKindOf(code, status)) =>
  new ClientError({ kind, status, code, description: 'whatever the server said' });

describe('retryPolicy (spec/000 §7)', () => {
  const retry = retryPolicy(3);

  it.each([
    ['a missing session, whatever its message', failed(0, undefined, 'unauthenticated'), false],
    ['a 401', failed(401, 101), false],
    ['a validation refusal', failed(400, 100), false],
    ['not found', failed(404, 103), false],
    ['a rate limit', failed(429, 105), true],
    ['a server failure', failed(500, 500), true],
    ['no answer at all', failed(0, undefined, 'network'), true],
    ['a bug that is not a ClientError', new TypeError('x is undefined'), true],
  ])('%s: retried %s', (_label, error, retried) => {
    expect(retry(0, error)).toBe(retried);
  });

  it('stops after the query allows, and never beyond 3 tries', () => {
    expect(retryPolicy(1)(1, failed(500, 500))).toBe(false);
    expect(retryPolicy(10)(3, failed(500, 500))).toBe(false);
    expect(retryPolicy(10)(2, failed(500, 500))).toBe(true);
  });
});

describe('retryDelay', () => {
  it.each([
    [0, 1_000],
    [1, 2_000],
    [4, 16_000],
    [5, 30_000],
    [9, 30_000],
  ])('attempt %s waits %s ms', (attempt, ms) => expect(retryDelay(attempt)).toBe(ms));
});
