import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { AdminOrderDetail } from '@/shared/schemas/admin.ts';
import type {
  CreateShipmentInput,
  PickupCollectedInput,
  ReceiveGoodsInput,
} from '@/shared/schemas/shipments.ts';

type ActionResponse = { message: string; order: AdminOrderDetail };

/** Issue 35: the staff's shipment actions on an order (its screen's data is replaced by the answer). */
export type ShipmentAction =
  | { kind: 'ship'; body: CreateShipmentInput }
  | { kind: 'delivered'; seq: number }
  | { kind: 'pickup-ready' }
  | { kind: 'pickup-collected'; body: PickupCollectedInput };

const pathOf = (number: number, action: ShipmentAction) =>
  action.kind === 'ship'
    ? `/api/admin/orders/${number}/shipments`
    : action.kind === 'delivered'
      ? `/api/admin/orders/${number}/shipments/${action.seq}/delivered`
      : `/api/admin/orders/${number}/${action.kind}`;

export function useShipmentAction(number: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: ShipmentAction) =>
      apiFetch<ActionResponse>(pathOf(number, action), {
        method: 'POST',
        body: 'body' in action ? action.body : {},
        timeoutMs: 30_000,
      }),
    onSuccess: (data) => {
      client.setQueryData(['admin', 'order', number], data.order);
      void client.invalidateQueries({ queryKey: ['admin', 'orders'] });
      toast.success(data.message);
    },
  });
}

/** Goods received for a product: they fill the oldest backorders first; every order screen is read again. */
export function useReceiveGoods() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReceiveGoodsInput) =>
      apiFetch<{ message: string }>('/api/admin/stock/receipts', { method: 'POST', body, timeoutMs: 30_000 }),
    onSuccess: (data) => {
      void client.invalidateQueries({ queryKey: ['admin', 'order'] });
      void client.invalidateQueries({ queryKey: ['admin', 'orders'] });
      toast.success(data.message);
    },
  });
}
