import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { InvoiceActionResponse, InvoiceRequest } from '@/shared/schemas/invoice.ts';
import { invoiceStateQueryOptions } from './get-invoice-state.ts';

export const requestInvoice = ({ number, data }: { number: number; data: InvoiceRequest }) =>
  // Stamping goes through the PAC: give it time.
  apiFetch<InvoiceActionResponse>(`/api/orders/${number}/invoice`, {
    method: 'POST',
    body: data,
    timeoutMs: 60_000,
  });

/** 'Solicitar factura': the answer carries the new state, which the page and the history show. */
export function useRequestInvoice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: requestInvoice,
    onSuccess: (answer, { number }) => {
      client.setQueryData(invoiceStateQueryOptions(number).queryKey, answer.invoice);
      void client.invalidateQueries({ queryKey: ['orders'], exact: true });
      void client.invalidateQueries({ queryKey: ['orders', number], exact: true });
    },
  });
}
