import { and, count, eq, inArray, or } from 'drizzle-orm';
import { formatPriceDetail } from '../../shared/money.ts';
import { shop } from '../../shared/shop.ts';
import type { Db } from '../db/client.ts';
import { brands, groups, products } from '../db/schema.ts';

/** What the server writes into index.html for one public route (crawlers get real metadata). */
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
  /** 404 for unknown routes and unknown products/brands/groups. */
  status?: number;
};

const suffix = ` | ${shop.tradeName}`;
const defaultDescription = `${shop.tradeName}: ${shop.tagline}. Precios en MXN con IVA incluido.`;

/** Static and account pages of the route table, with their titles. */
const fixedPages: Record<string, string> = {
  '/': shop.legalName,
  '/todas_las_marcas': `Todas las marcas${suffix}`,
  '/preguntas_frecuentes': `Preguntas frecuentes${suffix}`,
  '/contacto': `Contacto${suffix}`,
  '/nosotros': `Nosotros${suffix}`,
  '/terminos_y_condiciones': `Términos y condiciones${suffix}`,
  '/cookies_policy': `Política de cookies${suffix}`,
  '/politica_de_privacidad': `Aviso de privacidad${suffix}`,
  '/politica_de_envios': `Política de envíos${suffix}`,
  '/facturacion': `Facturación${suffix}`,
  '/politica_de_venta': `Política de venta${suffix}`,
  '/politica_de_devoluciones': `Política de devoluciones${suffix}`,
  '/sucursales': `Sucursales${suffix}`,
  '/carrito': `Carrito${suffix}`,
  '/ingresar': `Ingresar${suffix}`,
  '/ingreso': `Ingresar${suffix}`,
  '/registro': `Crear cuenta${suffix}`,
  '/recuperar': `Recuperar contraseña${suffix}`,
  '/codigo_recuperar': `Recuperar contraseña${suffix}`,
  '/envio': `Envío${suffix}`,
  '/orden': `Orden${suffix}`,
  '/historial': `Historial de pedidos${suffix}`,
};
/** Client routes with a parameter that the catalogue does not resolve (account, orders, invoices). */
const otherRoutes = [/^\/cuenta(\/.*)?$/, /^\/resumen\/[^/]+$/, /^\/factura\/[^/]+$/];

const clip = (s: string, max = 160) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
};

/** The one parameter of /prefix/:param, decoded; null when the path is not of that form or is malformed. */
function param(pathname: string, prefix: string): string | null {
  if (!pathname.startsWith(prefix)) return null;
  const rest = pathname.slice(prefix.length).replace(/\/$/, '');
  if (rest === '' || rest.includes('/')) return null;
  try {
    return decodeURIComponent(rest);
  } catch {
    return null;
  }
}

const notFoundMeta = (what: string, canonical: string): PageMeta => ({
  title: `${what} no encontrado${suffix}`,
  description: defaultDescription,
  canonical,
  ogType: 'website',
  status: 404,
});

/**
 * The metadata of a client route: products (title '{code} | {brand}', price, picture, Product JSON-LD),
 * brands and groups with their names, search results; unknown catalogue items and unknown routes get 404
 * (the client still renders its 'no encontrado' page).
 */
export async function resolvePageMeta(pathname: string, db: Db, publicUrl: string): Promise<PageMeta> {
  const canonical = `${publicUrl}${pathname}`;
  const code = param(pathname, '/productos/');
  if (code !== null) return productMeta(db, publicUrl, code);
  const brand = param(pathname, '/marcas/');
  if (brand !== null) return brandMeta(db, publicUrl, brand);
  const group = param(pathname, '/grupos/');
  if (group !== null) return groupMeta(db, publicUrl, group);
  const term = param(pathname, '/busqueda/');
  if (term !== null) {
    return {
      title: clip(`Resultados de búsqueda por ${term.toUpperCase()}${suffix}`, 90),
      description: clip(
        `Equipo, material y reactivos de laboratorio que coinciden con «${term}». ${defaultDescription}`,
      ),
      canonical: `${publicUrl}/busqueda/${encodeURIComponent(term)}`,
      ogType: 'website',
    };
  }
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  const title = fixedPages[path];
  if (title || otherRoutes.some((r) => r.test(path))) {
    return { title: title ?? shop.legalName, description: defaultDescription, canonical, ogType: 'website' };
  }
  return {
    title: `Página no encontrada${suffix}`,
    description: defaultDescription,
    canonical,
    ogType: 'website',
    status: 404,
  };
}

async function productMeta(db: Db, publicUrl: string, code: string): Promise<PageMeta> {
  const canonical = `${publicUrl}/productos/${encodeURIComponent(code)}`;
  if (code.length > 64) return notFoundMeta('Producto', canonical);
  const [p] = await db
    .select({
      code: products.code,
      name: products.name,
      brand: products.brand,
      priceCents: products.priceCents,
      stock: products.stock,
      shortDesc: products.shortDesc,
      imageHash: products.imageHash,
      groupName: groups.name,
    })
    .from(products)
    .leftJoin(groups, eq(groups.clas, products.groupClas))
    .where(and(eq(products.code, code), eq(products.active, true)))
    .limit(1);
  if (!p) return notFoundMeta('Producto', canonical);
  const price = (p.priceCents / 100).toFixed(2);
  const image = p.imageHash
    ? `${publicUrl}/api/products/${encodeURIComponent(p.code)}/image?v=${p.imageHash}&w=640`
    : undefined;
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
      name: p.name,
      sku: p.code,
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

async function brandMeta(db: Db, publicUrl: string, name: string): Promise<PageMeta> {
  const canonical = `${publicUrl}/marcas/${encodeURIComponent(name)}`;
  if (name.length > 200) return notFoundMeta('Marca', canonical);
  const [b] = await db.select({ name: brands.name }).from(brands).where(eq(brands.name, name)).limit(1);
  if (!b) return { ...notFoundMeta('Marca', canonical), title: `Marca no encontrada${suffix}` };
  const [n] = await db
    .select({ n: count() })
    .from(products)
    .where(and(eq(products.brand, b.name), eq(products.active, true)));
  return {
    title: `${b.name}${suffix}`,
    description: clip(
      `Productos de laboratorio de la marca ${b.name} (${Number(n?.n ?? 0)} artículos) en ${shop.tradeName}. ` +
        'Precios en MXN con IVA incluido.',
    ),
    canonical,
    ogType: 'website',
  };
}

async function groupMeta(db: Db, publicUrl: string, clas: string): Promise<PageMeta> {
  const canonical = `${publicUrl}/grupos/${encodeURIComponent(clas)}`;
  if (clas.length > 200) return notFoundMeta('Grupo', canonical);
  const [g] = await db.select({ name: groups.name }).from(groups).where(eq(groups.clas, clas)).limit(1);
  if (!g) return notFoundMeta('Grupo', canonical);
  const [n] = await db
    .select({ n: count() })
    .from(products)
    .where(
      and(
        eq(products.active, true),
        inArray(
          products.groupClas,
          db
            .select({ clas: groups.clas })
            .from(groups)
            .where(or(eq(groups.clas, clas), eq(groups.parentClas, clas))),
        ),
      ),
    );
  return {
    title: `${g.name}${suffix}`,
    description: clip(
      `${g.name}: ${Number(n?.n ?? 0)} productos de laboratorio en ${shop.tradeName}. Precios en MXN con IVA incluido.`,
    ),
    canonical,
    ogType: 'website',
  };
}
