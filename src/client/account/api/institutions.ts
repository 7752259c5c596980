import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { ShippingAddress } from '@/shared/schemas/account.ts';
import type { AuditEntry } from '@/shared/schemas/admin.ts';
import type {
  InstitutionAddress,
  InstitutionSettingsInput,
  InvitationCreateInput,
  InvitationPreview,
  MembersResponse,
  MemberUpdateInput,
  MyInstitutions,
} from '@/shared/schemas/institutions.ts';

/** Institution accounts (issue 34): the person's memberships, the one this session buys for, and the administrador's calls. */

export const myInstitutionsQueryOptions = queryOptions({
  queryKey: ['institutions', 'mine'],
  queryFn: () => apiFetch<MyInstitutions>('/api/institutions/mine', { timeoutMs: 5000 }),
  staleTime: 60_000,
});
export const useMyInstitutions = (enabled = true) => useQuery({ ...myInstitutionsQueryOptions, enabled });

/**
 * «Comprando para»: what the session buys for. Everything the choice changes (lists, quotations, the cart's checks,
 * the institution's pages) is read again.
 */
export function useChooseInstitution() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (institutionId: number | null) =>
      apiFetch<MyInstitutions>('/api/institutions/active', { method: 'PUT', body: { institutionId } }),
    onSuccess: (mine) => {
      client.setQueryData(myInstitutionsQueryOptions.queryKey, mine);
      void client.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
    },
  });
}

export const useMembers = (id: number, enabled: boolean) =>
  useQuery({
    queryKey: ['institutions', id, 'members'],
    queryFn: () => apiFetch<MembersResponse>(`/api/institutions/${id}/members`),
    enabled,
  });

export const useInstitutionAddresses = (id: number) =>
  useQuery({
    queryKey: ['institutions', id, 'addresses'],
    queryFn: () =>
      apiFetch<{ addresses: InstitutionAddress[] }>(`/api/institutions/${id}/addresses`).then(
        (r) => r.addresses,
      ),
  });

export const useInstitutionOrders = (id: number, enabled: boolean) =>
  useQuery({
    queryKey: ['institutions', id, 'orders'],
    queryFn: () =>
      apiFetch<{
        orders: {
          number: number;
          date: string;
          buyer: string;
          status: string;
          purchaseOrder: string | null;
          totalCents: number;
        }[];
      }>(`/api/institutions/${id}/orders`).then((r) => r.orders),
    enabled,
  });

export const useInstitutionAudit = (id: number, page: number, enabled: boolean) =>
  useQuery({
    queryKey: ['institutions', id, 'audit', page],
    queryFn: () =>
      apiFetch<{ items: AuditEntry[]; total: number; page: number; pages: number }>(
        `/api/institutions/${id}/audit?page=${page}`,
      ),
    enabled,
    placeholderData: keepPreviousData,
  });

/** A change to the institution (members, invitations, settings): its pages are read again. */
function useInstitutionMutation<T, R>(id: number, call: (input: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['institutions', id] });
      void client.invalidateQueries({ queryKey: myInstitutionsQueryOptions.queryKey });
    },
  });
}

export const useInvite = (id: number) =>
  useInstitutionMutation(id, (body: InvitationCreateInput) =>
    apiFetch<{ message: string }>(`/api/institutions/${id}/invitations`, { method: 'POST', body }),
  );

export const useRevokeInvitation = (id: number) =>
  useInstitutionMutation(id, (invitationId: number) =>
    apiFetch<{ message: string }>(`/api/institutions/${id}/invitations/${invitationId}`, {
      method: 'DELETE',
    }),
  );

export const useUpdateMember = (id: number) =>
  useInstitutionMutation(id, ({ userId, body }: { userId: number; body: MemberUpdateInput }) =>
    apiFetch<{ message: string }>(`/api/institutions/${id}/members/${userId}`, { method: 'PUT', body }),
  );

export const useRemoveMember = (id: number) =>
  useInstitutionMutation(id, (userId: number) =>
    apiFetch<{ message: string }>(`/api/institutions/${id}/members/${userId}`, { method: 'DELETE' }),
  );

export const useSaveSettings = (id: number) =>
  useInstitutionMutation(id, (body: InstitutionSettingsInput) =>
    apiFetch<object>(`/api/institutions/${id}/settings`, { method: 'PUT', body }),
  );

export const useSaveInstitutionAddress = (id: number) =>
  useInstitutionMutation(id, (body: ShippingAddress) =>
    apiFetch<InstitutionAddress>(`/api/institutions/${id}/addresses`, { method: 'POST', body }),
  );

export const useDeleteInstitutionAddress = (id: number) =>
  useInstitutionMutation(id, (addressId: number) =>
    apiFetch<{ message: string }>(`/api/institutions/${id}/addresses/${addressId}`, { method: 'DELETE' }),
  );

export const useInvitationPreview = (token: string) =>
  useQuery({
    queryKey: ['institutions', 'invitation', token],
    queryFn: () => apiFetch<InvitationPreview>(`/api/institutions/invitations/${token}`),
    retry: false,
  });

export function useAcceptInvitation(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<{ message: string; institutionId: number }>(`/api/institutions/invitations/${token}/accept`, {
        method: 'POST',
      }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['institutions'] }),
  });
}
