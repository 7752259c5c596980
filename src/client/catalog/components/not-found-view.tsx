import { Link } from 'react-router';
import { useDocumentTitle } from '../../ui/page-heading.tsx';

/** An unknown brand, group or product: the page says so and offers a way on. */
export function NotFoundView({ title, message }: { title: string; message: string }) {
  useDocumentTitle(title);
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      <p className="mt-2 text-slate-600">{message}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link
          to="/todas_las_marcas"
          className="rounded-md bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800"
        >
          Ver todas las marcas
        </Link>
        <Link
          to="/"
          className="rounded-md border border-slate-300 px-5 py-2.5 font-medium text-slate-700 hover:border-brand-500"
        >
          Volver al inicio
        </Link>
      </div>
    </div>
  );
}
