import { ClientError } from '@portal/client';
import { QueryClient } from '@tanstack/react-query';
import { QUERY_DEFAULT_RETRIES, QUERY_MAX_RETRIES, QUERY_RETRY_BASE_MS, QUERY_RETRY_CAP_MS } from '@/config/constants';

/** 1 s doubled each try, capped at 30 s (spec/000 §7). */
export function retryDelay(attempt: number): number {
  return Math.min(QUERY_RETRY_BASE_MS * 2 ** attempt, QUERY_RETRY_CAP_MS);
}

/** No retry on a missing session or a refusal that will not change; otherwise up to `max` tries. */
export function retryPolicy(max: number) {
  return (failureCount: number, error: unknown) => {
    if (error instanceof ClientError) {
      if (error.kind === 'unauthenticated') return false;
      // 408 and 429 are worth another try later; other 4xx refusals answer the same again.
      if (error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429) return false;
    }
    return failureCount < Math.min(max, QUERY_MAX_RETRIES);
  };
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: retryPolicy(QUERY_DEFAULT_RETRIES),
        retryDelay,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
