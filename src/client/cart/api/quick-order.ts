import { apiFetch } from '@/client/lib/api-client.ts';
import type { QuickOrderRequest, QuickOrderResponse } from '@/shared/schemas/quick-order.ts';

/** POST /api/quick-order/preview: reads and resolves the lines; changes nothing. */
export const previewQuickOrder = (body: QuickOrderRequest) =>
  apiFetch<QuickOrderResponse>('/api/quick-order/preview', { method: 'POST', body, timeoutMs: 15_000 });
