import { useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { LeadTime } from '@/shared/backorder.ts';
import { CART_COOKIE, CART_COOKIE_MAX_LENGTH, encodeCartCookie } from '@/shared/cart-cookie.ts';

/** One cart line as kept in the browser (display only: the server recomputes prices and stock). */
export type CartItem = {
  code: string;
  name: string;
  priceCents: number;
  quantity: number;
  stock: number;
  imageUrl: string | null;
  /** 'Sobre pedido' (decision 029): orderable beyond `stock`, the rest delivered within this lead time. */
  leadTime?: LeadTime | null;
};

const KEY = 'cartItems';
const listeners = new Set<() => void>();
let items: CartItem[] = read();
if (typeof document !== 'undefined') writeCookie(items);

/**
 * Mirrors the cart's codes and quantities into a cookie (src/shared/cart-cookie.ts) so the server can render
 * /carrito with its lines. A cart too large for a cookie removes it: the server then leaves the page to the browser.
 */
function writeCookie(list: readonly CartItem[]): void {
  try {
    const value = encodeCartCookie(list);
    // biome-ignore lint/suspicious/noDocumentCookie: synchronous, so the cookie never lags the stored cart (the Cookie Store API is async and not in every browser)
    document.cookie =
      value.length > CART_COOKIE_MAX_LENGTH
        ? `${CART_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`
        : `${CART_COOKIE}=${value}; Path=/; Max-Age=31536000; SameSite=Lax`;
  } catch {
    // Cookies refused: the cart page is rendered by the browser.
  }
}

function read(): CartItem[] {
  try {
    const raw = globalThis.localStorage?.getItem(KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? (parsed as CartItem[]) : [];
  } catch {
    return [];
  }
}

export function getCartItems(): CartItem[] {
  return items;
}

export function setCartItems(next: CartItem[]): void {
  items = next;
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Private mode or a full storage: the cart still works for this visit.
  }
  writeCookie(next);
  for (const l of listeners) l();
}

/**
 * Calls `listener` after every change made in THIS tab (not changes that arrive from other tabs through the
 * storage event: the tab that made a change is the one that saves it to the server). Returns the unsubscribe.
 */
export function subscribeCart(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === KEY) {
      items = read();
      writeCookie(items);
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * The cart the server rendered the page with (from the cart cookie, priced from the database), kept in the page's
 * query cache under this key so the browser hydrates from exactly the same lines. Absent: the server rendered an
 * empty cart (it has no browser storage), or did not know the cart at all (SERVER_CART_UNKNOWN).
 */
export const SERVER_CART_KEY = ['server-cart'] as const;
export type ServerCart = { known: boolean; items: CartItem[] };
const EMPTY: CartItem[] = [];

/**
 * Before hydrating: when the browser's cart is the cart the server rendered (same lines, names, prices, stock and
 * photos), the store takes the server's list itself, so hydration finds nothing to render again.
 */
export function adoptServerCart(server: ServerCart | undefined): void {
  if (!server?.known) return;
  const same =
    server.items.length === items.length &&
    server.items.every((s, i) => {
      const l = items[i]!;
      return (
        s.code === l.code &&
        s.quantity === l.quantity &&
        s.name === l.name &&
        s.priceCents === l.priceCents &&
        s.stock === l.stock &&
        s.imageUrl === l.imageUrl
      );
    });
  if (same) items = server.items;
}

function useServerCart(): ServerCart | undefined {
  return useQueryClient().getQueryData<ServerCart>(SERVER_CART_KEY);
}

export function useCartItems(): CartItem[] {
  const server = useServerCart();
  return useSyncExternalStore(subscribe, getCartItems, () => server?.items ?? EMPTY);
}

const never = () => () => {};
/**
 * True while hydrating a page whose server did not know the cart (no cookie yet): the page renders what the
 * server did (a placeholder), then the cart itself.
 */
export function useServerCartUnknown(): boolean {
  const server = useServerCart();
  return useSyncExternalStore(
    never,
    () => false,
    () => server?.known !== true,
  );
}

/** The header's count: the sum of quantities. */
export const useCartCount = () => useCartItems().reduce((n, i) => n + i.quantity, 0);
