import { apiFetch } from '@/client/lib/api-client.ts';
import type { PlaceOrder, PlaceOrderResponse } from '@/shared/schemas/orders.ts';

/**
 * POST /api/orders with its Idempotency-Key. The same key and body may be sent again after a lost
 * answer: the server replays the first result and never charges twice.
 */
export function placeOrder(key: string, body: PlaceOrder): Promise<PlaceOrderResponse> {
  return apiFetch<PlaceOrderResponse>('/api/orders', {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': key },
    timeoutMs: 90_000,
  });
}
