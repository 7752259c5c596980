import { STATIC_PAGES, type StaticPageKey } from '../static-pages/static-page-list.ts';

/**
 * The shop's one route table (both spec documents, §2). Data only, so everything that needs the list of pages
 * reads it from here: the browser's router and the server's renderer (app/routes.tsx), the page metadata
 * (src/server/seo/page-meta.ts), the preload hints (src/server/spa/preload-hints.ts), the sitemap and robots.txt
 * (src/server/seo/sitemap.ts) and the front-end budgets (scripts/check-budgets.mjs).
 */

/**
 * `server`: the first request gets the page's real content in the HTML, read in-process from the catalogue,
 * and the browser hydrates it. `client`: the HTML carries the shell and a placeholder; the page renders in the
 * browser (signed-in areas, forms). The cart is server-rendered from the cookie that mirrors its lines.
 */
export type Rendering = 'server' | 'client';

/** The part of the shop a page belongs to: catalogue pages never load admin, checkout or account code. */
export type Area = 'catalogue' | 'cart' | 'auth' | 'account' | 'checkout' | 'admin';

export type RouteEntry = {
  /** Unique; the React Router route id. */
  id: string;
  /** React Router path under the layout: '' is the home page, '*' any other address. */
  path: string;
  /** The page module (exports Component, and prefetch when server-rendered), relative to src/client; it is also its key in Vite's manifest. */
  page: string;
  render: Rendering;
  area: Area;
  /** The document title before ' | {shop}' when it does not depend on data; none: the shop's legal name. */
  title?: string;
  /** Listed in /sitemap.xml as it is (brands, groups and products are listed from the catalogue). */
  sitemap?: true;
  /** robots.txt keeps crawlers out of it. */
  private?: true;
  /** The answer's status when the page itself decides nothing else (the 404 page). */
  status?: 404;
  /** Header and footer hidden (sign-in screens, the back office). */
  bare?: true;
  /** The static page shown (static-pages/pages/static-page.tsx reads it from the match's handle). */
  staticPage?: StaticPageKey;
};

const staticPages: RouteEntry[] = (Object.keys(STATIC_PAGES) as StaticPageKey[]).map((key) => ({
  id: `static-${key}`,
  path: STATIC_PAGES[key].path.slice(1),
  page: 'static-pages/pages/static-page.tsx',
  render: 'server',
  area: 'catalogue',
  title: STATIC_PAGES[key].title,
  sitemap: true,
  staticPage: key,
}));

