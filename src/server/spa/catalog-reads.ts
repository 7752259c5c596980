import type { CatalogReads } from '../../shared/catalog-reads.ts';
import { cartQuoteSchema } from '../../shared/schemas/cart.ts';
import {
  brandsResponseSchema,
  type GroupTree,
  groupsResponseSchema,
  productDetailSchema,
  productsQuerySchema,
  productsResponseSchema,
} from '../../shared/schemas/catalog.ts';
import { quoteCart } from '../cart/quote.ts';
import { catalogueVersion } from '../catalog/selection-cache.ts';
import { getProduct, listBrands, listGroupTree, listProducts } from '../catalog/service.ts';
import type { Db } from '../db/client.ts';

/** The longest code GET /api/products/:code accepts (longer answers 404 'Producto no encontrado'). */
const MAX_CODE = 64;

/** A query string as Fastify hands it to the route's schema: a repeated key becomes an array. */
function queryObject(search: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    out[key] = values.length === 1 ? values[0]! : values;
  }
  return out;
}

/**
 * The catalogue reads of server-rendered pages, answered in-process by the same services, validation and
 * response schemas as the JSON API (src/server/catalog/routes.ts), so the HTML shows what the API would answer
 * at that moment — prices and stock included, never cached here. The menu's group tree, which every page
 * carries, is kept per catalogue version (a change to the groups bumps it, migration 0007; decision 037): a page
 * reads the version (one row, shared by concurrent requests) instead of the whole table.
 */
export function catalogReads(db: Db): CatalogReads {
  let menu: { version: string; groups: Promise<GroupTree[]> } | null = null;
  return {
    async product(code) {
      if (code.length < 1 || code.length > MAX_CODE) return null;
      const product = await getProduct(db, code);
      return product ? productDetailSchema.parse(product) : null;
    },
    async products(search) {
      const query = productsQuerySchema.safeParse(queryObject(search));
      if (!query.success) return null;
      const list = await listProducts(db, query.data, { explicitSort: search.has('sort') });
      return productsResponseSchema.parse(list);
    },
    async brands() {
      return brandsResponseSchema.parse({ brands: await listBrands(db) }).brands;
    },
    async groups() {
      const version = await catalogueVersion(db);
      if (menu?.version !== version) {
        const groups = listGroupTree(db).then((tree) => groupsResponseSchema.parse({ groups: tree }).groups);
        const kept = { version, groups };
        menu = kept;
        // A failed read is not kept.
        groups.catch(() => {
          if (menu === kept) menu = null;
        });
      }
      return menu.groups;
    },
    async cartQuote(items) {
      return cartQuoteSchema.parse(await quoteCart(db, items));
    },
  };
}
