import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { AdminOrderDetail } from '@/shared/schemas/admin.ts';

export const getAdminOrder = (number: number) => apiFetch<AdminOrderDetail>(`/api/admin/orders/${number}`);

export const adminOrderQueryOptions = (number: number) =>
  queryOptions({ queryKey: ['admin', 'order', number], queryFn: () => getAdminOrder(number), retry: false });

export const useAdminOrder = (number: number) => useQuery(adminOrderQueryOptions(number));
