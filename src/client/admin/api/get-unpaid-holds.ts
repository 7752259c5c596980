import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { UnpaidHolds } from '@/shared/schemas/orders.ts';

/** GET /api/admin/unpaid-holds: the stock held by unpaid SPEI/store orders, per product (issue 37). */
export const useUnpaidHolds = () =>
  useQuery({
    queryKey: ['admin', 'unpaid-holds'],
    queryFn: () => apiFetch<UnpaidHolds>('/api/admin/unpaid-holds'),
  });
