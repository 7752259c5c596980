import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { SavedAddress } from '@/shared/schemas/account.ts';

export const getShippingAddress = () =>
  apiFetch<{ address: SavedAddress | null }>('/api/account/shipping-address').then((r) => r.address);

/** The signed-in shopper's saved address (null when none); key ['shipping-address']. */
export const shippingAddressQueryOptions = queryOptions({
  queryKey: ['shipping-address'],
  queryFn: getShippingAddress,
  staleTime: 60_000,
});

export const useShippingAddress = (enabled = true) => useQuery({ ...shippingAddressQueryOptions, enabled });
