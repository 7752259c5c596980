import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { FiscalProfile, FiscalProfileInput } from '@/shared/schemas/invoice.ts';

export const fiscalProfilesQueryOptions = queryOptions({
  queryKey: ['fiscal-profiles'],
  queryFn: () => apiFetch<{ profiles: FiscalProfile[] }>('/api/account/fiscal-profiles', { timeoutMs: 5000 }),
});
export const useFiscalProfiles = () => useQuery(fiscalProfilesQueryOptions);

export function useSaveFiscalProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, data }: { id?: number; data: FiscalProfileInput }) =>
      apiFetch<FiscalProfile>(`/api/account/fiscal-profiles${id ? `/${id}` : ''}`, {
        method: id ? 'PUT' : 'POST',
        body: data,
      }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['fiscal-profiles'] }),
  });
}

export function useDeleteFiscalProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<{ message: string }>(`/api/account/fiscal-profiles/${id}`, { method: 'DELETE' }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['fiscal-profiles'] }),
  });
}
