import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { DecisionResponse, RequisitionDetail, RequisitionList } from '@/shared/schemas/requisitions.ts';

/** Requisitions (issue 34, decision 059): every amount, state and permitted action is the server's. */

export const requisitionsQueryOptions = queryOptions({
  queryKey: ['requisitions'],
  queryFn: () => apiFetch<RequisitionList>('/api/requisitions', { timeoutMs: 8000 }),
  retry: 1,
});
export const useRequisitions = () => useQuery(requisitionsQueryOptions);

export const requisitionQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['requisitions', id],
    queryFn: () => apiFetch<RequisitionDetail>(`/api/requisitions/${id}`, { timeoutMs: 8000 }),
    retry: 1,
  });
export const useRequisition = (id: number) => useQuery(requisitionQueryOptions(id));

export type RequisitionAction = 'approve' | 'reject' | 'return' | 'place' | 'resend' | 'cancel';

/** One action on a requisition; the answer replaces the page's copy. */
export function useRequisitionAction(id: number) {
  const client = useQueryClient();
  return async (action: RequisitionAction, body: object) => {
    const answer = await apiFetch<DecisionResponse | RequisitionDetail>(`/api/requisitions/${id}/${action}`, {
      method: 'POST',
      body,
      timeoutMs: 30_000,
    });
    const detail = 'requisition' in answer ? answer.requisition : answer;
    client.setQueryData(['requisitions', id], detail);
    void client.invalidateQueries({ queryKey: ['requisitions'], exact: true });
    return answer;
  };
}
