import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { CancelOrderResponse } from '@/shared/schemas/orders.ts';
import type { RefundAccount } from '@/shared/schemas/refunds.ts';

/** POST /api/orders/:number/refund-account: the CLABE an owed SPEI or cash refund is paid to. */
export const setRefundAccount = ({ number, account }: { number: number; account: RefundAccount }) =>
  apiFetch<CancelOrderResponse>(`/api/orders/${number}/refund-account`, {
    method: 'POST',
    body: account,
    timeoutMs: 15_000,
  });

/** Saves the account; the receipt takes the server's answer and the history is read again (its sentence changes). */
export function useSetRefundAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setRefundAccount,
    onSuccess: (data, { number }) => {
      client.setQueryData(['orders', number], data.order);
      void client.invalidateQueries({ queryKey: ['orders'], exact: true });
    },
  });
}
