import type { Prefetch } from '@/client/lib/page-data.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { Breadcrumb } from '@/client/ui/breadcrumb.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { shop } from '@/shared/shop.ts';
import { prefetchBrands, useBrands } from '../api/get-brands.ts';
import { BrandTile } from '../components/brand-tile.tsx';

export const prefetch: Prefetch = async ({ client, reads }) => ({ rest: prefetchBrands(client, reads) });

/** /todas_las_marcas — a grid of brand tiles, each → /marcas/{name}. */
export function Component() {
  useDocumentTitle(`Todas las marcas | ${shop.tradeName}`);
  const brands = useBrands();
  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:py-8">
      <Breadcrumb items={[{ label: 'Inicio', to: '/' }, { label: 'Marcas' }]} />
      <h1 className="mt-3 text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">
        Nuestras marcas
      </h1>
      <p className="mt-1 text-slate-600">
        Trabajamos con fabricantes reconocidos de equipo, material y reactivos para laboratorio.
      </p>
      {brands.isPending ? (
        <Spinner label="Cargando marcas…" />
      ) : brands.isError ? (
        <div className="mt-8">
          <Alert tone="danger">{brands.error.message}</Alert>
        </div>
      ) : (
        <ul className="mt-8 grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-5 lg:grid-cols-4 xl:grid-cols-6">
          {brands.data.map((b) => (
            <BrandTile key={b.name} brand={b} />
          ))}
        </ul>
      )}
    </div>
  );
}
