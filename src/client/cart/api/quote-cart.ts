import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { DeliveryMethod } from '@/shared/delivery.ts';
import type { CartQuote } from '@/shared/schemas/cart.ts';

/** Spec §9: the shipping price call has a 3 s timeout. */
export const QUOTE_TIMEOUT_MS = 3000;

export type QuoteItem = { code: string; quantity: number };

export function quoteCart(
  items: readonly QuoteItem[],
  signal?: AbortSignal,
  deliveryMethod?: DeliveryMethod,
): Promise<CartQuote> {
  return apiFetch<CartQuote>('/api/cart/quote', {
    method: 'POST',
    body: {
      items: items.map(({ code, quantity }) => ({ code, quantity })),
      ...(deliveryMethod ? { deliveryMethod } : {}),
    },
    timeoutMs: QUOTE_TIMEOUT_MS,
    ...(signal ? { signal } : {}),
  });
}

export const cartQuoteQueryOptions = (items: readonly QuoteItem[], deliveryMethod?: DeliveryMethod) =>
  queryOptions({
    queryKey: ['cart-quote', items.map((i) => [i.code, i.quantity]), deliveryMethod ?? 'ground'],
    queryFn: async ({ signal }) => {
      try {
        return await quoteCart(items, signal, deliveryMethod);
      } catch (error) {
        // Spec §8: a failed shipping price is only logged; the page shows 0 for it meanwhile.
        console.error('Error al obtener el precio de envío');
        throw error;
      }
    },
    retry: false,
    refetchOnWindowFocus: false,
    staleTime: 30_000,
  });

/** The server's quote of the cart (prices, stock, shipping, IVA, total); keeps the last one while refetching. */
export const useCartQuote = (items: readonly QuoteItem[], enabled = true, deliveryMethod?: DeliveryMethod) =>
  useQuery({
    ...cartQuoteQueryOptions(items, deliveryMethod),
    enabled: enabled && items.length > 0,
    placeholderData: (prev) => prev,
  });
