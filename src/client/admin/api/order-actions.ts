import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { apiFetch } from '@/client/lib/api-client.ts';
import type {
  AdminCancelOrderInput,
  AdminOrderDetail,
  ReleaseUnpaidOrderInput,
  ShipOrderInput,
} from '@/shared/schemas/admin.ts';

type ActionResponse = { message: string; order: AdminOrderDetail };

/**
 * POST /api/admin/orders/:number/{prepare|ship|deliver|cancel|release} — the staff actions on an order ('release':
 * an unpaid SPEI/store order cancelled so its stock is free again, issue 37).
 */
export type OrderAction =
  | { kind: 'prepare' }
  | { kind: 'deliver' }
  | { kind: 'ship'; body: ShipOrderInput }
  | { kind: 'cancel'; body: AdminCancelOrderInput }
  | { kind: 'release'; body: ReleaseUnpaidOrderInput };

export const runOrderAction = (number: number, action: OrderAction) =>
  apiFetch<ActionResponse>(`/api/admin/orders/${number}/${action.kind}`, {
    method: 'POST',
    ...('body' in action ? { body: action.body } : {}),
    timeoutMs: 30_000,
  });

export function useOrderAction(number: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: OrderAction) => runOrderAction(number, action),
    onSuccess: (data) => {
      client.setQueryData(['admin', 'order', number], data.order);
      void client.invalidateQueries({ queryKey: ['admin', 'orders'] });
      void client.invalidateQueries({ queryKey: ['admin', 'delayed-payments'] });
      void client.invalidateQueries({ queryKey: ['admin', 'unpaid-holds'] });
      toast.success(data.message);
    },
  });
}
