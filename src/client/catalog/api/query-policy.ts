import { ApiError } from '@/client/lib/api-client.ts';

/** Spec §7/§9: catalogue calls time out after 2 s. */
export const CATALOG_TIMEOUT_MS = 2000;

/**
 * Spec §9: 3 retries 3 s apart, no refetch on window focus. Only failures that a retry can fix are
 * retried (network, timeout, 5xx); a 4xx such as 'Producto no encontrado' shows at once.
 */
export const catalogQueryPolicy = {
  retry: (failureCount: number, error: Error) =>
    failureCount < 3 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
  retryDelay: 3000,
  refetchOnWindowFocus: false,
} as const;
