import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { SavedAddress, ShippingAddressInput } from '@/shared/schemas/account.ts';
import { shippingAddressQueryOptions } from './get-shipping-address.ts';

export const saveShippingAddress = (address: ShippingAddressInput) =>
  apiFetch<{ address: SavedAddress; message: string }>('/api/account/shipping-address', {
    method: 'PUT',
    body: address,
  });

/** Saves the address and refreshes the cached copy (the spec's "shipping data is refetched"). */
export function useSaveShippingAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveShippingAddress,
    onSuccess: (data) => {
      queryClient.setQueryData(shippingAddressQueryOptions.queryKey, data.address);
      void queryClient.invalidateQueries({ queryKey: shippingAddressQueryOptions.queryKey });
      void queryClient.invalidateQueries({ queryKey: ['addresses'] });
    },
  });
}
