import { Link } from 'react-router';
import { shopTitle, useDocumentTitle } from './page-heading.tsx';

export const PAGE_NOT_FOUND = 'Página no encontrada';

/**
 * The 404 page: an unknown address, or an unknown product, brand or group named in `title` (the server answers
 * those with status 404 and this page in the HTML). It always offers a way on.
 */
export function NotFound({ title, message }: { title?: string; message?: string }) {
  const heading = title ?? PAGE_NOT_FOUND;
  useDocumentTitle(shopTitle(heading));
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <p className="text-6xl font-bold text-brand-600">404</p>
      {title && (
        <p className="mt-4 text-sm font-medium uppercase tracking-wide text-slate-600">{PAGE_NOT_FOUND}</p>
      )}
      <h1 className={`${title ? 'mt-1' : 'mt-4'} text-2xl font-semibold text-slate-900`}>{heading}</h1>
      <p className="mt-2 text-slate-600">
        {message ?? 'La dirección que buscó no existe o cambió de lugar.'}
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link
          to="/"
          className="rounded-md bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800"
        >
          Volver al inicio
        </Link>
        <Link
          to="/todas_las_marcas"
          className="rounded-md border border-slate-300 px-5 py-2.5 font-medium text-slate-700 hover:border-brand-500"
        >
          Ver todas las marcas
        </Link>
      </div>
    </div>
  );
}
