import { apiFetch } from '@/client/lib/api-client.ts';
import type { CartQuote } from '@/shared/schemas/cart.ts';

/** Today's prices and stock of an order's lines: the cart's own quote (POST /api/cart/quote), read only. */
export const quoteLines = (items: { code: string; quantity: number }[]) =>
  apiFetch<CartQuote>('/api/cart/quote', { method: 'POST', body: { items }, timeoutMs: 5000 });
