import type { PageModule } from '../../client/app/routes.tsx';

/**
 * The page modules of the route table's server-rendered pages (render: 'server'), keyed by their path from
 * src/client as the route table names them, each imported on its first render. Literal import()s, so the server
 * reads them as source under tsx (development, tests) and the server's bundle holds them as chunks of its own
 * (scripts/build-server.mjs, docs/decisions/055): an address computed at run time could not be bundled.
 * server-pages.test.ts checks this list against the route table.
 */
export const SERVER_PAGES: Readonly<Record<string, () => Promise<PageModule>>> = {
  'catalog/pages/home-page.tsx': () => import('../../client/catalog/pages/home-page.tsx'),
  'catalog/pages/brands-page.tsx': () => import('../../client/catalog/pages/brands-page.tsx'),
  'catalog/pages/brand-page.tsx': () => import('../../client/catalog/pages/brand-page.tsx'),
  'catalog/pages/group-page.tsx': () => import('../../client/catalog/pages/group-page.tsx'),
  'catalog/pages/search-page.tsx': () => import('../../client/catalog/pages/search-page.tsx'),
  'app/routes/product-page.tsx': () => import('../../client/app/routes/product-page.tsx'),
  'static-pages/pages/static-page.tsx': () => import('../../client/static-pages/pages/static-page.tsx'),
  'cart/pages/cart-page.tsx': () => import('../../client/cart/pages/cart-page.tsx'),
  'app/routes/not-found-page.tsx': () => import('../../client/app/routes/not-found-page.tsx'),
};
