import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { AdminInvoiceRow, AdminInvoicesQuery } from '@/shared/schemas/admin.ts';
import { toQueryString } from './query-string.ts';

type InvoiceList = { items: AdminInvoiceRow[]; total: number; page: number; pages: number };

export const getAdminInvoices = (query: AdminInvoicesQuery) =>
  apiFetch<InvoiceList>(`/api/admin/invoices${toQueryString(query)}`);

export const adminInvoicesQueryOptions = (query: AdminInvoicesQuery) =>
  queryOptions({
    queryKey: ['admin', 'invoices', query],
    queryFn: () => getAdminInvoices(query),
    placeholderData: keepPreviousData,
  });

export const useAdminInvoices = (query: AdminInvoicesQuery) => useQuery(adminInvoicesQueryOptions(query));

/** POST /api/admin/invoices/:number/cancel */
export const cancelInvoice = (orderNumber: number) =>
  apiFetch<{ message: string }>(`/api/admin/invoices/${orderNumber}/cancel`, {
    method: 'POST',
    body: {},
    timeoutMs: 60_000,
  });

export function useCancelInvoice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cancelInvoice,
    onSuccess: (data) => {
      toast.success(data.message);
      void client.invalidateQueries({ queryKey: ['admin'] });
    },
    onError: (error) => toast.error(error.message),
  });
}
