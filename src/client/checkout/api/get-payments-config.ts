import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { PaymentsConfig } from '@/shared/schemas/payments.ts';

export const getPaymentsConfig = () => apiFetch<PaymentsConfig>('/api/payments/config');

/** Which card gateway the server uses (sandbox simulator or Openpay, with its public key). */
export const paymentsConfigQueryOptions = queryOptions({
  queryKey: ['payments-config'],
  queryFn: getPaymentsConfig,
  staleTime: Number.POSITIVE_INFINITY,
});

export const usePaymentsConfig = () => useQuery(paymentsConfigQueryOptions);
