import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { OrderList } from '@/shared/schemas/orders.ts';

export const getOrders = () => apiFetch<OrderList>('/api/orders', { timeoutMs: 5000 });

/** The signed-in shopper's order history (newest first) and the server's message when empty. */
export const ordersQueryOptions = queryOptions({ queryKey: ['orders'], queryFn: getOrders, retry: 2 });

export const useOrders = (enabled = true) => useQuery({ ...ordersQueryOptions, enabled });
