import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminOrderDetail } from '@/shared/schemas/admin.ts';
import { apiFetch } from '../../lib/api-client.ts';

export const getAdminOrder = (number: number) => apiFetch<AdminOrderDetail>(`/api/admin/orders/${number}`);

export const adminOrderQueryOptions = (number: number) =>
  queryOptions({ queryKey: ['admin', 'order', number], queryFn: () => getAdminOrder(number), retry: false });

export const useAdminOrder = (number: number) => useQuery(adminOrderQueryOptions(number));
