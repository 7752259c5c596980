import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { RecoveryRequestInput, RecoveryResetInput } from '@/shared/schemas/auth.ts';

export const requestRecoveryCode = (input: RecoveryRequestInput) =>
  apiFetch<{ message: string }>('/api/auth/recovery', { method: 'POST', body: input });

export const resetPassword = (input: RecoveryResetInput) =>
  apiFetch<{ message: string }>('/api/auth/recovery/reset', { method: 'POST', body: input });

export const useRequestRecoveryCode = () => useMutation({ mutationFn: requestRecoveryCode });
export const useResetPassword = () => useMutation({ mutationFn: resetPassword });

/** The e-mail typed on /recuperar, remembered for /codigo_recuperar (this tab only). */
const KEY = 'recoveryEmail';
export function rememberRecoveryEmail(email: string) {
  try {
    sessionStorage.setItem(KEY, email);
  } catch {
    // Without storage the code page simply asks for the e-mail.
  }
}
export function recalledRecoveryEmail(): string {
  try {
    return sessionStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}
export function forgetRecoveryEmail() {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing to forget.
  }
}
