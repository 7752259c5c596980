import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { SignInResponse } from '@/client/lib/auth/login.ts';
import type { RegisterInput, RegisterVerifyInput } from '@/shared/schemas/auth.ts';

/** Step 1: the form; the server mails a 6-digit code (the same answer whether or not the e-mail has an account). */
export const register = (input: RegisterInput) =>
  apiFetch<SignInResponse>('/api/auth/register', { method: 'POST', body: { ...input, lada: '52' } });

/** Step 2: the code from the mail creates the account and signs the shopper in. */
export const verifyRegistration = (input: RegisterVerifyInput) =>
  apiFetch<SignInResponse>('/api/auth/register/verify', { method: 'POST', body: input });

export const useRegister = () => useMutation({ mutationFn: register });
export const useVerifyRegistration = () => useMutation({ mutationFn: verifyRegistration });
