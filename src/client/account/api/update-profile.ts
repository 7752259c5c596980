import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { Profile, ProfileUpdateInput } from '@/shared/schemas/account.ts';
import { profileQueryOptions } from './get-profile.ts';

export const updateProfile = (input: ProfileUpdateInput) =>
  apiFetch<Profile & { message: string }>('/api/account/profile', { method: 'PUT', body: input });

/** Saves the profile; the cached profile and the session's names are refreshed. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: ({ message: _m, ...profile }) => {
      queryClient.setQueryData(profileQueryOptions.queryKey, profile);
      void queryClient.invalidateQueries({ queryKey: ['session'] });
    },
  });
}
