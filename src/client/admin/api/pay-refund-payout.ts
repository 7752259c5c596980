import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import { applyRefundAnswer, type RefundActionResponse } from './refund-answer.ts';

/** POST /api/admin/refunds/:id/payout: pays an owed refund with an Openpay payout to the customer's CLABE. */
export const payRefundByPayout = (refundId: number) =>
  apiFetch<RefundActionResponse>(`/api/admin/refunds/${refundId}/payout`, {
    method: 'POST',
    body: {},
    // Openpay is asked within the request.
    timeoutMs: 60_000,
  });

export function usePayRefundByPayout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: payRefundByPayout,
    onSuccess: (data, refundId) => applyRefundAnswer(client, data, refundId),
  });
}
