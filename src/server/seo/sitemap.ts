import { asc, count, eq } from 'drizzle-orm';
import { ROUTES } from '../../client/app/route-table.ts';
import { escapeMarkup } from '../../shared/escape.ts';
import type { Db } from '../db/client.ts';
import { brands, groups, products } from '../db/schema.ts';

/** Search engines take at most 50,000 URLs per sitemap; we stay below with room to spare. */
export const SITEMAP_LIMIT = 45_000;

type Entry = { loc: string; lastmod?: Date | undefined };

function urlset(entries: Entry[]): string {
  const urls = entries.map(
    (e) =>
      `<url><loc>${escapeMarkup(e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod.toISOString().slice(0, 10)}</lastmod>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

function sitemapIndex(locs: string[]): string {
  const items = locs.map((loc) => `<sitemap><loc>${escapeMarkup(loc)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join('\n')}\n</sitemapindex>\n`;
}

/** The route table's pages listed as they are (home, brands, the company's pages). */
const staticPaths = ROUTES.filter((r) => r.sitemap).map((r) => `/${r.path}`);

/** Home, static pages, brands with active products, and every group. */
async function pageEntries(db: Db, publicUrl: string): Promise<Entry[]> {
  const brandRows = await db
    .selectDistinct({ name: brands.name })
    .from(brands)
    .innerJoin(products, eq(products.brand, brands.name))
    .where(eq(products.active, true))
    .orderBy(asc(brands.name));
  const groupRows = await db.select({ clas: groups.clas }).from(groups).orderBy(asc(groups.clas));
  return [
    ...staticPaths.map((p) => ({ loc: `${publicUrl}${p}` })),
    ...brandRows.map((b) => ({ loc: `${publicUrl}/marcas/${encodeURIComponent(b.name)}` })),
    ...groupRows.map((g) => ({ loc: `${publicUrl}/grupos/${encodeURIComponent(g.clas)}` })),
  ];
}

async function productEntries(db: Db, publicUrl: string, offset: number, limit: number): Promise<Entry[]> {
  const rows = await db
    .select({ code: products.code, updatedAt: products.updatedAt })
    .from(products)
    .where(eq(products.active, true))
    .orderBy(asc(products.code))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({
    loc: `${publicUrl}/productos/${encodeURIComponent(r.code)}`,
    lastmod: r.updatedAt,
  }));
}

/**
 * /sitemap.xml: one urlset while everything fits in `limit` URLs; above that a sitemap index of
 * /sitemaps/pages.xml and /sitemaps/products-N.xml (N from 1), each within the limit.
 */
export async function renderSitemap(db: Db, publicUrl: string, limit = SITEMAP_LIMIT): Promise<string> {
  const pages = await pageEntries(db, publicUrl);
  const [n] = await db.select({ n: count() }).from(products).where(eq(products.active, true));
  const productCount = Number(n?.n ?? 0);
  if (pages.length + productCount <= limit) {
    return urlset([...pages, ...(await productEntries(db, publicUrl, 0, productCount))]);
  }
  const chunks = Math.ceil(productCount / limit);
  return sitemapIndex([
    `${publicUrl}/sitemaps/pages.xml`,
    ...Array.from({ length: chunks }, (_, i) => `${publicUrl}/sitemaps/products-${i + 1}.xml`),
  ]);
}

/** One sub-sitemap of the index, or null when it does not exist. */
export async function renderSubSitemap(
  db: Db,
  publicUrl: string,
  name: string,
  limit = SITEMAP_LIMIT,
): Promise<string | null> {
  if (name === 'pages') return urlset(await pageEntries(db, publicUrl));
  const m = /^products-([1-9]\d{0,5})$/.exec(name);
  if (!m) return null;
  const entries = await productEntries(db, publicUrl, (Number(m[1]) - 1) * limit, limit);
  return entries.length ? urlset(entries) : null;
}

/** robots.txt: everything public may be crawled; the API and the shopper's private pages may not. */
export function renderRobots(publicUrl: string): string {
  const privatePaths = ROUTES.filter((r) => r.private).map((r) => `/${r.path.split('/')[0]}`);
  const disallow = ['/api/', ...new Set(privatePaths)];
  return `User-agent: *\nAllow: /\n${disallow.map((p) => `Disallow: ${p}`).join('\n')}\n\nSitemap: ${publicUrl}/sitemap.xml\n`;
}
