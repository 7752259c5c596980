import type { ComponentType } from 'react';
import { Link, useMatches } from 'react-router';
import { Breadcrumb } from '@/client/ui/breadcrumb.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Prose } from '@/client/ui/prose.tsx';
import { shop } from '@/shared/shop.ts';
import { About, Branches, Contact } from '../content/company.tsx';
import { Faq } from '../content/faq.tsx';
import { Invoicing, ShippingPolicy } from '../content/help.tsx';
import { Cookies, Terms } from '../content/legal.tsx';
import { Privacy } from '../content/privacy.tsx';
import { ReturnsPolicy, SalesPolicy } from '../content/sales.tsx';
import { STATIC_PAGES, type StaticPageKey } from '../static-page-list.ts';

const contents: Record<StaticPageKey, ComponentType> = {
  about: About,
  contact: Contact,
  branches: Branches,
  faq: Faq,
  shipping: ShippingPolicy,
  invoicing: Invoicing,
  sales: SalesPolicy,
  returns: ReturnsPolicy,
  terms: Terms,
  privacy: Privacy,
  cookies: Cookies,
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
  const page = STATIC_PAGES[key];
  const title = page.title;
  const Content = contents[key];
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
                        to={STATIC_PAGES[k].path}
                        aria-current={k === key ? 'page' : undefined}
                        className={`block rounded px-2 py-1.5 text-sm ${k === key ? 'bg-brand-50 font-semibold text-brand-800' : 'text-slate-700 hover:bg-slate-50 hover:text-brand-700'}`}
                      >
                        {STATIC_PAGES[k].title}
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
