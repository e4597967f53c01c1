import { ApiError } from '@portal/contract';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { providerAnswer, providerFailureOf } from './provider-failure.ts';

/** Which failures are the payment provider's, and how each is answered (docs/decisions/064). */
const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
const cases: [
  string,
  unknown,
  ReturnType<typeof providerFailureOf> extends infer T ? Partial<T> | undefined : never,
  number | undefined,
][] = [
  [
    'a refused connection',
    new Stripe.errors.StripeConnectionError({
      message: 'An error occurred with our connection to Stripe. Request was retried 2 times.',
      detail: refused,
    }),
    { failure: 'unreachable', type: 'StripeConnectionError', code: 'ECONNREFUSED' },
    503,
  ],
  [
    'a timeout',
    new Stripe.errors.StripeConnectionError({ message: 'Request aborted due to timeout being reached (3000ms)' }),
    { failure: 'timeout', type: 'StripeConnectionError' },
    503,
  ],
  [
    'a revoked key',
    new Stripe.errors.StripeAuthenticationError({
      message: 'Invalid API Key provided: sk_test_*****6789',
      statusCode: 401,
      requestId: 'req_1',
    }),
    { failure: 'error', type: 'StripeAuthenticationError', status: 401, requestId: 'req_1' },
    502,
  ],
  [
    'a permission error',
    new Stripe.errors.StripePermissionError({ message: 'restricted key', statusCode: 403, requestId: 'req_2' }),
    { failure: 'error', status: 403 },
    502,
  ],
  [
    "Stripe's own 500",
    new Stripe.errors.StripeAPIError({ message: 'boom', statusCode: 500, requestId: 'req_3' }),
    { failure: 'error', status: 500 },
    502,
  ],
  [
    'a refused request',
    new Stripe.errors.StripeInvalidRequestError({
      message: 'No such price',
      statusCode: 400,
      code: 'resource_missing',
      requestId: 'req_4',
    }),
    { failure: 'error', status: 400, code: 'resource_missing' },
    502,
  ],
  [
    'a Stripe error wrapped by our code',
    new Error('cancel failed', {
      cause: new Stripe.errors.StripeAPIError({ message: 'x', statusCode: 502, requestId: 'req_5' }),
    }),
    { failure: 'error', requestId: 'req_5' },
    502,
  ],
  ['an ApiError of ours', new ApiError('CONFLICT', 'price_id: this is already your plan'), undefined, undefined],
  [
    'a webhook signature failure (the caller’s)',
    new Stripe.errors.StripeSignatureVerificationError('header', 'payload', { message: 'No signatures found' }),
    undefined,
    undefined,
  ],
  ['any other error', new Error('database gone'), undefined, undefined],
];

describe('providerFailureOf', () => {
  it.each(cases)('%s', (_, err, expected, status) => {
    const failure = providerFailureOf(err);
    if (!expected) {
      expect(failure).toBeUndefined();
      return;
    }
    expect(failure).toMatchObject({ provider: 'stripe', ...expected });
    const answer = providerAnswer(failure as NonNullable<typeof failure>, 'r-1');
    expect(answer.status).toBe(status);
    expect(answer.errorName).toBe('UNAVAILABLE');
    expect(answer.retryAfterS).toBe(status === 503 ? 120 : undefined);
    expect(answer.message).not.toMatch(/sk_test|API Key/);
  });
});
