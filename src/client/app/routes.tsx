import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { Prefetch } from '@/client/lib/page-data.ts';
import { PageLoading } from '@/client/ui/page-state.tsx';
import { ErrorScreen } from './error-screen.tsx';
import { ROUTES, type RouteEntry } from './route-table.ts';
import { Layout } from './shell/layout.tsx';

/** What a page module of the route table exports. */
export type PageModule = { Component: ComponentType; prefetch?: Prefetch };

/** Loads a page module by its path in the route table (the browser: a lazy chunk; the server: the source). */
export type LoadPage = (page: string) => Promise<PageModule>;

/** What the route's match carries (the layout reads `bare`; the static page reads `page`). */
export type RouteHandle = { entry: RouteEntry; bare?: boolean; page?: string };

/**
 * Where a client-rendered page goes in the first HTML, and what the browser shows while hydrating until that
 * page's chunk has run: the two must be the same markup. A screen tall, so nothing below moves (CLS).
 */
export function PagePlaceholder() {
  return <PageLoading />;
}

/**
 * The router's routes, built from the route table for one side. In the browser every page is a lazy chunk
 * (server-rendered ones are loaded before hydration, src/client/main.tsx). On the server the server-rendered
 * pages are loaded and rendered, and the client-rendered ones are only their placeholder.
 */
export function createRoutes(load: LoadPage, side: 'browser' | 'server'): RouteObject[] {
  return [
    {
      id: 'layout',
      element: <Layout />,
      errorElement: <ErrorScreen />,
      children: ROUTES.map((entry): RouteObject => {
        const handle: RouteHandle = {
          entry,
          ...(entry.bare ? { bare: true } : {}),
          ...(entry.staticPage ? { page: entry.staticPage } : {}),
        };
        const common = { id: entry.id, handle, HydrateFallback: PagePlaceholder };
        const page =
          side === 'server' && entry.render === 'client'
            ? { Component: PagePlaceholder }
            : { lazy: async () => ({ Component: (await load(entry.page)).Component }) };
        return entry.path === ''
          ? { ...common, index: true, ...page }
          : { ...common, path: entry.path, ...page };
      }),
    },
  ];
}
