import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useSession } from '@/client/lib/auth/session.ts';
import {
  type CartItem,
  getCartItems,
  SERVER_CART_KEY,
  type ServerCart,
  setCartItems,
  useCartItems,
  useServerCartUnknown,
} from '@/client/lib/cart-store.ts';
import type { Prefetch } from '@/client/lib/page-data.ts';
import { CheckoutSteps } from '@/client/ui/checkout-steps.tsx';
import { CartIcon } from '@/client/ui/icons.tsx';
import { shopTitle, useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { PageLoading } from '@/client/ui/page-state.tsx';
import { CART_COOKIE, decodeCartCookie } from '@/shared/cart-cookie.ts';
import { hasSavedShippingAddress } from '../api/get-shipping-address.ts';
import { cartQuoteQueryOptions, useCartQuote } from '../api/quote-cart.ts';
import { cartCount, localSubtotalCents, refreshFromQuote } from '../cart-rules.ts';
import { CartLine } from '../components/cart-line.tsx';
import { CartSummary, type SummaryAmounts } from '../components/cart-summary.tsx';
import { DeliveryNotes } from '../components/delivery-notes.tsx';
import { RequestQuotation } from '../components/request-quotation.tsx';

// 'Guardar como lista' (issue 18): signed-in shoppers only, its code loaded when shown.
const SaveCartAsList = lazy(() =>
  import('@/client/lib/lists/save-to-list.tsx').then((m) => ({ default: m.SaveCartAsList })),
);

// «Enviar a aprobación» (issue 34): only while the session buys for an institution, its code loaded when shown.
const SendForApproval = lazy(() =>
  import('@/client/lib/requisitions/send-for-approval.tsx').then((m) => ({ default: m.SendForApproval })),
);

const primaryButton =
  'inline-flex w-full items-center justify-center rounded-md bg-brand-700 px-5 py-3 font-semibold text-white shadow-sm hover:bg-brand-800 disabled:cursor-wait disabled:opacity-70';
const secondaryButton =
  'inline-flex w-full items-center justify-center rounded-md border border-slate-300 bg-white px-5 py-3 font-medium text-slate-700 hover:bg-slate-50';

function EmptyCart() {
  return (
    <div className="mx-auto max-w-md rounded-lg border border-dashed border-slate-300 px-6 py-12 text-center">
      <span className="mx-auto mb-4 flex size-16 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <CartIcon className="size-8" />
      </span>
      <h2 className="text-lg font-semibold text-slate-900">Su carrito está vacío</h2>
      <p className="mt-2 text-sm text-slate-600">
        Explore nuestro catálogo de equipo, material y reactivos para laboratorio y agregue lo que necesite.
      </p>
      <Link to="/" className={`${primaryButton} mt-6 sm:w-auto`}>
        Seguir comprando
      </Link>
      <p className="mt-4 text-sm text-slate-600">
        ¿Ya tiene los códigos?{' '}
        <Link to="/pedido_rapido" className="font-medium text-brand-700 hover:underline">
          Haga un pedido rápido
        </Link>
      </p>
    </div>
  );
}

/**
 * The server's reads of /carrito (docs/decisions/019): the cart's codes and quantities come from the cookie the
 * browser's cart store mirrors them into; names, prices, stock and totals from the database, now — the server's
 * quote, stored under the key the page's useCartQuote reads. Without the cookie (or with a line the catalogue no
 * longer knows, whose name only the browser has) the server does not render the cart: the browser does.
 */
export const prefetch: Prefetch = async ({ client, reads, cookies }) => {
  const raw = cookies[CART_COOKIE];
  const lines = raw === undefined ? null : decodeCartCookie(raw);
  if (lines === null) return {};
  if (lines.length === 0) {
    client.setQueryData<ServerCart>(SERVER_CART_KEY, { known: true, items: [] });
    return {};
  }
  const quote = await reads.cartQuote(lines);
  const items: CartItem[] = [];
  for (const line of quote.lines) {
    if (line.name === null) return {};
    items.push({
      code: line.code,
      name: line.name,
      priceCents: line.unitPriceCents,
      quantity: line.quantity,
      stock: line.stock,
      imageUrl: line.imageUrl,
      ...(line.leadTime ? { leadTime: line.leadTime } : {}),
    });
  }
  client.setQueryData(cartQuoteQueryOptions(lines).queryKey, quote);
  client.setQueryData<ServerCart>(SERVER_CART_KEY, { known: true, items });
  return {};
};

/** /carrito: the lines, the server's quote, and the way to checkout (spec §2 Cart). */
export function Component() {
  useDocumentTitle(shopTitle('Carrito de compras'));
  const stored = useCartItems();
  const quoteItems = useMemo(() => stored.map(({ code, quantity }) => ({ code, quantity })), [stored]);
  const quote = useCartQuote(quoteItems);
  const fresh = quote.data && !quote.isPlaceholderData ? quote.data : undefined;
  // The lines as the quote prices them, from the first paint: the stored cart may hold list prices and bare names
  // (the signed-in shopper's saved cart replaces it after the quote answered, with the same codes and quantities).
  const items = useMemo(() => (fresh ? refreshFromQuote(stored, fresh.lines) : stored), [stored, fresh]);
  const [priceChanges, setPriceChanges] = useState<Record<string, number>>({});
  const session = useSession();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  const unknownToServer = useServerCartUnknown();

  // The server's price and stock win: remember the price the shopper saw, then store the server's data — again
  // whenever the stored cart is replaced under the same quote (the saved cart arriving after the quote did).
  useEffect(() => {
    // While hydrating, `stored` may be the server's copy of the cart: the store's own follows at once.
    if (!fresh || stored !== getCartItems()) return;
    const current = stored;
    const changed: Record<string, number> = {};
    for (const line of fresh.lines) {
      const item = current.find((i) => i.code === line.code);
      // A line with volume prices changes its unit price with its quantity: that is no price change.
      const volume = line.nextBreak !== null || line.listPriceCents !== line.unitPriceCents;
      if (item && line.name !== null && !volume && line.unitPriceCents !== item.priceCents)
        changed[line.code] = item.priceCents;
    }
    if (Object.keys(changed).length > 0) setPriceChanges((prev) => ({ ...changed, ...prev }));
    const next = refreshFromQuote(current, fresh.lines);
    if (next !== current) setCartItems(next);
  }, [fresh, stored]);

  // On failure (or while the first quote loads) shipping shows 0 and the subtotal is the browser's (spec §8).
  const amounts: SummaryAmounts = quote.data
    ? {
        subtotalCents: quote.data.subtotalCents,
        shippingCents: quote.data.shippingCents,
        ivaCents: quote.data.ivaCents,
        totalCents: quote.data.totalCents,
        weightKg: quote.data.weightKg,
      }
    : {
        subtotalCents: localSubtotalCents(items),
        shippingCents: 0,
        ivaCents: null,
        totalCents: localSubtotalCents(items),
        weightKg: null,
      };
  const lineError = (code: string, quantity: number) => {
    const line = fresh?.lines.find((l) => l.code === code);
    return line && line.quantity === quantity ? line.error : null;
  };
  const lineVolume = (code: string, quantity: number) => {
    const line = fresh?.lines.find((l) => l.code === code);
    return line && line.quantity === quantity && line.name !== null
      ? {
          listPriceCents: line.listPriceCents,
          nextBreak: line.nextBreak,
          lineTotalCents: line.lineTotalCents,
        }
      : undefined;
  };

  const lineBackorder = (code: string, quantity: number) => {
    const line = fresh?.lines.find((l) => l.code === code);
    return line && line.quantity === quantity && line.name !== null
      ? { stock: line.stock, backordered: line.backordered, leadTime: line.leadTime }
      : undefined;
  };

  async function checkout() {
    if (fresh && !fresh.ok) {
      toast.error('Revise los productos marcados antes de finalizar la compra');
      return;
    }
    if (!session.data?.user) {
      // After signing in the purchase goes on: /orden (which sends a shopper without an address to /envio).
      navigate('/ingresar?redirect=/orden');
      return;
    }
    setLeaving(true);
    try {
      navigate((await hasSavedShippingAddress()) ? '/orden' : '/envio');
    } catch {
      navigate('/envio');
    } finally {
      setLeaving(false);
    }
  }

  const count = cartCount(items);
  // Hydrating a page the server rendered without knowing the cart: what it rendered, then the cart.
  if (unknownToServer) return <PageLoading />;
  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:py-8">
      <CheckoutSteps current={1} />
      <h1 className="mb-6 text-2xl font-semibold text-slate-900 sm:text-3xl">
        Carrito de compras
        {count > 0 && (
          <span className="ml-2 text-base font-normal text-slate-500">
            ({count} {count === 1 ? 'artículo' : 'artículos'})
          </span>
        )}
      </h1>

      {items.length === 0 ? (
        <EmptyCart />
      ) : (
        <div className="grid gap-8 lg:grid-cols-3">
          <div className="lg:col-span-2">
            <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white px-4">
              {items.map((item) => (
                <CartLine
                  key={item.code}
                  item={item}
                  previousPriceCents={priceChanges[item.code]}
                  error={lineError(item.code, item.quantity)}
                  volume={lineVolume(item.code, item.quantity)}
                  backorder={lineBackorder(item.code, item.quantity)}
                  controlled={quote.data?.lines.some((l) => l.code === item.code && l.controlled)}
                  contract={quote.data?.lines.some((l) => l.code === item.code && l.contract)}
                />
              ))}
            </ul>
            <p className="mt-3 text-xs text-slate-500">
              Precios en pesos mexicanos con IVA incluido. El envío se calcula según el peso de los productos.
            </p>
            <DeliveryNotes delivery={quote.data?.delivery} />
          </div>
          <CartSummary amounts={amounts} busy={quote.isFetching}>
            <button
              type="button"
              className={primaryButton}
              onClick={checkout}
              disabled={leaving || session.isPending}
            >
              Finalizar compra
            </button>
            {session.data?.user && fresh?.lines.every((l) => l.name !== null) && (
              <RequestQuotation items={quoteItems} />
            )}
            {session.data?.user && fresh?.lines.every((l) => l.name !== null) && (
              <Suspense fallback={null}>
                <SaveCartAsList items={quoteItems} />
              </Suspense>
            )}
            {session.data?.user && fresh?.lines.every((l) => l.name !== null) && (
              <Suspense fallback={null}>
                <SendForApproval items={quoteItems} />
              </Suspense>
            )}
            <Link to="/" className={secondaryButton}>
              Seguir comprando
            </Link>
            <Link
              to="/pedido_rapido"
              className="text-center text-sm font-medium text-brand-700 hover:underline"
            >
              Pedido rápido por códigos
            </Link>
          </CartSummary>
        </div>
      )}
    </div>
  );
}
