import { type PaymentProduct, payment } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Freshness } from '@/config/constants';
import { apiClient, failedAs } from './api-client';

/*
 * GetProducts (spec/001 §7): the catalogue. Shared because Add Robot, Buy More Time, the plan cards
 * and the flexible-license cards all read the same answer, and one cached copy keeps them agreeing.
 */

export const PRODUCTS_FAILED = 'Failed to fetch products';

export async function fetchProducts(): Promise<PaymentProduct[]> {
  try {
    return (await apiClient.call(payment, 'GetProducts', {})).products;
  } catch (err) {
    throw failedAs(err, PRODUCTS_FAILED);
  }
}

export const productsKey = ['payment', 'GetProducts'] as const;

export function productsQueryOptions() {
  return queryOptions({
    queryKey: productsKey,
    queryFn: fetchProducts,
    staleTime: Freshness.products.staleMs,
    refetchInterval: Freshness.products.refetchMs,
  });
}

export function useProducts() {
  return useQuery(productsQueryOptions());
}
