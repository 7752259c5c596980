import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { Receivables, RecordPayment } from '@/shared/schemas/credit.ts';

/** Staff's receivables (decision 060): GET /api/admin/credit/receivables. */
export const useReceivables = () =>
  useQuery({
    queryKey: ['admin', 'credit', 'receivables'],
    queryFn: () => apiFetch<Receivables>('/api/admin/credit/receivables'),
  });

/** POST /api/admin/credit/payments: a transfer received and the invoices it pays. */
export const useRecordPayment = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RecordPayment) =>
      apiFetch<{ message: string; paymentId: number; cfdi: string }>('/api/admin/credit/payments', {
        method: 'POST',
        body,
        timeoutMs: 30_000,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin', 'credit'] }),
  });
};
