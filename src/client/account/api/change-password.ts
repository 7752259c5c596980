import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { PasswordChangeInput } from '@/shared/schemas/account.ts';

export const changePassword = (input: PasswordChangeInput) =>
  apiFetch<{ message: string }>('/api/account/password', { method: 'PUT', body: input });

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
