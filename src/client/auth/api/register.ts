import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { SignInResponse } from '@/client/lib/auth/login.ts';
import type { RegisterInput } from '@/shared/schemas/auth.ts';

export const register = (input: RegisterInput) =>
  apiFetch<SignInResponse>('/api/auth/register', { method: 'POST', body: { ...input, lada: '52' } });

export const useRegister = () => useMutation({ mutationFn: register });
