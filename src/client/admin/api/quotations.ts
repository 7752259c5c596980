import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { apiFetch } from '@/client/lib/api-client.ts';
import type {
  AdminQuotationDetail,
  AdminQuotationList,
  ReviseQuotation,
} from '@/shared/schemas/quotations.ts';

export const adminQuotationsQueryOptions = queryOptions({
  queryKey: ['admin', 'quotations'],
  queryFn: () => apiFetch<AdminQuotationList>('/api/admin/quotations'),
});
export const useAdminQuotations = () => useQuery(adminQuotationsQueryOptions);

export const adminQuotationQueryOptions = (folio: string) =>
  queryOptions({
    queryKey: ['admin', 'quotations', folio],
    queryFn: () => apiFetch<AdminQuotationDetail>(`/api/admin/quotations/${encodeURIComponent(folio)}`),
  });
export const useAdminQuotation = (folio: string) => useQuery(adminQuotationQueryOptions(folio));

export const adminQuotationPdfUrl = (folio: string) =>
  `/api/admin/quotations/${encodeURIComponent(folio)}/pdf`;

function useQuotationChange<T>(folio: string, path: 'revise' | 'extend', done: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: T) =>
      apiFetch<AdminQuotationDetail>(`/api/admin/quotations/${encodeURIComponent(folio)}/${path}`, {
        method: 'POST',
        body,
        timeoutMs: 30_000,
      }),
    onSuccess: (data: AdminQuotationDetail & { unchanged?: boolean }) => {
      // A revision that changes nothing is not written nor mailed (decision 053): say so, not 'reenviada'.
      if (data.unchanged) toast.info('Sin cambios: no se creó una revisión ni se envió correo al cliente');
      else toast.success(done);
      client.setQueryData(['admin', 'quotations', folio], data);
      void client.invalidateQueries({ queryKey: ['admin', 'quotations'], exact: true });
    },
  });
}

/** New prices, discount and note: a new revision, mailed to the buyer. */
export const useReviseQuotation = (folio: string) =>
  useQuotationChange<ReviseQuotation>(folio, 'revise', 'Cotización actualizada y reenviada al cliente');
export const useExtendQuotation = (folio: string) =>
  useQuotationChange<{ days: number }>(
    folio,
    'extend',
    'Vigencia extendida; enviamos la cotización al cliente',
  );
