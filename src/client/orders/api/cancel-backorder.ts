import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { CancelOrderResponse } from '@/shared/schemas/orders.ts';

/** Issue 35: give up the late 'sobre pedido' units of one line, refunded by the way the order was paid. */
export function useCancelBackorder(number: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (lineNo: number) =>
      apiFetch<CancelOrderResponse>(`/api/orders/${number}/lines/${lineNo}/cancel-backorder`, {
        method: 'POST',
        body: {},
        timeoutMs: 60_000,
      }),
    onSuccess: (data) => {
      client.setQueryData(['orders', number], data.order);
      void client.invalidateQueries({ queryKey: ['orders'], exact: true });
    },
  });
}
