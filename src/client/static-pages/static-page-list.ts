/**
 * The company's eleven pages (spec §2): address, title and introduction. Data only, read by the route table
 * (src/client/app/route-table.ts) and by the page that shows them (pages/static-page.tsx).
 */
type StaticPage = { path: string; title: string; intro?: string };

const pages = {
  faq: { path: '/preguntas_frecuentes', title: 'Preguntas frecuentes' },
  contact: { path: '/contacto', title: 'Contacto' },
  about: { path: '/nosotros', title: 'Nosotros' },
  terms: {
    path: '/terminos_y_condiciones',
    title: 'Términos y condiciones',
    intro: 'Términos de uso del sitio y de venta en línea',
  },
  cookies: {
    path: '/cookies_policy',
    title: 'Política de cookies',
    intro: 'Cookies y almacenamiento del navegador',
  },
  privacy: {
    path: '/politica_de_privacidad',
    title: 'Aviso de privacidad',
    intro: 'Aviso de privacidad integral',
  },
  shipping: { path: '/politica_de_envios', title: 'Política de envíos' },
  invoicing: { path: '/facturacion', title: 'Facturación' },
  sales: {
    path: '/politica_de_venta',
    title: 'Política de venta',
    intro: 'Condiciones generales de venta y garantía limitada',
  },
  returns: {
    path: '/politica_de_devoluciones',
    title: 'Política de devoluciones',
    intro: 'Devoluciones, garantía y sus derechos como consumidor',
  },
  branches: { path: '/sucursales', title: 'Sucursales' },
} satisfies Record<string, StaticPage>;

export type StaticPageKey = keyof typeof pages;
export const STATIC_PAGES: Record<StaticPageKey, StaticPage> = pages;
