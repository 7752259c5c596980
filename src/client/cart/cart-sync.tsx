import { useEffect } from 'react';
import { useSession } from '@/client/auth/api/get-session.ts';
import { ApiError } from '@/client/lib/api-client.ts';
import { getSavedCart, mergeSavedCart, putSavedCart } from './api/saved-cart.ts';
import { type CartItem, getCartItems, setCartItems, subscribeCart } from './cart-store.ts';

/**
 * Marks which user the local cart is a copy of. At a real sign-in (no mark, or another user's) the local cart is
 * MERGED into the saved one; on a later visit of the same signed-in user the saved cart simply REPLACES the local
 * copy, so a line removed on another device does not come back from this one.
 */
const SYNCED_KEY = 'cartSyncedUser';
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

/**
 * Keeps a signed-in shopper's cart on the server (SPEC-NOTES 12): merges the local cart at sign-in, then saves
 * every change. Renders nothing; mounted once in the layout.
 */
export function CartSync() {
  const session = useSession();
  const userId = session.data?.user?.id ?? null;

  useEffect(() => {
    if (session.isPending) return;
    if (userId === null) {
      markSynced(null);
      return;
    }
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unsubscribe: (() => void) | undefined;

    const save = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        putSavedCart(getCartItems()).catch((error: unknown) => {
          // 401: the session ended (sign-out clears the local cart); nothing to save. Other failures are retried
          // by the next change, and the next visit merges anyway.
          if (!(error instanceof ApiError && error.status === 401))
            console.error('No se pudo guardar el carrito');
        });
      }, PUT_DELAY_MS);
    };

    const start = async () => {
      try {
        const sameUser = syncedUser() === userId;
        const saved = sameUser ? await getSavedCart() : await mergeSavedCart(getCartItems());
        if (cancelled) return;
        setCartItems(saved.items satisfies CartItem[]);
        markSynced(userId);
      } catch {
        if (cancelled) return;
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
