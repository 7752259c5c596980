import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../api-client.ts';
import { setCartItems } from '../cart-store.ts';

/** Local copies a previous shopper must not leave behind on a shared computer. */
const LOCAL_KEYS = ['shippingAddress', 'paymentMethod', 'recoveryEmail'];

export const logout = () => apiFetch<{ message: string }>('/api/auth/logout', { method: 'POST' });

/**
 * Cerrar sesión: ends the server session, clears the cart and the saved address, then loads
 * /ingresar afresh (the spec's reload), so nothing of the shopper stays in memory.
 */
export function useLogout() {
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      setCartItems([]);
      for (const key of LOCAL_KEYS) {
        try {
          localStorage.removeItem(key);
          sessionStorage.removeItem(key);
        } catch {
          // Storage may be unavailable (private mode); nothing was kept there then.
        }
      }
      window.location.assign('/ingresar');
    },
    // sonner is imported on demand: this hook is in the header, which must not carry the toaster's code.
    onError: (error) => void import('sonner').then(({ toast }) => toast.error(error.message)),
  });
}
