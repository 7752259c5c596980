import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from '@/client/lib/api-client.ts';
import type { InvoiceState } from '@/shared/schemas/invoice.ts';

export const getInvoiceState = (number: number) =>
  apiFetch<InvoiceState>(`/api/orders/${number}/invoice`, { timeoutMs: 10_000 });

/** The order's invoice state (none / issued / cancelled) and whether one can be requested now. */
export const invoiceStateQueryOptions = (number: number) =>
  queryOptions({
    queryKey: ['orders', number, 'invoice'],
    queryFn: () => getInvoiceState(number),
    // 401/404 are answers, not hiccups: no retry for them.
    retry: (count, error) =>
      !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 3,
  });

export const useInvoiceState = (number: number) => useQuery(invoiceStateQueryOptions(number));

export { invoicePdfUrl, invoiceXmlUrl } from '@/client/lib/invoice-urls.ts';
export const creditNoteXmlUrl = (number: number, uuid: string) =>
  `/api/orders/${number}/credit-notes/${uuid}.xml`;
export const creditNotePdfUrl = (number: number, uuid: string) =>
  `/api/orders/${number}/credit-notes/${uuid}.pdf`;
