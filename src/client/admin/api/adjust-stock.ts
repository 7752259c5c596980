import type { AdminProduct, StockAdjustmentInput } from '@/shared/schemas/admin.ts';
import { apiFetch } from '../../lib/api-client.ts';

/** POST /api/admin/products/:code/stock (use with useProductMutation). */
export const adjustStock = (code: string, body: StockAdjustmentInput) =>
  apiFetch<{ message: string; product: AdminProduct }>(
    `/api/admin/products/${encodeURIComponent(code)}/stock`,
    {
      method: 'POST',
      body,
    },
  );
