import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { z } from 'zod';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { ReturnState } from '@/shared/returns.ts';
import type {
  authorizeReturnSchema,
  ReturnView,
  receiveReturnSchema,
  refundReturnSchema,
  staffReasonSchema,
} from '@/shared/schemas/returns.ts';

/** Staff's «Devoluciones» (decision 062): the list, one return, an order's returns, and the steps. */
export const useAdminReturns = (state: ReturnState | '') =>
  useQuery({
    queryKey: ['admin', 'returns', state],
    queryFn: () => apiFetch<{ items: ReturnView[] }>(`/api/admin/returns${state ? `?state=${state}` : ''}`),
  });

export const useAdminReturn = (id: number) =>
  useQuery({
    queryKey: ['admin', 'return', id],
    queryFn: () => apiFetch<ReturnView>(`/api/admin/returns/${id}`),
    enabled: Number.isInteger(id) && id > 0,
  });

export const useAdminOrderReturns = (number: number) =>
  useQuery({
    queryKey: ['admin', 'order', number, 'returns'],
    queryFn: () => apiFetch<{ items: ReturnView[] }>(`/api/admin/orders/${number}/returns`),
  });

export type ReturnStep =
  | { kind: 'authorize'; body: z.input<typeof authorizeReturnSchema> }
  | { kind: 'refuse'; body: z.input<typeof staffReasonSchema> }
  | { kind: 'receive'; body: z.input<typeof receiveReturnSchema> }
  | { kind: 'refund'; body: z.input<typeof refundReturnSchema> }
  | { kind: 'close'; body: z.input<typeof staffReasonSchema> };

export function useReturnStep(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (step: ReturnStep) =>
      apiFetch<{ message: string; return: ReturnView }>(`/api/admin/returns/${id}/${step.kind}`, {
        method: 'POST',
        body: step.body,
        timeoutMs: 60_000,
      }),
    onSuccess: (data) => {
      client.setQueryData(['admin', 'return', id], data.return);
      void client.invalidateQueries({ queryKey: ['admin', 'returns'] });
      void client.invalidateQueries({ queryKey: ['admin', 'order', data.return.orderNumber] });
      toast.success(data.message);
    },
    onError: (error) => {
      // The return may have moved (another staff member): read it again.
      void client.invalidateQueries({ queryKey: ['admin', 'return', id] });
      toast.error(error.message);
    },
  });
}
