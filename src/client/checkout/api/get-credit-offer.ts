import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { CreditOfferView } from '@/shared/schemas/credit.ts';

/** Whether this total may go on the institution's credit line (decision 060); the server decides again on placing. */
export const useCreditOffer = (totalCents: number) =>
  useQuery({
    queryKey: ['credit-offer', totalCents],
    queryFn: () => apiFetch<CreditOfferView>(`/api/credit/offer?totalCents=${totalCents}`),
    enabled: totalCents > 0,
    staleTime: 30_000,
    retry: false,
  });
