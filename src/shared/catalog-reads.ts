import type { CartQuote } from './schemas/cart.ts';
import type { Brand, GroupTree, ProductDetail, ProductsResponse } from './schemas/catalog.ts';

/**
 * The catalogue reads a server-rendered page needs, answered exactly as the JSON API answers them. The
 * browser's pages read them over HTTP (src/client/catalog/api/); the server renders the same pages with
 * an implementation that calls the catalogue's services in-process (src/server/spa/catalog-reads.ts), so
 * the HTML and the API can never disagree and the server never calls itself over HTTP.
 */
export type CatalogReads = {
  /** GET /api/products/:code — null where the API answers 404. */
  product(code: string): Promise<ProductDetail | null>;
  /** GET /api/products?{query} — null where the API answers 400 (the browser then asks and shows why). */
  products(query: URLSearchParams): Promise<ProductsResponse | null>;
  /** GET /api/brands */
  brands(): Promise<Brand[]>;
  /** GET /api/groups */
  groups(): Promise<GroupTree[]>;
  /** POST /api/cart/quote — prices, stock and totals of the lines, from the database. */
  cartQuote(items: readonly { code: string; quantity: number }[]): Promise<CartQuote>;
};
