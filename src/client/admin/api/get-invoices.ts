import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { apiFetch } from '@/client/lib/api-client.ts';
import { SAT_CANCEL_MOTIVOS, STAFF_CANCEL_MOTIVOS } from '@/shared/sat-motivos.ts';
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

/** SAT's motivos for a staff cancellation (01 is the replacement, which the shopper's correction does). */
export const STAFF_CANCEL_OPTIONS = STAFF_CANCEL_MOTIVOS.map((value) => ({
  value,
  label: `${value} · ${SAT_CANCEL_MOTIVOS[value].label}`,
}));
export type StaffCancelMotivo = (typeof STAFF_CANCEL_MOTIVOS)[number];

/** POST /api/admin/invoices/:number/cancel with the motivo. */
export const cancelInvoice = ({ orderNumber, motivo }: { orderNumber: number; motivo: StaffCancelMotivo }) =>
  apiFetch<{ message: string }>(`/api/admin/invoices/${orderNumber}/cancel`, {
    method: 'POST',
    body: { motivo },
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
  });
}

export type CreditNoteList = {
  invoiceUuid: string | null;
  invoiceTotalCents: number | null;
  remainingCents: number;
  items: {
    uuid: string | null;
    serieFolio: string;
    status: string;
    totalCents: number;
    description: string;
    issuedAt: string | null;
    test: boolean;
  }[];
};

export const creditNotesQueryOptions = (orderNumber: number) =>
  queryOptions({
    queryKey: ['admin', 'credit-notes', orderNumber],
    queryFn: () => apiFetch<CreditNoteList>(`/api/admin/invoices/${orderNumber}/credit-notes`),
  });

export const useCreditNotes = (orderNumber: number) => useQuery(creditNotesQueryOptions(orderNumber));

export const creditNoteFileUrl = (orderNumber: number, uuid: string, ext: 'xml' | 'pdf') =>
  `/api/admin/invoices/${orderNumber}/credit-notes/${uuid}.${ext}`;

/** POST /api/admin/invoices/:number/credit-notes (amount with IVA, as typed; the server checks it). */
export function useIssueCreditNote(orderNumber: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { amount: string; description: string }) =>
      apiFetch<{ message: string; uuid: string; remainingCents: number }>(
        `/api/admin/invoices/${orderNumber}/credit-notes`,
        { method: 'POST', body, timeoutMs: 60_000 },
      ),
    onSuccess: (data) => {
      toast.success(data.message);
      void client.invalidateQueries({ queryKey: ['admin'] });
    },
  });
}
