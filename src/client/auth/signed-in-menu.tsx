import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useLogout } from '@/client/lib/auth/logout.ts';
import { ChevronDownIcon, UserIcon } from '@/client/ui/icons.tsx';

/** The header's menu of a signed-in person: profile, orders, lists, sign-out (loaded by account-menu.tsx). */
export function SignedInMenu({ nombre, email }: { nombre: string; email: string }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const logout = useLogout();
  const firstName = nombre.split(' ')[0] ?? nombre;

  useEffect(() => {
    if (!open) return;
    const onClick = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', onClick);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onClick);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const item =
    'block w-full px-4 py-2.5 text-left text-sm text-slate-700 hover:bg-brand-50 hover:text-brand-800';
  return (
    <div className="relative" ref={root}>
      <button
        type="button"
        className="flex items-center gap-1.5 rounded-md px-2 py-2 text-sm text-slate-700 hover:text-brand-700"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`Cuenta de ${firstName}`}
        onClick={() => setOpen((v) => !v)}
      >
        <UserIcon className="size-6 sm:size-5" />
        <span className="hidden max-w-32 truncate font-medium sm:inline">{firstName}</span>
        <ChevronDownIcon className="hidden size-4 sm:block" />
      </button>
      {open && (
        <div
          role="menu"
          className="absolute right-0 z-40 mt-1 w-56 overflow-hidden rounded-lg bg-white py-1 shadow-lg ring-1 ring-slate-200"
        >
          <p className="truncate border-b border-slate-100 px-4 py-2 text-xs text-slate-500">{email}</p>
          <Link role="menuitem" to="/cuenta" className={item} onClick={() => setOpen(false)}>
            Perfil
          </Link>
          <Link role="menuitem" to="/historial" className={item} onClick={() => setOpen(false)}>
            Pedidos
          </Link>
          <Link role="menuitem" to="/listas" className={item} onClick={() => setOpen(false)}>
            Mis listas
          </Link>
          <button
            role="menuitem"
            type="button"
            className={`${item} border-t border-slate-100`}
            disabled={logout.isPending}
            onClick={() => logout.mutate()}
          >
            {logout.isPending ? 'Cargando' : 'Cerrar sesión'}
          </button>
        </div>
      )}
    </div>
  );
}
