import { isClientError } from '@portal/client';
import { type Asset, assets as assetsService } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Freshness } from '@/config/constants';
import { apiClient, failedAs } from '@/lib/api-client';
import { retryPolicy } from '@/lib/query-client';

export const INVALID_ASSETS = 'Invalid assets data received';
export const ASSETS_FAILED = 'Failed to fetch assets';

/** GetAll: every downloadable asset with its artifacts. An answer of the wrong shape is "invalid". */
export async function fetchAssets(): Promise<Asset[]> {
  try {
    const res = await apiClient.call(assetsService, 'GetAll', {});
    return res.assets;
  } catch (err) {
    // A successful answer the contract cannot read is "invalid"; anything else failed to fetch.
    if (isClientError(err, 'invalid_response') && err.status < 400) throw err.withMessage(INVALID_ASSETS);
    throw failedAs(err, ASSETS_FAILED);
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
