import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type {
  AdminInstitutionDetail,
  InstitutionCreateInput,
  InstitutionTermsInput,
  InstitutionView,
  InvitationCreateInput,
} from '@/shared/schemas/institutions.ts';
import { toQueryString } from './query-string.ts';

/** Staff's institutions (issue 34): list and search, create, verify, terms, invitations. */
type Row = InstitutionView & { members: number };
type List = { items: Row[]; total: number; page: number; pages: number };

export const useAdminInstitutions = (query: { q: string; page: number }) =>
  useQuery({
    queryKey: ['admin', 'institutions', query],
    queryFn: () => apiFetch<List>(`/api/admin/institutions${toQueryString(query)}`),
    placeholderData: keepPreviousData,
  });

export const useAdminInstitution = (id: number) =>
  useQuery({
    queryKey: ['admin', 'institution', id],
    queryFn: () => apiFetch<AdminInstitutionDetail>(`/api/admin/institutions/${id}`),
    retry: false,
  });

function useRefresh() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: ['admin', 'institutions'] });
    void client.invalidateQueries({ queryKey: ['admin', 'institution'] });
  };
}

export function useCreateInstitution() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: InstitutionCreateInput) =>
      apiFetch<InstitutionView>('/api/admin/institutions', { method: 'POST', body }),
    onSuccess: refresh,
  });
}

export function useVerifyInstitution(id: number) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: () => apiFetch<InstitutionView>(`/api/admin/institutions/${id}/verify`, { method: 'POST' }),
    onSuccess: refresh,
  });
}

export function useSetTerms(id: number) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: InstitutionTermsInput) =>
      apiFetch<InstitutionView>(`/api/admin/institutions/${id}/terms`, { method: 'PUT', body }),
    onSuccess: refresh,
  });
}

export function useStaffInvite(id: number) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: InvitationCreateInput) =>
      apiFetch<{ message: string }>(`/api/admin/institutions/${id}/invitations`, { method: 'POST', body }),
    onSuccess: refresh,
  });
}
