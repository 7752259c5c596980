import { lazy, Suspense, useEffect, useRef } from 'react';
import { useSession } from '@/client/lib/auth/session.ts';
import { type CartItem, getCartItems } from '@/client/lib/cart-store.ts';
import { forgetSyncedUser } from './cart-sync-marks.ts';

const CartSync = lazy(() => import('./cart-sync.tsx').then((m) => ({ default: m.CartSync })));

/**
 * Mounted once in the layout. A signed-in shopper's cart sync (`cart-sync.tsx`, with its merge rules and the saved
 * cart's API) is a chunk of its own, loaded only when the session says someone is signed in: a visitor's pages do not
 * download it. The cart as the page found it is kept here, at mount, so an 'Agregar' clicked before the session's
 * answer (or before the chunk arrives) is measured from it and not erased by the saved cart.
 */
export function CartSyncGate() {
  const session = useSession();
  const userId = session.data?.user?.id ?? null;
  const atMount = useRef<readonly CartItem[] | null>(getCartItems());

  useEffect(() => {
    if (session.isPending || userId !== null) return;
    atMount.current = null;
    forgetSyncedUser();
  }, [userId, session.isPending]);

  if (session.isPending || userId === null) return null;
  return (
    <Suspense fallback={null}>
      <CartSync userId={userId} atMount={atMount} />
    </Suspense>
  );
}
