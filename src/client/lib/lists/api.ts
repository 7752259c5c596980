import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { ListDetail, ListSummary, SharedList } from '@/shared/schemas/lists.ts';

/**
 * 'Mis listas' (issue 18, decision 031): the calls of /api/lists. In lib/ because three features use them: the
 * lists' own pages, the product page ('Agregar a una lista') and the cart ('Guardar como lista').
 */

const base = '/api/lists';
const one = (id: number) => `${base}/${id}`;
const line = (id: number, code: string) => `${one(id)}/lines/${encodeURIComponent(code)}`;

export const listsQueryOptions = queryOptions({
  queryKey: ['lists'],
  queryFn: () => apiFetch<{ lists: ListSummary[] }>(base, { timeoutMs: 5000 }).then((r) => r.lists),
  retry: 1,
});

export const listQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['lists', id],
    queryFn: () => apiFetch<ListDetail>(one(id), { timeoutMs: 5000 }),
    retry: (count, error) => count < 1 && !('status' in error && error.status === 404),
  });

export const sharedListQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['shared-list', token],
    queryFn: () => apiFetch<SharedList>(`${base}/shared/${encodeURIComponent(token)}`, { timeoutMs: 5000 }),
    retry: (count, error) => count < 1 && !('status' in error && error.status === 404),
  });

export const createList = (name: string, lines: { code: string; quantity: number }[] = []) =>
  apiFetch<ListDetail>(base, { method: 'POST', body: { name, lines }, timeoutMs: 10_000 });
export const renameList = (id: number, name: string) =>
  apiFetch<ListDetail>(one(id), { method: 'PATCH', body: { name } });
export const deleteList = (id: number) => apiFetch<null>(one(id), { method: 'DELETE' });
export const addToList = (id: number, code: string, quantity: number) =>
  apiFetch<ListDetail>(`${one(id)}/lines`, { method: 'POST', body: { code, quantity } });
export const setListQuantity = (id: number, code: string, quantity: number) =>
  apiFetch<ListDetail>(line(id, code), { method: 'PUT', body: { quantity } });
export const removeFromList = (id: number, code: string) =>
  apiFetch<ListDetail>(line(id, code), { method: 'DELETE' });
export const shareList = (id: number) =>
  apiFetch<ListDetail>(`${one(id)}/share`, { method: 'POST', body: {} });
export const unshareList = (id: number) => apiFetch<ListDetail>(`${one(id)}/share`, { method: 'DELETE' });
