import { Link } from 'react-router';
import { addToCart, quantityInCart } from '@/client/lib/cart-add.ts';
import { getCartItems, setCartItems, useCartItems } from '@/client/lib/cart-store.ts';
import type { ProductCard } from '@/shared/schemas/catalog.ts';

const toast = {
  warning: (message: string) => void import('sonner').then((m) => m.toast.warning(message)),
  success: (message: string) =>
    void import('sonner').then((m) => m.toast.success(message, { duration: 2000, position: 'bottom-left' })),
};

/**
 * 'Agregar' on a listing card (brand, group and search pages): one unit per click under the same rule as the
 * product page ('Límite de stock'), with how many the cart already holds. Sits above the card's link.
 */
export function CardAddButton({ product }: { product: ProductCard }) {
  // A product sold in several presentations (decision 021): the buyer chooses one on its page.
  if (product.presentationCount > 1) {
    return (
      <Link
        to={`/productos/${encodeURIComponent(product.code)}`}
        data-testid="card-choose"
        aria-label={`Elegir presentación de ${product.name}`}
        className="relative z-10 mt-2 inline-flex items-center justify-center rounded-md border border-brand-700 px-3 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50"
      >
        Elegir
      </Link>
    );
  }
  return <AddOne product={product} />;
}

function AddOne({ product }: { product: ProductCard }) {
  const inCart = quantityInCart(useCartItems(), product.code);
  // 'Sobre pedido' (decision 029): never sold out, the rest is backordered.
  const soldOut = product.stock < 1 && !product.leadTime;
  function add() {
    const result = addToCart(getCartItems(), product);
    if (!result.ok) {
      toast.warning(result.message);
      return;
    }
    setCartItems(result.items);
    toast.success('Producto agregado al carrito');
  }
  return (
    <button
      type="button"
      onClick={add}
      aria-disabled={soldOut || undefined}
      data-testid="card-add"
      aria-label={`Agregar ${product.name} al carrito (${inCart} en el carrito)`}
      className={`relative z-10 mt-2 inline-flex items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-semibold ${
        soldOut
          ? 'cursor-not-allowed bg-slate-100 text-slate-500'
          : 'bg-brand-700 text-white hover:bg-brand-800 active:bg-brand-900'
      }`}
    >
      Agregar
      <span
        data-testid="card-add-count"
        className={`inline-flex min-w-5 items-center justify-center rounded-full bg-white px-1 text-xs font-bold ${
          soldOut ? 'text-slate-500' : 'text-brand-800'
        }`}
      >
        {inCart}
      </span>
    </button>
  );
}
