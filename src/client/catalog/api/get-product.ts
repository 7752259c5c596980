import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProductDetail } from '@/shared/schemas/catalog.ts';
import { apiFetch } from '../../lib/api-client.ts';
import { CATALOG_TIMEOUT_MS, catalogQueryPolicy } from './query-policy.ts';

export const getProduct = (code: string, signal?: AbortSignal) =>
  apiFetch<ProductDetail>(`/api/products/${encodeURIComponent(code)}`, {
    timeoutMs: CATALOG_TIMEOUT_MS,
    signal,
  });

/** Product detail: no artificial start delay (SPEC-NOTES); 2 s timeout, 3 retries 3 s apart. */
export const productQueryOptions = (code: string) =>
  queryOptions({
    queryKey: ['product', code],
    queryFn: ({ signal }) => getProduct(code, signal),
    ...catalogQueryPolicy,
  });

export const useProduct = (code: string) => useQuery(productQueryOptions(code));
