import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { StockMovement } from '@/shared/schemas/admin.ts';

export const getMovements = (code: string) =>
  apiFetch<{ stock: number; movements: StockMovement[] }>(
    `/api/admin/products/${encodeURIComponent(code)}/movements`,
  );

export const movementsQueryOptions = (code: string) =>
  queryOptions({ queryKey: ['admin', 'movements', code], queryFn: () => getMovements(code) });

export const useMovements = (code: string) => useQuery(movementsQueryOptions(code));
