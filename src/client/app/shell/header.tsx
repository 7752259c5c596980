import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { AccountMenu, MobileAccountLinks } from '@/client/auth/account-menu.tsx';
import { useSessionUser } from '@/client/lib/auth/session.ts';
import { useCartCount } from '@/client/lib/cart-store.ts';
import { BrandMark } from '@/client/ui/brand-mark.tsx';
import { CartIcon, CloseIcon, MenuIcon } from '@/client/ui/icons.tsx';
import { shop } from '@/shared/shop.ts';
import { CategoryList, CategoryMenu } from './category-menu.tsx';
import { SearchBox } from './search-box.tsx';

const navLinks = [
  { to: '/todas_las_marcas', label: 'Marcas' },
  { to: '/pedido_rapido', label: 'Pedido rápido' },
  { to: '/nosotros', label: 'Nosotros' },
  { to: '/contacto', label: 'Contacto' },
  { to: '/sucursales', label: 'Sucursales' },
];

// «Comprando para» (issue 34): its own chunk, fetched only once a signed-in session is known.
const BuyingFor = lazy(() => import('@/client/account/components/buying-for.tsx'));

function BuyingForSlot() {
  const { user } = useSessionUser();
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <BuyingFor />
    </Suspense>
  );
}

function CartLink() {
  const count = useCartCount();
  return (
    <Link
      to="/carrito"
      className="relative flex items-center gap-2 rounded-md px-2 py-2 text-slate-700 hover:text-brand-700"
      aria-label={`Carrito: ${count} ${count === 1 ? 'artículo' : 'artículos'}`}
    >
      <CartIcon className="size-6" />
      <span
        data-testid="cart-count"
        className="absolute -right-0.5 -top-0.5 flex min-w-5 items-center justify-center rounded-full bg-accent-500 px-1 text-xs font-bold text-white"
      >
        {count}
      </span>
      <span className="hidden text-sm font-medium lg:inline">Carrito</span>
    </Link>
  );
}

export function Header() {
  const [drawer, setDrawer] = useState(false);
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the drawer on navigation
  useEffect(() => setDrawer(false), [location.pathname]);

  return (
    <header className="sticky top-0 z-30 bg-white shadow-sm">
      <p className="bg-brand-900 px-4 py-1.5 text-center text-xs text-brand-100">{shop.bannerText}</p>
      <div className="mx-auto flex max-w-7xl items-center gap-2 px-3 py-3 sm:gap-4 sm:px-4">
        <button
          type="button"
          className="rounded p-1.5 text-slate-700 md:hidden"
          aria-label="Abrir menú"
          aria-expanded={drawer}
          onClick={() => setDrawer(true)}
        >
          <MenuIcon className="size-6" />
        </button>
        <BrandMark />
        <div className="mx-4 hidden flex-1 md:block">
          <SearchBox id="buscar-escritorio" />
        </div>
        <div className="ml-auto flex items-center gap-1 sm:gap-2 md:ml-0">
          <AccountMenu />
          <CartLink />
        </div>
      </div>
      <div className="px-4 pb-3 md:hidden">
        <SearchBox id="buscar-movil" />
      </div>
      <nav aria-label="Principal" className="hidden bg-brand-700 text-white md:block">
        <div className="mx-auto flex max-w-7xl items-center px-4 text-sm">
          <CategoryMenu />
          {navLinks.map((l) => (
            <NavLink
              key={l.to}
              to={l.to}
              className={({ isActive }) => `px-4 py-3 hover:bg-brand-800 ${isActive ? 'bg-brand-800' : ''}`}
            >
              {l.label}
            </NavLink>
          ))}
        </div>
      </nav>
      <BuyingForSlot />

      {drawer && (
        <div className="fixed inset-0 z-50 md:hidden">
          <button
            type="button"
            aria-label="Cerrar menú"
            className="absolute inset-0 bg-slate-900/50"
            onClick={() => setDrawer(false)}
          />
          <nav
            aria-label="Menú móvil"
            className="absolute inset-y-0 left-0 flex w-80 max-w-[85vw] flex-col overflow-y-auto bg-white shadow-xl"
          >
            <div className="flex items-center justify-between border-b border-slate-100 px-4 py-3">
              <span className="font-semibold text-brand-800">Categorías</span>
              <button type="button" aria-label="Cerrar menú" onClick={() => setDrawer(false)} className="p-1">
                <CloseIcon />
              </button>
            </div>
            <CategoryList />
            <ul className="mt-2 border-t border-slate-100 py-2">
              {navLinks.map((l) => (
                <li key={l.to}>
                  <Link to={l.to} className="block px-4 py-2.5 text-slate-700">
                    {l.label}
                  </Link>
                </li>
              ))}
            </ul>
            <MobileAccountLinks />
          </nav>
        </div>
      )}
    </header>
  );
}
