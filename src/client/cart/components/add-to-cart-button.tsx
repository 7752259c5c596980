import { useId, useState } from 'react';
import { orderableUpTo } from '@/client/lib/cart-add.ts';
import { getCartItems, setCartItems, useCartItems } from '@/client/lib/cart-store.ts';
import { CartIcon } from '@/client/ui/icons.tsx';
import {
  addToCart,
  MAX_LINE_QUANTITY,
  MESSAGES,
  type ProductForCart,
  parseQuantity,
  quantityInCart,
} from '../cart-rules.ts';

// sonner is imported on first use, so the product page's initial JavaScript does not carry it (the layout's
// lazy Toaster has usually loaded it by the time anyone clicks).
const toast = {
  warning: (message: string, description?: string) =>
    void import('sonner').then((m) => m.toast.warning(message, description ? { description } : {})),
  success: (message: string, options: { duration: number; position: 'bottom-left' }) =>
    void import('sonner').then((m) => m.toast.success(message, options)),
};

/**
 * 'Agregar a carrito' on the product detail, with the quantity to add beside it (1 unless the buyer types more:
 * a volume price is one field away, not ten clicks). The field's limits are the presentation's — its stock, or
 * for 'sobre pedido' the most units per line — and the click adds that quantity under the cart's stock rule
 * (spec §4, counting what the cart holds). The badge shows how many of this product the cart already holds.
 * A number typed and a click made before hydration are both given back by the boot script (boot-script.ts).
 */
export function AddToCartButton({ product }: { product: ProductForCart }) {
  const items = useCartItems();
  const inCart = quantityInCart(items, product.code);
  const [draft, setDraft] = useState('1');
  const fieldId = useId();
  // 'Sobre pedido' (decision 029): never sold out, the rest is backordered.
  const soldOut = product.stock < 1 && !product.leadTime;
  const most = Math.max(1, Math.min(orderableUpTo(product), MAX_LINE_QUANTITY));

  function add() {
    if (soldOut) {
      toast.warning(MESSAGES.stockLimit);
      return;
    }
    const units = parseQuantity(draft);
    if (units === null) {
      toast.warning(MESSAGES.invalid);
      return;
    }
    if (units === 0) {
      toast.warning(MESSAGES.zero);
      return;
    }
    const result = addToCart(getCartItems(), product, units);
    if (!result.ok) {
      const left = Math.max(0, most - inCart);
      toast.warning(
        result.message,
        result.reason === 'stock_limit'
          ? left === 0
            ? `Su carrito ya tiene ${inCart}: no puede agregar más.`
            : `Puede agregar hasta ${left}${inCart > 0 ? ` (su carrito ya tiene ${inCart})` : ''}.`
          : undefined,
      );
      return;
    }
    setCartItems(result.items);
    toast.success(MESSAGES.added, { duration: 2000, position: 'bottom-left' });
  }

  return (
    <div className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor={fieldId} className="block text-sm font-medium text-slate-700">
          Cantidad
        </label>
        <input
          id={fieldId}
          type="number"
          inputMode="numeric"
          min={1}
          max={most}
          step={1}
          value={draft}
          disabled={soldOut}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') add();
          }}
          data-testid="add-to-cart-quantity"
          className="mt-1 h-12 w-24 rounded-md border border-slate-300 bg-white px-3 text-center text-base focus:outline-none focus:ring-2 focus:ring-brand-500 disabled:bg-slate-100 disabled:text-slate-400"
        />
      </div>
      <button
        type="button"
        onClick={add}
        aria-disabled={soldOut || undefined}
        data-testid="add-to-cart"
        className={`relative inline-flex h-12 items-center justify-center gap-2 rounded-md px-6 text-base font-semibold shadow-sm transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
          soldOut
            ? 'cursor-not-allowed bg-slate-200 text-slate-500'
            : 'bg-brand-700 text-white hover:bg-brand-800 active:bg-brand-900'
        }`}
      >
        <CartIcon className="size-5" />
        <span>Agregar a carrito</span>
        <span
          data-testid="add-to-cart-count"
          className={`ml-1 inline-flex min-w-6 items-center justify-center rounded-full px-1.5 text-sm font-bold ${
            soldOut ? 'bg-white text-slate-500' : 'bg-white text-brand-800'
          }`}
        >
          {inCart}
        </span>
        <span className="sr-only"> en el carrito</span>
      </button>
    </div>
  );
}
