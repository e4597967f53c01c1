import { type Asset, assets as assetsService, Freshness } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiCallError, callAction, withMessage } from '@/lib/api-client';
import { retryPolicy } from '@/lib/query-client';

export const INVALID_ASSETS = 'Invalid assets data received';
export const ASSETS_FAILED = 'Failed to fetch assets';

/** GetAll: every downloadable asset with its artifacts. An answer of the wrong shape is "invalid". */
export async function fetchAssets(): Promise<Asset[]> {
  try {
    const res = await callAction(assetsService, 'GetAll', {}, { fallbackMessage: INVALID_ASSETS });
    return res.assets;
  } catch (err) {
    // callAction answers the fallback message only for a reply it could not read.
    if (err instanceof ApiCallError && err.message === INVALID_ASSETS && err.status < 400) throw err;
    throw withMessage(err, ASSETS_FAILED);
  }
}

export const assetsKey = ['assets', 'GetAll'] as const;

/** Up to 3 retries (spec/001 §7); typed on Error so the query's error stays an Error. */
const retryAssets: (failureCount: number, error: Error) => boolean = retryPolicy(Freshness.assets.retries);

export function assetsQueryOptions() {
  return queryOptions({
    queryKey: assetsKey,
    queryFn: fetchAssets,
    staleTime: Freshness.assets.staleMs,
    retry: retryAssets,
  });
}

export function useAssets() {
  return useQuery(assetsQueryOptions());
}
