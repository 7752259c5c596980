import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionUserDto } from '@/shared/schemas/auth.ts';
import { apiFetch } from '../api-client.ts';

export type SessionUser = SessionUserDto;
export type SessionResponse = { user: SessionUser | null };

export const getSession = () => apiFetch<SessionResponse>('/api/auth/session', { timeoutMs: 5000 });

/** The signed-in state comes from the server session (SPEC-NOTES 11); key ['session']. */
export const sessionQueryOptions = queryOptions({
  queryKey: ['session'],
  queryFn: getSession,
  staleTime: 5 * 60_000,
  retry: 1,
});

export const useSession = () => useQuery(sessionQueryOptions);

/** The user (null for a visitor) and whether the answer is still pending. */
export function useSessionUser(): { user: SessionUser | null; pending: boolean } {
  const { data, isPending } = useSession();
  return { user: data?.user ?? null, pending: isPending };
}
