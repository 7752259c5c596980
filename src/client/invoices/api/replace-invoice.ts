import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { InvoiceActionResponse, InvoiceRequest } from '@/shared/schemas/invoice.ts';
import { invoiceStateQueryOptions } from './get-invoice-state.ts';

export const replaceInvoice = ({ number, data }: { number: number; data: InvoiceRequest }) =>
  // Stamps the corrected invoice and cancels the old one (motivo 01) through the PAC: give it time.
  apiFetch<InvoiceActionResponse>(`/api/orders/${number}/invoice/replace`, {
    method: 'POST',
    body: data,
    timeoutMs: 60_000,
  });

/** 'Corregir factura': the corrected CFDI replaces the active one (relation 04, motivo 01); once per order. */
export function useReplaceInvoice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: replaceInvoice,
    onSuccess: (answer, { number }) => {
      client.setQueryData(invoiceStateQueryOptions(number).queryKey, answer.invoice);
      void client.invalidateQueries({ queryKey: ['orders'], exact: true });
      void client.invalidateQueries({ queryKey: ['orders', number], exact: true });
    },
  });
}
