import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { AdminDelayedPayments } from '@/shared/schemas/admin.ts';

/** GET /api/admin/payments/delayed: SPEI/store orders awaiting payment and late payments (issue 21). */
export const useDelayedPayments = () =>
  useQuery({
    queryKey: ['admin', 'delayed-payments'],
    queryFn: () => apiFetch<AdminDelayedPayments>('/api/admin/payments/delayed'),
  });
