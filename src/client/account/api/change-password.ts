import { useMutation } from '@tanstack/react-query';
import type { PasswordChangeInput } from '@/shared/schemas/account.ts';
import { apiFetch } from '../../lib/api-client.ts';

export const changePassword = (input: PasswordChangeInput) =>
  apiFetch<{ message: string }>('/api/account/password', { method: 'PUT', body: input });

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
