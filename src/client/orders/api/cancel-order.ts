import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { CancelOrderResponse } from '@/shared/schemas/orders.ts';

export const cancelOrder = (number: number) =>
  apiFetch<CancelOrderResponse>(`/api/orders/${number}/cancel`, {
    method: 'POST',
    body: {},
    timeoutMs: 60_000,
  });

/** 'Cancelar pedido': immediate refund; the history and the order are refetched afterwards. */
export function useCancelOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    onSuccess: (data, number) => {
      client.setQueryData(['orders', number], data.order);
      void client.invalidateQueries({ queryKey: ['orders'], exact: true });
    },
  });
}
