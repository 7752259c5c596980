import { apiFetch } from '@/client/lib/api-client.ts';

/** GET /api/account/shipping-address (accounts area): whether the shopper has saved one decides /orden or /envio. */
export async function hasSavedShippingAddress(): Promise<boolean> {
  const data = await apiFetch<{ address: unknown | null }>('/api/account/shipping-address');
  return data.address !== null && data.address !== undefined;
}
