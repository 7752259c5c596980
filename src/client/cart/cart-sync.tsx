import { useEffect, useRef } from 'react';
import { ApiError } from '@/client/lib/api-client.ts';
import { useSession } from '@/client/lib/auth/session.ts';
import { type CartItem, getCartItems, setCartItems, subscribeCart } from '@/client/lib/cart-store.ts';
import { getSavedCart, mergeSavedCart, putSavedCart } from './api/saved-cart.ts';
import { rebaseOnSaved } from './cart-rules.ts';

/**
 * Marks which user the local cart is a copy of. At a real sign-in (no mark, or another user's) the local cart is
 * MERGED into the saved one; on a later visit of the same signed-in user the saved cart simply REPLACES the local
 * copy, so a line removed on another device does not come back from this one — unless the local cart holds a change
 * that never reached the server (UNSAVED_KEY), which is then saved instead.
 */
const SYNCED_KEY = 'cartSyncedUser';
/**
 * Set while a change of this tab has not reached the server yet (the save waits PUT_DELAY_MS, and a page load or
 * a closed tab can cut it off). The next visit then saves the local cart instead of replacing it with the server's.
 */
const UNSAVED_KEY = 'cartUnsaved';
const PUT_DELAY_MS = 400;

function syncedUser(): number | null {
  try {
    const raw = localStorage.getItem(SYNCED_KEY);
    return raw ? Number(raw) : null;
  } catch {
    return null;
  }
}
function markSynced(userId: number | null) {
  try {
    if (userId === null) localStorage.removeItem(SYNCED_KEY);
    else localStorage.setItem(SYNCED_KEY, String(userId));
  } catch {
    // Without storage the next visit merges again, which is harmless (the larger quantity wins).
  }
}
function hasUnsaved(): boolean {
  try {
    return localStorage.getItem(UNSAVED_KEY) === '1';
  } catch {
    return false;
  }
}
function markUnsaved(unsaved: boolean) {
  try {
    if (unsaved) localStorage.setItem(UNSAVED_KEY, '1');
    else localStorage.removeItem(UNSAVED_KEY);
  } catch {
    // Without storage there is no local cart to keep either.
  }
}

/**
 * Keeps a signed-in shopper's cart on the server (SPEC-NOTES 12): merges the local cart at sign-in, then saves
 * every change. Renders nothing; mounted once in the layout.
 */
export function CartSync() {
  const session = useSession();
  const userId = session.data?.user?.id ?? null;
  // The cart as this page found it. A change made before the session's answer arrives (an 'Agregar' clicked as the
  // page opens, while sync has not started) is measured from here, so the saved cart does not erase it.
  const atMount = useRef<readonly CartItem[] | null>(getCartItems());

  useEffect(() => {
    if (session.isPending) return;
    if (userId === null) {
      atMount.current = null; // a visitor's changes stay local; a later sign-in merges the cart as it is then
      markSynced(null);
      markUnsaved(false);
      return;
    }
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
  }, [userId, session.isPending]);

  return null;
}
