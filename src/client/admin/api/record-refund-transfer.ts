import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { RefundTransferInput } from '@/shared/schemas/refunds.ts';
import { applyRefundAnswer, type RefundActionResponse } from './refund-answer.ts';

/** POST /api/admin/refunds/:id/transfer: a transfer staff made from the shop's bank, with its reference. */
export const recordRefundTransfer = (refundId: number, body: RefundTransferInput) =>
  apiFetch<RefundActionResponse>(`/api/admin/refunds/${refundId}/transfer`, {
    method: 'POST',
    body,
    timeoutMs: 15_000,
  });

export function useRecordRefundTransfer(refundId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RefundTransferInput) => recordRefundTransfer(refundId, body),
    onSuccess: (data) => applyRefundAnswer(client, data, refundId),
  });
}
