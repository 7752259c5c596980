import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { InvoiceActionResponse } from '@/shared/schemas/invoice.ts';
import { invoiceStateQueryOptions } from './get-invoice-state.ts';

export const cancelInvoice = (number: number) =>
  apiFetch<InvoiceActionResponse>(`/api/orders/${number}/invoice/cancel`, {
    method: 'POST',
    body: {},
    timeoutMs: 60_000,
  });

/** 'Cancelar factura' (motivo 02 through the PAC); the order may then be invoiced again. */
export function useCancelInvoice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cancelInvoice,
    onSuccess: (answer, number) => {
      client.setQueryData(invoiceStateQueryOptions(number).queryKey, answer.invoice);
      void client.invalidateQueries({ queryKey: ['orders'], exact: true });
      void client.invalidateQueries({ queryKey: ['orders', number], exact: true });
    },
  });
}
