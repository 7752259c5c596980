import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from '@/client/lib/api-client.ts';
import type { OrderDetail } from '@/shared/schemas/orders.ts';

export const getOrder = (number: number) =>
  apiFetch<OrderDetail>(`/api/orders/${number}`, { timeoutMs: 5000 });

/** One of the shopper's orders: confirmation page and receipt. Another shopper's number is a 404. */
export const orderQueryOptions = (number: number) =>
  queryOptions({
    queryKey: ['orders', number],
    queryFn: () => getOrder(number),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });

export const useOrder = (number: number, enabled = true) =>
  useQuery({ ...orderQueryOptions(number), enabled: enabled && Number.isInteger(number) && number > 0 });
