import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { AccountingSummary, CfdiType } from '@/shared/schemas/accounting.ts';

/** A period as the accountant picks it: a month, or a range of days (Mexico City). */
export type PeriodChoice = { month: string } | { from: string; to: string };

/** The query string of a period and the chosen types (all types: none named). */
export function periodQuery(period: PeriodChoice, types: readonly CfdiType[], allTypes: number): string {
  const params = new URLSearchParams('month' in period ? { month: period.month } : period);
  if (types.length > 0 && types.length < allTypes) params.set('types', types.join(','));
  return params.toString();
}

/** «Contabilidad» (decision 066): GET /api/admin/accounting/summary. */
export const useAccountingSummary = (query: string, enabled: boolean) =>
  useQuery({
    queryKey: ['admin', 'accounting', query],
    queryFn: () => apiFetch<AccountingSummary>(`/api/admin/accounting/summary?${query}`),
    enabled,
  });
