import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation, useMatches, useNavigationType } from 'react-router';
import { CartSyncGate } from '@/client/cart/cart-sync-gate.tsx';
import { WhatsAppIcon } from '@/client/ui/icons.tsx';
import { NotFound } from '@/client/ui/not-found.tsx';
import { shop } from '@/shared/shop.ts';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';

// The toaster (~10 KB gzip) loads at the shopper's first interaction, or 8 s after the page loaded: never
// during the page load itself. Toasts come from actions, and one raised before the Toaster arrives is not
// lost: sonner replays the active toasts to a Toaster that subscribes late.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

const INTERACTIONS = ['pointerdown', 'keydown', 'focusin', 'touchstart'] as const;

function useToasterWanted() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    const want = () => setWanted(true);
    for (const type of INTERACTIONS) window.addEventListener(type, want, { once: true, passive: true });
    const timer = window.setTimeout(want, 8000);
    return () => {
      for (const type of INTERACTIONS) window.removeEventListener(type, want);
      window.clearTimeout(timer);
    };
  }, []);
  return wanted;
}

/** The global shell; header and footer are hidden on the sign-in screens (routes with handle.bare). */
/** Whether an address can be decoded (the result is used: a minifier drops a call whose value is not). */
const decodable = (path: string) => {
  try {
    return typeof decodeURIComponent(path) === 'string';
  } catch {
    return false;
  }
};

const PRICES_AT_THE_EDGE = /^\/(carrito|orden|pedido_rapido)\/?$/;

export function Layout() {
  const matches = useMatches();
  const bare = matches.some((m) => (m.handle as { bare?: boolean } | undefined)?.bare);
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const toasterWanted = useToasterWanted();
  // Spec: the screen scrolls to the top on navigation. Back/forward (POP) keeps ScrollRestoration's position.
  // biome-ignore lint/correctness/useExhaustiveDependencies: run on every new page
  useEffect(() => {
    // Braces matter: recent Chromium returns a Promise from scrollTo, which React would call as the cleanup.
    // 'instant': a new page starts at the top at once, not after html's smooth scrolling has run through the
    // previous page's height (which depends on how tall the new page's loading state is).
    if (navigationType !== 'POP') window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
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
        {/* An address with a broken escape (/busqueda/%E0%A4%A) names no page: the server answered 404 with this.
            The browser's own address is read: the router's location is not the raw one. */}
        {decodable(globalThis.location?.pathname ?? pathname) ? <Outlet /> : <NotFound />}
      </main>
      {!pathname.startsWith('/admin') && (
        <a
          href={`https://wa.me/${shop.whatsapp}`}
          target="_blank"
          rel="noopener noreferrer"
          aria-label="Escríbanos por WhatsApp"
          // Under the header (z-30, whose mobile menu opens inside it) and under every dialog (top layer). On a
          // phone, the pages of prices at the right edge (cart, checkout, quick order) keep it at their end, above
          // the footer, instead of floating over a price.
          className={`${
            PRICES_AT_THE_EDGE.test(pathname)
              ? 'relative mb-4 mr-4 self-end sm:fixed sm:mb-0 sm:mr-0'
              : 'fixed bottom-4 right-4'
          } z-20 flex size-12 sm:bottom-5 sm:right-5 sm:size-14 items-center justify-center rounded-full bg-[#25d366] text-white shadow-lg transition hover:scale-105`}
        >
          <WhatsAppIcon />
        </a>
      )}
      {!bare && <Footer />}
      <CartSyncGate />
      {toasterWanted && (
        <Suspense fallback={null}>
          <Toaster
            position="bottom-center"
            visibleToasts={1}
            richColors
            closeButton
            // What screen readers announce: in Spanish, not sonner's 'Notifications alt+T' and 'Close toast'.
            customAriaLabel="Notificaciones alt+T"
            toastOptions={{ closeButtonAriaLabel: 'Cerrar aviso' }}
          />
        </Suspense>
      )}
      <ScrollRestoration
        // A full page load has the key 'default'; keying it by path stops one page inheriting another's position.
        getKey={(location) => (location.key === 'default' ? location.pathname : location.key)}
      />
    </div>
  );
}
