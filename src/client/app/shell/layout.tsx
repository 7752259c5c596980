import { lazy, Suspense, useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation, useMatches, useNavigationType } from 'react-router';
import { CartSync } from '@/client/cart/cart-sync.tsx';
import { shop } from '@/shared/shop.ts';
import { WhatsAppIcon } from '../../ui/icons.tsx';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';

// The toaster loads after the first paint, outside the initial JavaScript (it is ~10 KB gzip). A toast
// raised before it arrives is not lost: sonner replays the active toasts to a Toaster that subscribes late.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

/** The global shell; header and footer are hidden on the sign-in screens (routes with handle.bare). */
export function Layout() {
  const matches = useMatches();
  const bare = matches.some((m) => (m.handle as { bare?: boolean } | undefined)?.bare);
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  // Spec: the screen scrolls to the top on navigation. Back/forward (POP) keeps ScrollRestoration's position.
  // biome-ignore lint/correctness/useExhaustiveDependencies: run on every new page
  useEffect(() => {
    // Braces matter: recent Chromium returns a Promise from scrollTo, which React would call as the cleanup.
    if (navigationType !== 'POP') window.scrollTo(0, 0);
  }, [pathname]);

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#contenido"
        className="sr-only focus:not-sr-only focus:absolute focus:z-50 focus:bg-white focus:p-2"
      >
        Saltar al contenido
      </a>
      {!bare && <Header />}
      <main id="contenido" className="flex-1">
        <Outlet />
      </main>
      {!bare && <Footer />}
      {!pathname.startsWith('/admin') && (
        <a
          href={`https://wa.me/${shop.whatsapp}`}
          target="_blank"
          rel="noopener noreferrer"
          aria-label="Escríbanos por WhatsApp"
          className="fixed bottom-5 right-5 z-40 flex size-14 items-center justify-center rounded-full bg-[#25d366] text-white shadow-lg transition hover:scale-105"
        >
          <WhatsAppIcon />
        </a>
      )}
      <CartSync />
      <Suspense fallback={null}>
        <Toaster position="bottom-center" visibleToasts={1} richColors closeButton />
      </Suspense>
      <ScrollRestoration
        // A full page load has the key 'default'; keying it by path stops one page inheriting another's position.
        getKey={(location) => (location.key === 'default' ? location.pathname : location.key)}
      />
    </div>
  );
}
