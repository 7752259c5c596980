import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { Statement } from '@/shared/schemas/credit.ts';

/** The estado de cuenta of the institution the session buys for (decision 060). */
export const useStatement = () =>
  useQuery({
    queryKey: ['credit', 'statement'],
    queryFn: () => apiFetch<Statement>('/api/credit/statement'),
    retry: false,
  });

export const STATEMENT_PDF_URL = '/api/credit/statement.pdf';
export const paymentCfdiUrl = (id: number, format: 'xml' | 'pdf') =>
  `/api/credit/payments/${id}/cfdi.${format}`;
