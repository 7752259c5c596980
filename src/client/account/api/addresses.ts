import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { SavedAddress, ShippingAddressInput } from '@/shared/schemas/account.ts';
import { shippingAddressQueryOptions } from './get-shipping-address.ts';

/** 'Mis direcciones' (issue 20): the signed-in buyer's addresses, the default first; key ['addresses']. */
export const addressesQueryOptions = queryOptions({
  queryKey: ['addresses'],
  queryFn: () => apiFetch<{ addresses: SavedAddress[] }>('/api/account/addresses').then((r) => r.addresses),
  staleTime: 60_000,
});
export const useAddresses = (enabled = true) => useQuery({ ...addressesQueryOptions, enabled });

function useRefresh() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: addressesQueryOptions.queryKey });
    void client.invalidateQueries({ queryKey: shippingAddressQueryOptions.queryKey });
  };
}

/** Adds an address (no id) or changes one of the buyer's own. */
export function useSaveAddress() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, data }: { id?: number; data: ShippingAddressInput }) =>
      apiFetch<SavedAddress>(`/api/account/addresses${id ? `/${id}` : ''}`, {
        method: id ? 'PUT' : 'POST',
        body: data,
      }),
    onSuccess: refresh,
  });
}

export function useSetDefaultAddress() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<SavedAddress>(`/api/account/addresses/${id}/default`, { method: 'POST' }),
    onSuccess: refresh,
  });
}

export function useDeleteAddress() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<{ message: string }>(`/api/account/addresses/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}
