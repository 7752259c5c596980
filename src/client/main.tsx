import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition, useEffect } from 'react';
import { createBrowserRouter, matchRoutes, type RouteObject, RouterProvider } from 'react-router';
import { loadPage } from './app/page-modules.ts';
import { createRoutes, type RouteHandle } from './app/routes.tsx';
import { adoptServerCart, SERVER_CART_KEY, type ServerCart } from './lib/cart-store.ts';
import { createQueryClient, hydrateQueryState, SSR_STATE_ID } from './lib/query-client.ts';
import './styles.css';

/**
 * A server-rendered page's own route is loaded before hydrating (its chunk was modulepreloaded by the HTML),
 * so the first render in the browser is the page the server rendered, not a fallback. A client-rendered page
 * stays lazy: hydration renders its placeholder, as the server did, and the router loads it right after.
 */
async function loadServerRenderedRoutes(routes: RouteObject[]) {
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (!route.lazy || typeof route.lazy !== 'function') return;
      if ((route.handle as RouteHandle | undefined)?.entry.render !== 'server') return;
      Object.assign(route, await route.lazy(), { lazy: undefined });
    }),
  );
}

/**
 * Rendered once at the root: after the first commit (hydration done, or the first client render), the boot script
 * (src/server/spa/boot-script.ts) gives back what the shopper did while the JavaScript was loading — clicks,
 * submissions, a select's choice — and stops keeping it. Renders nothing, so hydration is unchanged.
 */
function ReplayEarlyInput() {
  useEffect(() => {
    // After React has raised the change events of fields typed into before hydration.
    const timer = setTimeout(() => (window as { __tiendaBoot?: () => void }).__tiendaBoot?.(), 0);
    return () => clearTimeout(timer);
  }, []);
  return null;
}

/**
 * Lets the browser run what is waiting (input, a paint) between two pieces of the start. Total Blocking Time counts
 * every task's time beyond 50 ms, and Lighthouse's mobile profile multiplies each observed task by 4, so the start is
 * cut into tasks of a few milliseconds (docs/decisions/038): this module's evaluation (the router, TanStack Query and
 * the shop's shell); reading the server's state; loading the page's own route module; React DOM's evaluation (its
 * first call compiles and runs ≈ 180 KB of code, the largest single piece, so it is imported here rather than with
 * this module: the framework chunk that holds it is already loaded, only its evaluation waits); creating the router;
 * hydration, itself sliced by the transition.
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function start() {
  await nextTask();
  const root = document.getElementById('root')!;
  const queryClient = createQueryClient();
  const routes = createRoutes(loadPage, 'browser');
  const ssrState = document.getElementById(SSR_STATE_ID);
  if (ssrState) {
    hydrateQueryState(queryClient, JSON.parse(ssrState.textContent ?? '{}'));
    // The cart the server rendered /carrito with is this tab's cart: hydration then re-renders nothing of it.
    adoptServerCart(queryClient.getQueryData<ServerCart>(SERVER_CART_KEY));
    await nextTask();
    await loadServerRenderedRoutes(routes);
  }
  await nextTask();
  const { createRoot, hydrateRoot } = await import('react-dom/client');
  await nextTask();
  const router = createBrowserRouter(routes);
  await nextTask();
  const app = (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <ReplayEarlyInput />
      </QueryClientProvider>
    </StrictMode>
  );
  // As a transition, hydration yields to the browser every few milliseconds instead of blocking the main thread
  // for the whole page (a click meanwhile is replayed once its part is hydrated). Without the server's state
  // (npm run dev, where Vite serves index.html) the page renders in the browser.
  if (ssrState) startTransition(() => void hydrateRoot(root, app));
  else createRoot(root).render(app);
}

void start();
