import { lazy, Suspense, useEffect, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { AddToCartButton } from '@/client/cart/components/add-to-cart-button.tsx';
import { prefetchProduct, useProduct } from '@/client/catalog/api/get-product.ts';
import { ProductDetailView } from '@/client/catalog/components/product-detail.tsx';
import { useSessionUser } from '@/client/lib/auth/session.ts';
import type { Prefetch } from '@/client/lib/page-data.ts';
import { NotFound } from '@/client/ui/not-found.tsx';
import { PageError, PageLoading } from '@/client/ui/page-state.tsx';
import { presentationName } from '@/shared/presentation-name.ts';

const PRODUCT_NOT_FOUND = 'Producto no encontrado';

// 'Agregar a una lista' (issue 18) is for signed-in shoppers only: its code loads after hydration, when the
// session says so, and never weighs on the page's first JavaScript (the server renders no button for it).
const AddToListButton = lazy(() =>
  import('@/client/lib/lists/save-to-list.tsx').then((m) => ({ default: m.AddToListButton })),
);

function AddToList({ code }: { code: string }) {
  const { user } = useSessionUser();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!hydrated || !user) return null;
  return (
    <div className="mt-3">
      <Suspense fallback={null}>
        <AddToListButton code={code} />
      </Suspense>
    </div>
  );
}

// 'Avísame cuando haya' (issue 35): only under a product without stock, loaded after hydration like the lists.
const StockAlertForm = lazy(() =>
  import('@/client/stock-alerts/stock-alert-form.tsx').then((m) => ({ default: m.StockAlertForm })),
);

function StockAlert({ code }: { code: string }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!hydrated) return null;
  return (
    <Suspense fallback={null}>
      <StockAlertForm code={code} />
    </Suspense>
  );
}

/** The server reads the product: 404 when there is none; its facts make the title, price tags and JSON-LD. */
export const prefetch: Prefetch = async ({ params, client, reads }) => {
  const code = params.code ?? '';
  const product = await prefetchProduct(client, reads, code);
  if (!product) return { status: 404, facts: { title: PRODUCT_NOT_FOUND } };
  // /productos/crx-10000 → /productos/CRX-10000: one address per product.
  if (product.code !== code) return { redirect: `/productos/${encodeURIComponent(product.code)}` };
  return { facts: { product } };
};

/**
 * /productos/:code — the catalogue's detail with the cart's button. Spinner, then the product; 'Error de
 * conexión' on network failure; 'Producto no encontrado' (404) for an unknown code.
 */
export function Component() {
  const code = useParams().code ?? '';
  const query = useProduct(code);

  if (query.isPending) return <PageLoading label="Cargando producto…" />;
  if (query.isError) return <PageError message={query.error.message} />;
  const p = query.data;
  if (p && p.code !== code) return <Navigate to={`/productos/${encodeURIComponent(p.code)}`} replace />;
  if (p === null) {
    return (
      <NotFound
        title={PRODUCT_NOT_FOUND}
        message={`No encontramos el producto con código «${code}». Puede buscarlo por nombre o ver nuestras marcas.`}
      />
    );
  }
  return (
    <ProductDetailView
      product={p}
      purchase={
        <>
          <AddToCartButton
            product={{
              code: p.code,
              name: presentationName(p),
              priceCents: p.priceCents,
              stock: p.stock,
              imageUrl: p.imageUrl,
              leadTime: p.leadTime,
            }}
          />
          {p.stock < 1 && !p.leadTime && <StockAlert key={p.code} code={p.code} />}
          <AddToList code={p.code} />
        </>
      }
    />
  );
}
