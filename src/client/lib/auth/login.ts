import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { type LoginInput, loginSchema } from '@/shared/schemas/auth.ts';
import { apiFetch } from '../api-client.ts';
import type { SessionUser } from './session.ts';

export type SignInResponse = { user: SessionUser | null; message: string };

export const login = (input: LoginInput) =>
  apiFetch<SignInResponse>('/api/auth/login', { method: 'POST', body: input });

export const useLogin = () => useMutation({ mutationFn: login });

/** The sign-in form (shoppers' /ingresar and the staff's /admin): e-mail and password, checked by the shared schema. */
export const useLoginForm = () =>
  useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { username: '', password: '' } });
