import { ApiCallError, isMissingAuth } from '@/lib/api-client';

/**
 * A failed call as the spec names it ("Failed to fetch licenses"...), keeping the status and code
 * that the retry policy reads. A missing session keeps its own message, which the screens and the
 * retry policy recognise.
 */
export function robotsCallError(err: unknown, message: string): Error {
  if (isMissingAuth(err)) return err as Error;
  if (err instanceof ApiCallError) return new ApiCallError(message, err.code, err.status);
  return new ApiCallError(message, undefined, 0);
}
