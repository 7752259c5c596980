import { shop } from '../../shared/shop.ts';
import type { Db } from '../db/client.ts';

/** What the server writes into index.html for one public route (crawlers get real metadata). */
export type PageMeta = {
  title: string;
  description: string;
  /** Absolute canonical URL. */
  canonical: string;
  image?: string;
  ogType?: 'website' | 'product';
  /** schema.org JSON-LD object, serialized safely into a script tag. */
  jsonLd?: Record<string, unknown>;
  /** 404 for unknown routes and unknown products/brands/groups. */
  status?: number;
};

/**
 * The metadata of a client route. The catalogue feature refines brand, group and product pages;
 * every other route gets the shop's identity.
 */
export async function resolvePageMeta(pathname: string, _db: Db, publicUrl: string): Promise<PageMeta> {
  return {
    title: shop.legalName,
    description: `${shop.tradeName}: ${shop.tagline}. Precios en MXN con IVA incluido.`,
    canonical: `${publicUrl}${pathname}`,
    ogType: 'website',
  };
}
