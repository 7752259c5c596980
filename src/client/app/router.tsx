import { createBrowserRouter, Navigate, useLocation } from 'react-router';
import { ErrorScreen } from './error-screen.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { Layout } from './shell/layout.tsx';

/** /ingreso → /ingresar, keeping the query (SPEC-NOTES 1). */
function IngresoRedirect() {
  const { search } = useLocation();
  return <Navigate to={`/ingresar${search}`} replace />;
}

const staticPage = (path: string, page: string) => ({
  path,
  handle: { page },
  lazy: () => import('../static-pages/pages/static-page.tsx'),
});

/** The route table of both spec documents (§2). Pages load on demand, one chunk per screen. */
export const router = createBrowserRouter([
  {
    element: <Layout />,
    errorElement: <ErrorScreen />,
    children: [
      { index: true, lazy: () => import('../catalog/pages/home-page.tsx') },
      { path: 'todas_las_marcas', lazy: () => import('../catalog/pages/brands-page.tsx') },
      { path: 'marcas/:brandName', lazy: () => import('../catalog/pages/brand-page.tsx') },
      { path: 'grupos/:groupName', lazy: () => import('../catalog/pages/group-page.tsx') },
      { path: 'busqueda/:name', lazy: () => import('../catalog/pages/search-page.tsx') },
      { path: 'productos/:code', lazy: () => import('../catalog/pages/product-page.tsx') },
      { path: 'carrito', lazy: () => import('../cart/pages/cart-page.tsx') },
      staticPage('preguntas_frecuentes', 'faq'),
      staticPage('contacto', 'contact'),
      staticPage('nosotros', 'about'),
      staticPage('terminos_y_condiciones', 'terms'),
      staticPage('cookies_policy', 'cookies'),
      staticPage('politica_de_privacidad', 'privacy'),
      staticPage('politica_de_envios', 'shipping'),
      staticPage('facturacion', 'invoicing'),
      staticPage('politica_de_venta', 'sales'),
      staticPage('politica_de_devoluciones', 'returns'),
      staticPage('sucursales', 'branches'),
      { path: 'ingresar', handle: { bare: true }, lazy: () => import('../auth/pages/login-page.tsx') },
      { path: 'ingreso', element: <IngresoRedirect /> },
      { path: 'registro', handle: { bare: true }, lazy: () => import('../auth/pages/register-page.tsx') },
      { path: 'recuperar', handle: { bare: true }, lazy: () => import('../auth/pages/recover-page.tsx') },
      {
        path: 'codigo_recuperar',
        handle: { bare: true },
        lazy: () => import('../auth/pages/recover-code-page.tsx'),
      },
      { path: 'cuenta/*', lazy: () => import('../account/pages/account-page.tsx') },
      { path: 'envio', lazy: () => import('../checkout/pages/shipping-page.tsx') },
      { path: 'orden', lazy: () => import('../checkout/pages/order-page.tsx') },
      { path: 'resumen/:number', lazy: () => import('../checkout/pages/summary-page.tsx') },
      { path: 'historial', lazy: () => import('../orders/pages/history-page.tsx') },
      { path: 'factura/:order', lazy: () => import('../invoices/pages/invoice-page.tsx') },
      { path: 'admin/*', handle: { bare: true }, lazy: () => import('../admin/pages/admin-page.tsx') },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
