import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { Synonym, SynonymInput } from '@/shared/schemas/search-admin.ts';

type MissList = {
  days: number;
  items: { term: string; results: number; searches: number; days: number; lastDay: string }[];
};

export const useSynonyms = () =>
  useQuery({
    queryKey: ['admin', 'synonyms'],
    queryFn: () => apiFetch<{ items: Synonym[] }>('/api/admin/search/synonyms'),
  });

export const useSearchMisses = (days: number) =>
  useQuery({
    queryKey: ['admin', 'search-misses', days],
    queryFn: () => apiFetch<MissList>(`/api/admin/search/misses?days=${days}`),
  });

/** Add (id null), change or remove (input null) a synonym; the list is read again after. */
export function useSaveSynonym() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: SynonymInput | null }) =>
      input === null
        ? apiFetch(`/api/admin/search/synonyms/${id}`, { method: 'DELETE' })
        : apiFetch(`/api/admin/search/synonyms${id === null ? '' : `/${id}`}`, {
            method: id === null ? 'POST' : 'PUT',
            body: input,
          }),
    onSettled: () => client.invalidateQueries({ queryKey: ['admin', 'synonyms'] }),
  });
}
