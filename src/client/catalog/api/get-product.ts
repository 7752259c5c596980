import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from '@/client/lib/api-client.ts';
import type { CatalogReads } from '@/shared/catalog-reads.ts';
import type { ProductDetail } from '@/shared/schemas/catalog.ts';
import { CATALOG_TIMEOUT_MS, catalogQueryPolicy } from './query-policy.ts';

/** The product, or null when the server answers 404 ('Producto no encontrado'): an answer, not a failure. */
export const getProduct = (code: string, signal?: AbortSignal) =>
  apiFetch<ProductDetail>(`/api/products/${encodeURIComponent(code)}`, {
    timeoutMs: CATALOG_TIMEOUT_MS,
    signal,
  }).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  });

/** Product detail: no artificial start delay (SPEC-NOTES); 2 s timeout, 3 retries 3 s apart. */
export const productQueryOptions = (code: string) =>
  queryOptions({
    queryKey: ['product', code],
    queryFn: ({ signal }) => getProduct(code, signal),
    ...catalogQueryPolicy,
  });

export const useProduct = (code: string) => useQuery(productQueryOptions(code));

/** The server's read of the same query (same key), kept in `client` for the page and its hydration. */
export const prefetchProduct = (client: QueryClient, reads: CatalogReads, code: string) =>
  client.fetchQuery({ ...productQueryOptions(code), queryFn: () => reads.product(code) });
