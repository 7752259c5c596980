import { useEffect } from 'react';
import { ApiError } from '@/client/lib/api-client.ts';
import { type CartItem, getCartItems, setCartItems, subscribeCart } from '@/client/lib/cart-store.ts';
import { getSavedCart, mergeSavedCart, putSavedCart } from './api/saved-cart.ts';
import { rebaseOnSaved } from './cart-rules.ts';
import { hasUnsaved, markSynced, markUnsaved, syncedUser } from './cart-sync-marks.ts';

const PUT_DELAY_MS = 400;

/**
 * Keeps a signed-in shopper's cart on the server (SPEC-NOTES 12): merges the local cart at sign-in, then saves
 * every change. Renders nothing; loaded by the layout's gate (`cart-sync-gate.tsx`) only once a session is signed
 * in, so a visitor's pages never download it. `atMount` is the cart as the page found it, kept by the gate: a
 * change made before the session's answer arrives (an 'Agregar' clicked as the page opens) is measured from it, so
 * the saved cart does not erase it.
 */
export function CartSync({
  userId,
  atMount,
}: {
  userId: number;
  atMount: { current: readonly CartItem[] | null };
}) {
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unsubscribe: (() => void) | undefined;
    let saves = 0;

    const save = () => {
      markUnsaved(true);
      const version = ++saves;
      clearTimeout(timer);
      timer = setTimeout(() => {
        putSavedCart(getCartItems()).then(
          () => {
            if (version === saves) markUnsaved(false);
          },
          (error: unknown) => {
            // 401: the session ended (sign-out clears the local cart); nothing to save. Other failures are
            // retried by the next change, or by the next visit (the cart stays marked unsaved).
            if (!(error instanceof ApiError && error.status === 401))
              console.error('No se pudo guardar el carrito');
          },
        );
      }, PUT_DELAY_MS);
    };

    const start = async () => {
      // The shopper may change the cart while the saved one is on its way ('Agregar a carrito' clicked as the
      // page opens): that change goes on top of the server's answer and is saved, instead of being erased by it.
      const before = atMount.current ?? getCartItems();
      try {
        const saved =
          syncedUser() !== userId
            ? await mergeSavedCart(before)
            : hasUnsaved()
              ? await putSavedCart(before) // this tab's last change never reached the server
              : await getSavedCart();
        if (cancelled) return;
        atMount.current = null;
        const next = rebaseOnSaved(saved.items satisfies CartItem[], before, getCartItems());
        setCartItems(next);
        markSynced(userId);
        markUnsaved(false);
        if (next !== saved.items) save();
      } catch {
        if (cancelled) return;
        atMount.current = null;
        // The server could not be reached: keep the local cart; the changes below still try to save it.
      }
      unsubscribe = subscribeCart(save);
    };
    void start();

    return () => {
      cancelled = true;
      clearTimeout(timer);
      unsubscribe?.();
    };
  }, [userId, atMount]);

  return null;
}
