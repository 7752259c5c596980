import { Link } from 'react-router';
import { UserIcon } from '@/client/ui/icons.tsx';

/** The header's account area. Visitors see 'Crear cuenta' and 'Ingresar'; the accounts issue adds the signed-in menu. */
export function AccountMenu() {
  return (
    <div className="flex items-center gap-1 text-sm">
      <UserIcon className="hidden size-5 text-slate-500 sm:block" />
      <Link to="/registro" className="hidden rounded px-2 py-1 text-slate-700 hover:text-brand-700 sm:inline">
        Crear cuenta
      </Link>
      <span className="hidden text-slate-300 sm:inline" aria-hidden="true">
        |
      </span>
      <Link to="/ingresar" className="rounded px-2 py-1 font-medium text-brand-700 hover:text-brand-800">
        Ingresar
      </Link>
    </div>
  );
}
