import { Link } from 'react-router';
import { useDocumentTitle } from '../ui/page-heading.tsx';

export function NotFoundPage() {
  useDocumentTitle('Página no encontrada');
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="text-6xl font-bold text-brand-200">404</p>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">Página no encontrada</h1>
      <p className="mt-2 text-slate-600">La dirección que buscó no existe o cambió de lugar.</p>
      <Link
        to="/"
        className="mt-8 rounded-md bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800"
      >
        Volver al inicio
      </Link>
    </div>
  );
}
