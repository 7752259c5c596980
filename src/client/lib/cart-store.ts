import { useSyncExternalStore } from 'react';

/** One cart line as kept in the browser (display only: the server recomputes prices and stock). */
export type CartItem = {
  code: string;
  name: string;
  priceCents: number;
  quantity: number;
  stock: number;
  imageUrl: string | null;
};

const KEY = 'cartItems';
const listeners = new Set<() => void>();
let items: CartItem[] = read();

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
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The server renders an empty cart (it has no browser storage); hydration starts from the same. */
const SERVER_SNAPSHOT: CartItem[] = [];

export const useCartItems = () => useSyncExternalStore(subscribe, getCartItems, () => SERVER_SNAPSHOT);

/** The header's count: the sum of quantities. */
export const useCartCount = () => useCartItems().reduce((n, i) => n + i.quantity, 0);
