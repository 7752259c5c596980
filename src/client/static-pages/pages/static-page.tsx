import type { ComponentType } from 'react';
import { Link, useMatches } from 'react-router';
import { shop } from '@/shared/shop.ts';
import { Breadcrumb } from '../../ui/breadcrumb.tsx';
import { useDocumentTitle } from '../../ui/page-heading.tsx';
import { Prose } from '../../ui/prose.tsx';
import { About, Branches, Contact } from '../content/company.tsx';
import { Faq } from '../content/faq.tsx';
import { Invoicing, ShippingPolicy } from '../content/help.tsx';
import { Cookies, Terms } from '../content/legal.tsx';
import { Privacy } from '../content/privacy.tsx';
import { ReturnsPolicy, SalesPolicy } from '../content/sales.tsx';

export const staticTitles = {
  faq: 'Preguntas frecuentes',
  contact: 'Contacto',
  about: 'Nosotros',
  terms: 'Términos y condiciones',
  cookies: 'Política de cookies',
  privacy: 'Aviso de privacidad',
  shipping: 'Política de envíos',
  invoicing: 'Facturación',
  sales: 'Política de venta',
  returns: 'Política de devoluciones',
  branches: 'Sucursales',
} as const;

export type StaticPageKey = keyof typeof staticTitles;

const pages: Record<StaticPageKey, { path: string; content: ComponentType; intro?: string }> = {
  about: { path: '/nosotros', content: About },
  contact: { path: '/contacto', content: Contact },
  branches: { path: '/sucursales', content: Branches },
  faq: { path: '/preguntas_frecuentes', content: Faq },
  shipping: { path: '/politica_de_envios', content: ShippingPolicy },
  invoicing: { path: '/facturacion', content: Invoicing },
  sales: {
    path: '/politica_de_venta',
    content: SalesPolicy,
    intro: 'Condiciones generales de venta y garantía limitada',
  },
  returns: {
    path: '/politica_de_devoluciones',
    content: ReturnsPolicy,
    intro: 'Devoluciones, garantía y sus derechos como consumidor',
  },
  terms: {
    path: '/terminos_y_condiciones',
    content: Terms,
    intro: 'Términos de uso del sitio y de venta en línea',
  },
  privacy: { path: '/politica_de_privacidad', content: Privacy, intro: 'Aviso de privacidad integral' },
  cookies: { path: '/cookies_policy', content: Cookies, intro: 'Cookies y almacenamiento del navegador' },
};

const sections: { title: string; keys: StaticPageKey[] }[] = [
  { title: 'La empresa', keys: ['about', 'contact', 'branches'] },
  { title: 'Ayuda', keys: ['faq', 'shipping', 'invoicing'] },
  { title: 'Políticas', keys: ['sales', 'returns', 'terms', 'privacy', 'cookies'] },
];

/** The company's pages (routes carry handle.page): texts from config/shop.json, with a side index. */
export function Component() {
  const matches = useMatches();
  const key = (matches.at(-1)?.handle as { page?: StaticPageKey } | undefined)?.page ?? 'about';
  const page = pages[key];
  const title = staticTitles[key];
  const Content = page.content;
  useDocumentTitle(`${title} | ${shop.tradeName}`);

  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:py-8">
      <Breadcrumb items={[{ label: 'Inicio', to: '/' }, { label: title }]} />
      <div className="mt-4 lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-12 xl:gap-16">
        <article className="min-w-0 max-w-3xl lg:col-start-2 lg:row-start-1">
          <header className="border-b border-slate-200 pb-6">
            <h1 className="text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
            {page.intro && <p className="mt-2 text-lg text-slate-600">{page.intro}</p>}
          </header>
          <div className="mt-6">
            <Prose>
              <Content />
            </Prose>
          </div>
        </article>
        <nav aria-label="Información de la tienda" className="mt-12 lg:col-start-1 lg:row-start-1 lg:mt-0">
          <div className="rounded-lg border border-slate-200 bg-white p-5 lg:sticky lg:top-40">
            {sections.map((s) => (
              <div key={s.title} className="mt-5 first:mt-0">
                <h2 className="text-xs font-semibold uppercase tracking-wider text-slate-600">{s.title}</h2>
                <ul className="mt-2 space-y-0.5">
                  {s.keys.map((k) => (
                    <li key={k}>
                      <Link
                        to={pages[k].path}
                        aria-current={k === key ? 'page' : undefined}
                        className={`block rounded px-2 py-1.5 text-sm ${k === key ? 'bg-brand-50 font-semibold text-brand-800' : 'text-slate-700 hover:bg-slate-50 hover:text-brand-700'}`}
                      >
                        {staticTitles[k]}
                      </Link>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
        </nav>
      </div>
    </div>
  );
}
