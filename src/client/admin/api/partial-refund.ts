import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { PartialRefund } from '@/shared/schemas/refunds.ts';
import { applyRefundAnswer, type RefundActionResponse } from './refund-answer.ts';

/** POST /api/admin/orders/:number/refunds: part of a paid order back, by card at once or owed to a CLABE. */
export const refundPartOfOrder = (number: number, body: PartialRefund) =>
  apiFetch<RefundActionResponse>(`/api/admin/orders/${number}/refunds`, {
    method: 'POST',
    body,
    // Openpay is asked within the request for a card refund.
    timeoutMs: 60_000,
  });

export function usePartialRefund(number: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PartialRefund) => refundPartOfOrder(number, body),
    onSuccess: (data) => applyRefundAnswer(client, data),
  });
}
