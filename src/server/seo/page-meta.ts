import type { RouteEntry } from '../../client/app/route-table.ts';
import type { PageFacts } from '../../client/lib/page-data.ts';
import { formatPriceDetail } from '../../shared/money.ts';
import { presentationName } from '../../shared/presentation-name.ts';
import type { ProductDetail } from '../../shared/schemas/catalog.ts';
import { shop } from '../../shared/shop.ts';

/** What the server writes into the document's head for one page (crawlers get real metadata). */
export type PageMeta = {
  title: string;
  description: string;
  /** Absolute canonical URL. */
  canonical: string;
  image?: string;
  ogType?: 'website' | 'product';
  /** Extra Open Graph properties, e.g. product:price:amount. */
  openGraph?: Record<string, string>;
  /** schema.org JSON-LD object, serialized safely into a script tag. */
  jsonLd?: Record<string, unknown>;
};

const suffix = ` | ${shop.tradeName}`;
const defaultDescription = `${shop.tradeName}: ${shop.tagline}. Precios en MXN con IVA incluido.`;

const clip = (s: string, max = 160) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
};

/**
 * A page's metadata from its route table entry and the facts its read gave (src/client/lib/page-data.ts):
 * products get '{code} | {brand}', price, picture and Product JSON-LD; brands and groups their names; searches
 * their term; fixed pages the table's title; unknown items and addresses their 'no encontrado' title.
 */
export function pageMeta(
  page: { entry: RouteEntry; status: number; facts: PageFacts },
  url: URL,
  publicUrl: string,
): PageMeta {
  const { entry, facts } = page;
  const canonical = `${publicUrl}${url.pathname}`;
  if (facts.product) return productMeta(facts.product, publicUrl);
  if (facts.searchTerm !== undefined) {
    const term = facts.searchTerm;
    return {
      title: clip(`Resultados de búsqueda por ${term.toUpperCase()}${suffix}`, 90),
      description: clip(
        `Equipo, material y reactivos de laboratorio que coinciden con «${term}». ${defaultDescription}`,
      ),
      canonical: `${publicUrl}/busqueda/${encodeURIComponent(term)}`,
      ogType: 'website',
    };
  }
  const title = facts.title ?? entry.title;
  let description = defaultDescription;
  if (page.status === 200 && facts.title && entry.id === 'brand')
    description = `Productos de laboratorio de la marca ${facts.title} en ${shop.tradeName}. Precios en MXN con IVA incluido.`;
  if (page.status === 200 && facts.title && entry.id === 'group')
    description = `${facts.title}: equipo, material y reactivos de laboratorio en ${shop.tradeName}. Precios en MXN con IVA incluido.`;
  return {
    title: title ? `${title}${suffix}` : shop.legalName,
    description: clip(description),
    canonical,
    ogType: 'website',
  };
}

function productMeta(p: ProductDetail, publicUrl: string): PageMeta {
  const canonical = `${publicUrl}/productos/${encodeURIComponent(p.code)}`;
  const price = (p.priceCents / 100).toFixed(2);
  // The same rendition the page's photo offers at 640 px, as an absolute URL.
  const image = p.imageUrl ? `${publicUrl}${p.imageUrl}&w=640` : undefined;
  const inStock = p.stock > 0;
  return {
    title: `${p.code} | ${p.brand ?? shop.tradeName}`,
    description: clip(
      `${p.name}${p.brand ? ` de ${p.brand}` : ''}. ${p.shortDesc} Precio ${formatPriceDetail(p.priceCents)} con IVA` +
        `${inStock ? '' : ' (sin inventario)'}.`,
    ),
    canonical,
    ogType: 'product',
    ...(image ? { image } : {}),
    openGraph: {
      'product:price:amount': price,
      'product:price:currency': 'MXN',
      'product:availability': inStock ? 'in stock' : 'out of stock',
      ...(p.brand ? { 'product:brand': p.brand } : {}),
    },
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: presentationName(p),
      sku: p.code,
      // A presentation of a family (decision 021): schema.org's product-group link, with the family's base code.
      ...(p.presentations.length > 1 ? { inProductGroupWithID: p.familyCode } : {}),
      // A reagent's CAS registry number, the identifier labs search by.
      ...(p.casNumber
        ? { identifier: { '@type': 'PropertyValue', propertyID: 'CAS', value: p.casNumber } }
        : {}),
      description: p.shortDesc,
      ...(image ? { image: [image] } : {}),
      ...(p.brand ? { brand: { '@type': 'Brand', name: p.brand } } : {}),
      ...(p.groupName ? { category: p.groupName } : {}),
      offers: {
        '@type': 'Offer',
        url: canonical,
        price,
        priceCurrency: 'MXN',
        availability: inStock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
        itemCondition: 'https://schema.org/NewCondition',
        seller: { '@type': 'Organization', name: shop.legalName },
      },
    },
  };
}
