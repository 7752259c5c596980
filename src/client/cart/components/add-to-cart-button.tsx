import { getCartItems, setCartItems, useCartItems } from '@/client/lib/cart-store.ts';
import { CartIcon } from '@/client/ui/icons.tsx';
import { addToCart, MESSAGES, type ProductForCart, quantityInCart } from '../cart-rules.ts';

// sonner is imported on first use, so the product page's initial JavaScript does not carry it (the layout's
// lazy Toaster has usually loaded it by the time anyone clicks).
const toast = {
  warning: (message: string) => void import('sonner').then((m) => m.toast.warning(message)),
  success: (message: string, options: { duration: number; position: 'bottom-left' }) =>
    void import('sonner').then((m) => m.toast.success(message, options)),
};

/**
 * 'Agregar a carrito' on the product detail. Adds one unit per click under the stock rule (spec §4), and shows in a
 * badge how many of this product the cart already holds.
 */
export function AddToCartButton({ product }: { product: ProductForCart }) {
  const items = useCartItems();
  const inCart = quantityInCart(items, product.code);
  // 'Sobre pedido' (decision 029): never sold out, the rest is backordered.
  const soldOut = product.stock < 1 && !product.leadTime;

  function add() {
    const result = addToCart(getCartItems(), product);
    if (!result.ok) {
      toast.warning(result.message);
      return;
    }
    setCartItems(result.items);
    toast.success(MESSAGES.added, { duration: 2000, position: 'bottom-left' });
  }

  return (
    <button
      type="button"
      onClick={add}
      aria-disabled={soldOut || undefined}
      data-testid="add-to-cart"
      className={`relative inline-flex items-center justify-center gap-2 rounded-md px-6 py-3 text-base font-semibold shadow-sm transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
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
  );
}
