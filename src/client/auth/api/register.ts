import { useMutation } from '@tanstack/react-query';
import type { RegisterInput } from '@/shared/schemas/auth.ts';
import { apiFetch } from '../../lib/api-client.ts';
import type { SignInResponse } from './login.ts';

export const register = (input: RegisterInput) =>
  apiFetch<SignInResponse>('/api/auth/register', { method: 'POST', body: { ...input, lada: '52' } });

export const useRegister = () => useMutation({ mutationFn: register });
