import { ApiError, apiFetch } from '@/client/lib/api-client.ts';
import type { LeadTime } from '@/shared/backorder.ts';

/** Spec §7 and §9: the cart's stock check has a 3 s timeout and up to 3 retries, 500 ms × attempt apart. */
export const STOCK_TIMEOUT_MS = 3000;
export const STOCK_RETRIES = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The product's current stock from the server, or null when it cannot be known (unknown product after the
 * retries, or the network kept failing). A 404 is final: retrying would not make the product exist.
 */
export async function getProductStock(
  code: string,
): Promise<{ stock: number; leadTime: LeadTime | null } | null> {
  for (let attempt = 0; attempt <= STOCK_RETRIES; attempt++) {
    if (attempt > 0) await sleep(500 * attempt);
    try {
      const data = await apiFetch<{ code: string; stock: number; leadTime?: LeadTime | null }>(
        `/api/products/${encodeURIComponent(code)}/stock`,
        { timeoutMs: STOCK_TIMEOUT_MS },
      );
      return { stock: data.stock, leadTime: data.leadTime ?? null };
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
    }
  }
  return null;
}
