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

/**
 * 'Ya no voy a pagar' (issue 37): the buyer abandons an unpaid SPEI/store order — its reference stops counting and
 * the stock it held is free again. A payment that still arrives follows the 'fuera de plazo' path.
 */
export function useAbandonOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (number: number) =>
      apiFetch<CancelOrderResponse>(`/api/orders/${number}/abandon`, { method: 'POST', body: {} }),
    onSuccess: (data, number) => {
      client.setQueryData(['orders', number], data.order);
      void client.invalidateQueries({ queryKey: ['orders'], exact: true });
    },
  });
}
