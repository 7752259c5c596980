import { apiFetch } from '@/client/lib/api-client.ts';
import type { AdminProduct, StockAdjustmentInput } from '@/shared/schemas/admin.ts';

/** POST /api/admin/products/:code/stock (use with useProductMutation). */
export const adjustStock = (code: string, body: StockAdjustmentInput) =>
  apiFetch<{ message: string; product: AdminProduct }>(
    `/api/admin/products/${encodeURIComponent(code)}/stock`,
    {
      method: 'POST',
      body,
    },
  );