export const ROUTES: readonly RouteEntry[] = [
  {
    id: 'home',
    path: '',
    page: 'catalog/pages/home-page.tsx',
    render: 'server',
    area: 'catalogue',
    sitemap: true,
  },
  {
    id: 'brands',
    path: 'todas_las_marcas',
    page: 'catalog/pages/brands-page.tsx',
    render: 'server',
    area: 'catalogue',
    title: 'Todas las marcas',
    sitemap: true,
  },
  {
    id: 'brand',
    path: 'marcas/:brandName',
    page: 'catalog/pages/brand-page.tsx',
    render: 'server',
    area: 'catalogue',
  },
  {
    id: 'group',
    path: 'grupos/:groupName',
    page: 'catalog/pages/group-page.tsx',
    render: 'server',
    area: 'catalogue',
  },
  {
    id: 'search',
    path: 'busqueda/:name',
    page: 'catalog/pages/search-page.tsx',
    render: 'server',
    area: 'catalogue',
  },
  {
    id: 'product',
    path: 'productos/:code',
    page: 'app/routes/product-page.tsx',
    render: 'server',
    area: 'catalogue',
  },
  ...staticPages,
  {
    id: 'cart',
    path: 'carrito',
    page: 'cart/pages/cart-page.tsx',
    render: 'server',
    area: 'cart',
    title: 'Carrito',
    private: true,
  },
  {
    id: 'quick-order',
    path: 'pedido_rapido',
    page: 'cart/pages/quick-order-page.tsx',
    render: 'client',
    area: 'cart',
    title: 'Pedido rápido',
  },
  {
    id: 'login',
    path: 'ingresar',
    page: 'auth/pages/login-page.tsx',
    render: 'client',
    area: 'auth',
    title: 'Ingresar',
    bare: true,
  },
  {
    id: 'login-old',
    path: 'ingreso',
    page: 'auth/pages/ingreso-redirect.tsx',
    render: 'client',
    area: 'auth',
    title: 'Ingresar',
  },
  {
    id: 'register',
    path: 'registro',
    page: 'auth/pages/register-page.tsx',
    render: 'client',
    area: 'auth',
    title: 'Crear cuenta',
    bare: true,
  },
  {
    id: 'recover',
    path: 'recuperar',
    page: 'auth/pages/recover-page.tsx',
    render: 'client',
    area: 'auth',
    title: 'Recuperar contraseña',
    bare: true,
  },
  {
    id: 'recover-code',
    path: 'codigo_recuperar',
    page: 'auth/pages/recover-code-page.tsx',
    render: 'client',
    area: 'auth',
    title: 'Recuperar contraseña',
    bare: true,
  },
  {
    id: 'account',
    path: 'cuenta/*',
    page: 'account/pages/account-page.tsx',
    render: 'client',
    area: 'account',
    private: true,
  },
  {
    id: 'shipping',
    path: 'envio',
    page: 'app/routes/shipping-page.tsx',
    render: 'client',
    area: 'checkout',
    title: 'Envío',
    private: true,
  },
  {
    id: 'order',
    path: 'orden',
    page: 'app/routes/order-page.tsx',
    render: 'client',
    area: 'checkout',
    title: 'Orden',
    private: true,
  },
  {
    id: 'summary',
    path: 'resumen/:number',
    page: 'app/routes/summary-page.tsx',
    render: 'client',
    area: 'checkout',
    private: true,
  },
  {
    id: 'history',
    path: 'historial',
    page: 'orders/pages/history-page.tsx',
    render: 'client',
    area: 'account',
    title: 'Historial de pedidos',
    private: true,
  },
  {
    id: 'order-returns',
    path: 'historial/devoluciones/:number',
    page: 'returns/pages/returns-page.tsx',
    render: 'client',
    area: 'account',
    private: true,
  },
  {
    id: 'statement',
    path: 'estado-de-cuenta',
    page: 'credit/pages/statement-page.tsx',
    render: 'client',
    area: 'account',
    title: 'Estado de cuenta',
    private: true,
  },
  {
    id: 'quotations',
    path: 'cotizaciones',
    page: 'quotations/pages/quotations-page.tsx',
    render: 'client',
    area: 'account',
    title: 'Mis cotizaciones',
    private: true,
  },
  {
    id: 'requisitions',
    path: 'requisiciones',
    page: 'requisitions/pages/requisitions-page.tsx',
    render: 'client',
    area: 'account',
    title: 'Requisiciones',
    private: true,
  },
  {
    id: 'requisition',
    path: 'requisiciones/:id',
    page: 'requisitions/pages/requisition-page.tsx',
    render: 'client',
    area: 'account',
    private: true,
  },
  {
    id: 'shared-list',
    path: 'listas/compartida/:token',
    page: 'lists/pages/shared-list-page.tsx',
    render: 'client',
    area: 'cart',
    title: 'Lista compartida',
    private: true,
  },
  {
    id: 'lists',
    path: 'listas/*',
    page: 'lists/pages/lists-page.tsx',
    render: 'client',
    area: 'account',
    title: 'Mis listas',
    private: true,
  },
  {
    id: 'invoice',
    path: 'factura/:order',
    page: 'invoices/pages/invoice-page.tsx',
    render: 'client',
    area: 'account',
    private: true,
  },
  {
    id: 'admin',
    path: 'admin/*',
    page: 'admin/pages/admin-page.tsx',
    render: 'client',
    area: 'admin',
    bare: true,
  },
  {
    id: 'not-found',
    path: '*',
    page: 'app/routes/not-found-page.tsx',
    render: 'server',
    area: 'catalogue',
    title: 'Página no encontrada',
    status: 404,
  },
];

/** The entry of a route id (React Router's matches carry it). */
export const routeById = (id: string | undefined): RouteEntry | undefined => ROUTES.find((r) => r.id === id);
