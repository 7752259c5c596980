import { useMutation } from '@tanstack/react-query';
import type { LoginInput } from '@/shared/schemas/auth.ts';
import { apiFetch } from '../../lib/api-client.ts';
import type { SessionUser } from './get-session.ts';

export type SignInResponse = { user: SessionUser | null; message: string };

export const login = (input: LoginInput) =>
  apiFetch<SignInResponse>('/api/auth/login', { method: 'POST', body: input });

export const useLogin = () => useMutation({ mutationFn: login });
