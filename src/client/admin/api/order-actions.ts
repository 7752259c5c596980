import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { AdminCancelOrderInput, AdminOrderDetail, ShipOrderInput } from '@/shared/schemas/admin.ts';

type ActionResponse = { message: string; order: AdminOrderDetail };

/** POST /api/admin/orders/:number/{prepare|ship|deliver|cancel} — the four staff actions on an order. */
export type OrderAction =
  | { kind: 'prepare' }
  | { kind: 'deliver' }
  | { kind: 'ship'; body: ShipOrderInput }
  | { kind: 'cancel'; body: AdminCancelOrderInput };

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
      toast.success(data.message);
    },
  });
}
