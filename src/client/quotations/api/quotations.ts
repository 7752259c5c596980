import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type {
  ConvertQuotationResponse,
  QuotationDetail,
  QuotationList,
  RenewalPreview,
} from '@/shared/schemas/quotations.ts';

/** 'Mis cotizaciones' (issue 20): the buyer's quotations; every amount and state is the server's. */

export const quotationsQueryOptions = queryOptions({
  queryKey: ['quotations'],
  queryFn: () => apiFetch<QuotationList>('/api/quotations', { timeoutMs: 5000 }),
  retry: 2,
});
export const useQuotations = () => useQuery(quotationsQueryOptions);

export const quotationQueryOptions = (folio: string) =>
  queryOptions({
    queryKey: ['quotations', folio],
    queryFn: () =>
      apiFetch<QuotationDetail>(`/api/quotations/${encodeURIComponent(folio)}`, { timeoutMs: 5000 }),
    retry: 1,
  });
export const useQuotation = (folio: string | null) =>
  useQuery({ ...quotationQueryOptions(folio ?? ''), enabled: folio !== null });

export const quotationPdfUrl = (folio: string) => `/api/quotations/${encodeURIComponent(folio)}/pdf`;

/** 'Convertir en pedido': the server checks validity and stock; checkout then sends the folio. */
export const prepareConversion = (folio: string) =>
  apiFetch<ConvertQuotationResponse>(`/api/quotations/${encodeURIComponent(folio)}/convert`, {
    method: 'POST',
    body: {},
    timeoutMs: 10_000,
  });

/** What 'Renovar' would change (the server's figures and words), shown before the buyer accepts. */
export const renewalPreview = (folio: string) =>
  apiFetch<RenewalPreview>(`/api/quotations/${encodeURIComponent(folio)}/renewal`, { timeoutMs: 10_000 });

function useQuotationAction(action: 'renew' | 'cancel') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (folio: string) =>
      apiFetch<QuotationDetail>(`/api/quotations/${encodeURIComponent(folio)}/${action}`, {
        method: 'POST',
        body: {},
        timeoutMs: 20_000,
      }),
    onSuccess: (data) => {
      client.setQueryData(['quotations', data.folio], data);
      void client.invalidateQueries({ queryKey: ['quotations'], exact: true });
    },
  });
}
export const useRenewQuotation = () => useQuotationAction('renew');
export const useCancelQuotation = () => useQuotationAction('cancel');
