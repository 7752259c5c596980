import { apiFetch } from '@/client/lib/api-client.ts';
import type { SavedCart } from '@/shared/schemas/cart.ts';

type Line = { code: string; quantity: number };
const lines = (items: readonly Line[]) => items.map(({ code, quantity }) => ({ code, quantity }));

/** GET /api/cart: the signed-in shopper's saved cart. */
export const getSavedCart = () => apiFetch<SavedCart>('/api/cart');

/** PUT /api/cart: replaces the saved cart with the local one. */
export const putSavedCart = (items: readonly Line[]) =>
  apiFetch<SavedCart>('/api/cart', { method: 'PUT', body: { items: lines(items) } });

/** POST /api/cart/merge: at sign-in, the local cart joins the saved one (capped by stock); answers the result. */
export const mergeSavedCart = (items: readonly Line[]) =>
  apiFetch<SavedCart>('/api/cart/merge', { method: 'POST', body: { items: lines(items) } });
