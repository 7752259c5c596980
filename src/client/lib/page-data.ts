import type { QueryClient } from '@tanstack/react-query';
import type { Params } from 'react-router';
import type { CatalogReads } from '@/shared/catalog-reads.ts';
import type { ProductDetail } from '@/shared/schemas/catalog.ts';

/** What the server knows of a page once the read that decides its status is done (its metadata is made of it). */
export type PageFacts = {
  /** The page's own title ('Producto no encontrado', a brand's or group's name…). */
  title?: string;
  product?: ProductDetail;
  /** The search term of /busqueda/:q. */
  searchTerm?: string;
};

export type PageHead = {
  /** 404 for an unknown product, brand or group (the page itself says so). */
  status?: 404;
  /** The one address of this page (a brand written in other case → its name as stored). */
  redirect?: string;
  /** The redirect is temporary (302: past a listing's last page); otherwise it is the page's one address (301). */
  temporary?: true;
  facts?: PageFacts;
  /** The rest of the page's data, still arriving: the server renders once it is in `client`. */
  rest?: Promise<unknown>;
};

export type PageRequest = {
  params: Params;
  search: URLSearchParams;
  /** Where the page's queries are kept, under the keys the browser's hooks use. */
  client: QueryClient;
  reads: CatalogReads;
  /** The request's cookies (the cart page reads the cart's mirror, src/shared/cart-cookie.ts). */
  cookies: Readonly<Record<string, string | undefined>>;
};

/**
 * A server-rendered page's reads, exported by its module next to its Component (src/client/app/route-table.ts).
 * It resolves as soon as the status and the metadata are known, so the server can send the document's head
 * while the rest (`rest`) is still being read; the HTML is rendered when everything is in `client`.
 */
export type Prefetch = (request: PageRequest) => Promise<PageHead>;

/**
 * Marks a read the page returns in `rest` and does not await itself: the server awaits it before rendering and
 * answers its failure there, so it must not count as an unhandled rejection while the head is being decided.
 */
export function later<T>(read: Promise<T>): Promise<T> {
  read.catch(() => {});
  return read;
}
