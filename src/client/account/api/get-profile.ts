import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { Profile } from '@/shared/schemas/account.ts';

export const getProfile = () => apiFetch<Profile>('/api/account/profile');

export const profileQueryOptions = queryOptions({
  queryKey: ['profile'],
  queryFn: getProfile,
  staleTime: 60_000,
});

export const useProfile = () => useQuery(profileQueryOptions);
