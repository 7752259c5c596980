import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { OrderReturns, ReturnRequest, ReturnView } from '@/shared/schemas/returns.ts';

export const orderReturnsKey = (number: number) => ['orders', number, 'returns'] as const;

/** The order's window, returnable lines and returns so far (the buyer's own order; another's is a 404). */
export const useOrderReturns = (number: number) =>
  useQuery({
    queryKey: orderReturnsKey(number),
    queryFn: () => apiFetch<OrderReturns>(`/api/orders/${number}/returns`),
    enabled: Number.isInteger(number) && number > 0,
  });

/** «Solicitar devolución»: lines, reason, description and photos (base64), up to a minute for the upload. */
export function useRequestReturn(number: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReturnRequest) =>
      apiFetch<{ message: string; return: ReturnView }>(`/api/orders/${number}/returns`, {
        method: 'POST',
        body,
        timeoutMs: 60_000,
      }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: orderReturnsKey(number) });
      void client.invalidateQueries({ queryKey: ['orders'], exact: true });
    },
  });
}
