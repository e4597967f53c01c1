import { ApiError } from '@portal/contract';
import Stripe from 'stripe';

/**
 * A failure of the payment provider is the provider's (issue 31, finding 3; docs/decisions/064): it
 * answers 502 when Stripe answered with an error (a revoked key, a refused request, Stripe's own
 * 5xx) and 503 when Stripe could not be reached or did not answer in time. Never its 401 or 403:
 * the web client takes those for an expired session and refreshes. Both carry code 111
 * (UNAVAILABLE), the same answer as storage's (docs/decisions/059).
 */

/** Retry-After of a 503: as storage's, the provider is given two minutes. */
export const PROVIDER_RETRY_AFTER_S = 120;
export const PROVIDER_UNAVAILABLE = 'Payments are unavailable right now, please try again in a few minutes';
export const PROVIDER_FAILED = 'The payment provider could not complete this, please try again later';

export type ProviderFailure = 'unreachable' | 'timeout' | 'error';

/** What the log says of a provider failure: no key, no customer data. */
export interface ProviderFailureLog {
  provider: 'stripe';
  failure: ProviderFailure;
  /** the SDK's error type (StripeAuthenticationError, StripeConnectionError, ...) */
  type: string;
  /** Stripe's HTTP status, when it answered */
  status?: number | undefined;
  /** Stripe's error code (resource_missing, ...) or the network error's (ECONNREFUSED) */
  code?: string | undefined;
  /** Stripe's request id (req_...), for Stripe's support and the Dashboard's logs */
  requestId?: string | undefined;
  message: string;
}

/** The Stripe SDK error in `err` or its causes, if any; a webhook signature failure is not one (it is the caller's). */
function stripeErrorIn(err: unknown): Stripe.errors.StripeError | undefined {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ApiError) return undefined;
    if (e instanceof Stripe.errors.StripeSignatureVerificationError) return undefined;
    if (e instanceof Stripe.errors.StripeError) return e;
  }
  return undefined;
}

/** How a failed call failed at the provider, or undefined when it is not a provider failure (an ApiError of ours stays as it is). */
export function providerFailureOf(err: unknown): ProviderFailureLog | undefined {
  const e = stripeErrorIn(err);
  if (!e) return undefined;
  const connection = e instanceof Stripe.errors.StripeConnectionError || e.statusCode === undefined;
  const timedOut = connection && /timeout/i.test(e.message);
  const detailCode = (e.detail as { code?: string } | undefined)?.code;
  return {
    provider: 'stripe',
    failure: connection ? (timedOut ? 'timeout' : 'unreachable') : 'error',
    type: e.type,
    status: e.statusCode,
    code: e.code ?? detailCode,
    requestId: e.requestId,
    // Stripe masks keys in its messages ("sk_test_*****6789"); nothing of the customer is in them.
    message: e.message,
  };
}

/** The answer to a provider failure: 503 (unreachable, timed out) or 502 (Stripe answered with an error). */
export function providerAnswer(failure: ProviderFailureLog, requestId: string): ApiError {
  return failure.failure === 'error'
    ? new ApiError('UNAVAILABLE', `${PROVIDER_FAILED} (request ${requestId})`, { status: 502 })
    : new ApiError('UNAVAILABLE', `${PROVIDER_UNAVAILABLE} (request ${requestId})`, {
        retryAfterS: PROVIDER_RETRY_AFTER_S,
      });
}
