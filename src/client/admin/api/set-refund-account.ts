import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { RefundAccount } from '@/shared/schemas/refunds.ts';
import { applyRefundAnswer, type RefundActionResponse } from './refund-answer.ts';

/** POST /api/admin/orders/:number/refund-account: the customer's CLABE, for every refund of the order still owed. */
export const setOrderRefundAccount = (number: number, body: RefundAccount) =>
  apiFetch<RefundActionResponse>(`/api/admin/orders/${number}/refund-account`, {
    method: 'POST',
    body,
    timeoutMs: 15_000,
  });

export function useSetOrderRefundAccount(number: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RefundAccount) => setOrderRefundAccount(number, body),
    onSuccess: (data) => applyRefundAnswer(client, data),
  });
}
