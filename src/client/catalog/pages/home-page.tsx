import { Link, useSearchParams } from 'react-router';
import type { Prefetch } from '@/client/lib/page-data.ts';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { shop } from '@/shared/shop.ts';
import { prefetchBrands, useBrands } from '../api/get-brands.ts';
import { prefetchGroups, useGroups } from '../api/get-groups.ts';
import { BrandTile } from '../components/brand-tile.tsx';
import { PaymentFailed } from '../components/payment-failed.tsx';

/** Nothing decides the home page's status: its head goes out at once while the brands and groups are read. */
export const prefetch: Prefetch = async ({ client, reads }) => ({
  rest: Promise.all([prefetchBrands(client, reads), prefetchGroups(client, reads)]),
});

/** Home: hero, the five featured brands, the categories. /?payment_failed=1 shows 'Error de pago'. */
export function Component() {
  const [search] = useSearchParams();
  if (search.get('payment_failed') === '1') return <PaymentFailed />;
  return <Home />;
}

const promises = [
  { title: 'Envío a todo México', text: 'Paquetería con guía de rastreo desde Guadalajara.' },
  { title: 'Precios con IVA incluido', text: 'El precio que ve es el que paga, sin sorpresas.' },
  { title: 'Factura CFDI 4.0', text: 'Solicítela en línea desde su historial de pedidos.' },
  { title: 'Asesoría técnica', text: 'Le ayudamos a elegir el equipo adecuado.' },
];

function Home() {
  useDocumentTitle(shop.legalName);
  return (
    <>
      <section className="relative overflow-hidden bg-gradient-to-br from-brand-900 via-brand-800 to-brand-600 text-white">
        <HeroArt />
        <div className="relative mx-auto max-w-7xl px-4 py-16 sm:py-24">
          <p className="text-sm font-semibold uppercase tracking-widest text-brand-100">{shop.tradeName}</p>
          <h1 className="mt-3 max-w-2xl text-4xl font-bold tracking-tight sm:text-5xl">
            Enfocados en la excelencia
          </h1>
          <p className="mt-4 max-w-xl text-lg text-brand-50 sm:text-xl">
            Todos nuestros productos son de la mejor calidad
          </p>
          <Link
            to="/todas_las_marcas"
            className="mt-8 inline-block rounded-md bg-white px-6 py-3 font-semibold text-brand-800 shadow-lg transition hover:bg-brand-50"
          >
            Nuestros productos
          </Link>
        </div>
      </section>

      <section aria-label="Por qué comprar con nosotros" className="border-b border-slate-200 bg-white">
        {/* On a phone the first screen ends here: the text keeps clear of the WhatsApp button. */}
        <ul className="mx-auto grid max-w-7xl grid-cols-1 gap-4 py-6 pr-20 pl-4 sm:grid-cols-2 sm:px-4 lg:grid-cols-4">
          {promises.map((p) => (
            <li key={p.title} className="flex gap-3">
              <span aria-hidden="true" className="mt-1.5 size-2 shrink-0 rounded-full bg-accent-500" />
              <span>
                <span className="block font-semibold text-slate-900">{p.title}</span>
                <span className="block text-sm text-slate-600">{p.text}</span>
              </span>
            </li>
          ))}
        </ul>
      </section>

      <FeaturedBrands />
      <Categories />
    </>
  );
}

function FeaturedBrands() {
  const { data } = useBrands();
  const featured = (data ?? []).filter((b) => b.featured).slice(0, 5);
  return (
    <section aria-labelledby="nuestras-marcas" className="mx-auto max-w-7xl px-4 pt-14">
      <h2
        id="nuestras-marcas"
        className="text-center text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl"
      >
        Nuestras marcas
      </h2>
      <ul className="mt-8 flex flex-wrap justify-center gap-3 sm:gap-5">
        {featured.map((b) => (
          <BrandTile
            key={b.name}
            brand={b}
            showCount={false}
            className="w-[calc(50%-0.375rem)] sm:w-[calc((100%-2.5rem)/3)] lg:w-auto lg:flex-1"
          />
        ))}
      </ul>
      <div className="mt-8 flex justify-center">
        <p className="flex items-center gap-4 rounded-full border border-slate-200 bg-white py-1.5 pl-5 pr-1.5 text-sm text-slate-700 shadow-sm">
          Vea nuestras marcas
          <Link
            to="/todas_las_marcas"
            className="rounded-full bg-brand-700 px-4 py-1.5 font-medium text-white hover:bg-brand-800"
          >
            Ver
          </Link>
        </p>
      </div>
    </section>
  );
}

function Categories() {
  const { data: groups = [] } = useGroups();
  if (groups.length === 0) return null;
  return (
    <section aria-labelledby="categorias" className="mx-auto max-w-7xl px-4 pt-16">
      <h2
        id="categorias"
        className="text-center text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl"
      >
        Categorías
      </h2>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {groups.map((g) => (
          <li key={g.clas}>
            <Link
              to={`/grupos/${encodeURIComponent(g.clas)}`}
              className="group flex h-full flex-col rounded-lg border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-300 hover:shadow-md"
            >
              <span className="text-lg font-semibold text-slate-900 group-hover:text-brand-700">
                {g.name}
              </span>
              <span className="mt-1 line-clamp-2 text-sm text-slate-600">
                {g.subgroups.map((s) => s.name).join(' · ')}
              </span>
              <span className="mt-3 text-sm font-medium text-brand-700">Ver productos →</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Decorative glassware outlines on the right of the hero. */
function HeroArt() {
  return (
    <svg
      viewBox="0 0 400 300"
      className="pointer-events-none absolute -right-16 top-1/2 hidden h-[130%] -translate-y-1/2 text-white/10 md:block"
      fill="none"
      stroke="currentColor"
      strokeWidth="6"
      aria-hidden="true"
    >
      <path d="M150 40h50M160 40v70l-55 110c-6 12 3 25 16 25h108c13 0 22-13 16-25l-55-110V40" />
      <path d="M118 190h114" />
      <path d="M270 110h70M280 110v140c0 10 8 18 18 18h14c10 0 18-8 18-18V110" />
      <path d="M280 170h50" />
      <circle cx="80" cy="90" r="22" />
      <circle cx="60" cy="150" r="12" />
    </svg>
  );
}
