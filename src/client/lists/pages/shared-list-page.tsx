import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { AddAtTodaysPricesButton } from '@/client/lib/add-at-todays-prices-button.tsx';
import { sharedListQueryOptions } from '@/client/lib/lists/api.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { shopTitle, useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { PageLoading } from '@/client/ui/page-state.tsx';
import { ListLines } from '../components/list-lines.tsx';
import { linesToAdd } from '../lines-to-add.ts';

const primaryButton =
  'inline-flex items-center justify-center rounded-md bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:cursor-wait disabled:opacity-70';

/**
 * /listas/compartida/:token — a list shared by its owner (issue 18, decision 031): read only, no sign-in needed;
 * 'Agregar todo al carrito' adds it to this browser's cart under the cart's rules, at today's prices.
 */
export function Component() {
  const token = useParams().token ?? '';
  const query = useQuery(sharedListQueryOptions(token));
  useDocumentTitle(shopTitle(query.data ? `Lista «${query.data.name}»` : 'Lista compartida'));

  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <p className="text-sm font-medium uppercase tracking-wide text-brand-700">Lista compartida</p>
      {query.isPending ? (
        <PageLoading label="Cargando la lista…" />
      ) : query.isError ? (
        <div className="mt-4 space-y-4">
          <Alert tone="danger">
            {query.error.message === 'Lista no encontrada'
              ? 'Esta lista ya no está compartida o el enlace no es correcto. Pida a quien se la envió un enlace nuevo.'
              : query.error.message}
          </Alert>
          <Link to="/" className="font-medium text-brand-700 hover:underline">
            Ir a la tienda
          </Link>
        </div>
      ) : (
        <div className="mt-1 space-y-5">
          <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl" data-testid="list-name">
            {query.data.name}
          </h1>
          <p className="text-sm text-slate-600">
            Solo lectura. Precios de hoy con IVA incluido; el carrito aplica los precios por volumen y revisa
            la existencia.
          </p>
          {query.data.lines.length === 0 ? (
            <p className="rounded-xl bg-white p-6 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
              Esta lista está vacía.
            </p>
          ) : (
            <>
              <div className="flex flex-wrap items-center gap-3 rounded-xl bg-brand-50 p-4 ring-1 ring-brand-100">
                <AddAtTodaysPricesButton
                  label="Agregar todo al carrito"
                  testId="list-to-cart"
                  className={primaryButton}
                  load={async () => linesToAdd(query.data.lines)}
                />
              </div>
              <ListLines lines={query.data.lines} />
            </>
          )}
        </div>
      )}
    </div>
  );
}
