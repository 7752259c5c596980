import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { useSessionUser } from '@/client/lib/auth/session.ts';
import { UserIcon } from '@/client/ui/icons.tsx';

/**
 * A signed-in person's menu (and the sign-out it carries) is a chunk of its own: it only ever shows after the
 * session's answer — the server's HTML and hydration render the visitor's links unseen — so a visitor's pages never
 * download it. While it loads, the icon holds its place.
 */
const SignedInMenu = lazy(() => import('./signed-in-menu.tsx').then((m) => ({ default: m.SignedInMenu })));

/** The header's account area: 'Crear cuenta' / 'Ingresar' for visitors, a menu for signed-in users. */
export function AccountMenu() {
  const { user, pending } = useSessionUser();
  // While the session is unknown (the server's HTML, the first moments after hydration) the visitor's links hold
  // their place unseen, so the header does not move when they appear.
  if (pending || !user) {
    return (
      <div className={`flex items-center gap-1 text-sm ${pending ? 'invisible' : ''}`}>
        <UserIcon className="hidden size-5 text-slate-500 sm:block" />
        <Link
          to="/registro"
          className="hidden rounded px-2 py-1 text-slate-700 hover:text-brand-700 sm:inline"
        >
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
  return (
    <Suspense fallback={<UserIcon className="m-2 size-6 text-slate-700 sm:size-5" />}>
      <SignedInMenu nombre={user.nombre} email={user.email} />
    </Suspense>
  );
}

/** The mobile menu's account links for a visitor ('Crear cuenta' is hidden in the header on phones). */
export function MobileAccountLinks() {
  const { user, pending } = useSessionUser();
  if (pending || user) return null;
  return (
    <ul className="border-t border-slate-100 py-2" aria-label="Cuenta">
      <li>
        <Link to="/registro" className="block px-4 py-2.5 font-medium text-brand-700">
          Crear cuenta
        </Link>
      </li>
      <li>
        <Link to="/ingresar" className="block px-4 py-2.5 text-slate-700">
          Ingresar
        </Link>
      </li>
    </ul>
  );
}
