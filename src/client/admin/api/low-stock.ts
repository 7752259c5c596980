import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { LowStockList } from '@/shared/schemas/low-stock.ts';

/** 'Por agotarse' (decision 066): GET /api/admin/stock/low. */
export const useLowStock = () =>
  useQuery({
    queryKey: ['admin', 'stock', 'low'],
    queryFn: () => apiFetch<LowStockList>('/api/admin/stock/low'),
  });

/** PUT /api/admin/products/:code/reorder-point: a number of units, or null for the shop's default. */
export const useSetReorderPoint = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ code, reorderPoint }: { code: string; reorderPoint: number | null }) =>
      apiFetch<{ message: string; code: string; reorderPoint: number | null }>(
        `/api/admin/products/${encodeURIComponent(code)}/reorder-point`,
        { method: 'PUT', body: { reorderPoint } },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin', 'stock', 'low'] }),
  });
};
