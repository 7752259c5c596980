import type { QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { AdminOrderDetail } from '@/shared/schemas/admin.ts';

/**
 * What every refund action answers: the server's message and the order as it now stands. The order screen takes
 * the order, the queue and the order list are read again, and staff read the message — as a warning when the
 * refund the action was about is still owed (Openpay refused the payout: the message says why).
 */
export function applyRefundAnswer(
  client: QueryClient,
  data: { message: string; order: AdminOrderDetail },
  refundId?: number,
) {
  client.setQueryData(['admin', 'order', data.order.number], data.order);
  void client.invalidateQueries({ queryKey: ['admin', 'refunds'] });
  void client.invalidateQueries({ queryKey: ['admin', 'orders'] });
  const refund = refundId === undefined ? undefined : data.order.refunds.find((r) => r.id === refundId);
  if (refund?.state === 'owed') toast.warning(data.message);
  else toast.success(data.message);
}

export type RefundActionResponse = { message: string; order: AdminOrderDetail };
