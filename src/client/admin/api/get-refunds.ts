import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { openRefundsResponseSchema } from '@/shared/schemas/refunds.ts';

export type OpenRefunds = z.infer<typeof openRefundsResponseSchema>;

export const getOpenRefunds = () => apiFetch<OpenRefunds>('/api/admin/refunds');

/** GET /api/admin/refunds: refunds owed or in progress, oldest first, with the buyer and their age. */
export const openRefundsQueryOptions = queryOptions({
  queryKey: ['admin', 'refunds'],
  queryFn: getOpenRefunds,
});

export const useOpenRefunds = () => useQuery(openRefundsQueryOptions);
