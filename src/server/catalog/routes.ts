import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  brandsResponseSchema,
  groupsResponseSchema,
  productDetailSchema,
  productStockSchema,
  productsQuerySchema,
  productsResponseSchema,
  suggestQuerySchema,
  suggestResponseSchema,
} from '../../shared/schemas/catalog.ts';
import { cacheHeaders, notModified, sendAttachment } from '../http/attachment.ts';
import { notFound } from '../http/errors.ts';
import { hasPdfHeader, negotiateFormat, renderImage, snapWidth, sniffImageType } from './media.ts';
import {
  getBrandLogo,
  getDatasheetBytes,
  getImageBytes,
  getMediaHashes,
  getProduct,
  getStock,
  listBrands,
  listGroupTree,
  listProducts,
} from './service.ts';
import { suggest } from './suggest.ts';

const PRODUCT_NOT_FOUND = 'Producto no encontrado';
const codeParams = z.object({ code: z.string().min(1, PRODUCT_NOT_FOUND).max(64, PRODUCT_NOT_FOUND) });
const versionQuery = z.object({ v: z.string().max(64, 'Versión inválida').optional() });

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/groups',
    {
      schema: {
        tags: ['catálogo'],
        summary: 'Árbol de grupos del menú',
        response: { 200: groupsResponseSchema },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=300');
      return { groups: await listGroupTree(app.db) };
    },
  );

  app.get(
    '/api/brands',
    {
      schema: {
        tags: ['catálogo'],
        summary: 'Marcas con su logotipo y número de productos activos',
        response: { 200: brandsResponseSchema },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=300');
      return { brands: await listBrands(app.db) };
    },
  );

  app.get(
    '/api/brands/:name/logo',
    {
      schema: {
        tags: ['catálogo'],
        summary: 'Logotipo de una marca (los bytes guardados; tipo detectado del contenido)',
        params: z.object({ name: z.string().min(1).max(200) }),
        querystring: versionQuery,
      },
    },
    async (request, reply) => {
      const logo = await getBrandLogo(app.db, request.params.name);
      const type = logo ? sniffImageType(logo.data) : null;
      if (!logo || !type) throw notFound('Logotipo no encontrado');
      const etag = `"${logo.hash}"`;
      cacheHeaders(reply, etag, request.query.v === logo.hash && logo.hash !== '');
      // An SVG opened on its own must not run script in the shop's origin.
      reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      if (notModified(request, etag)) return reply.code(304).send();
      return reply.type(type).send(logo.data);
    },
  );

  app.get(
    '/api/products',
    {
      schema: {
        tags: ['catálogo'],
        summary: 'Lista de productos con filtros, búsqueda, orden, páginas y conteos por faceta',
        description:
          'brand, group, line y type pueden repetirse: O dentro de una faceta, Y entre facetas. ' +
          'group acepta un grupo principal (incluye sus subgrupos). Con q y sin sort explícito, el orden es por relevancia.',
        querystring: productsQuerySchema,
        response: { 200: productsResponseSchema },
      },
    },
    async (request) => {
      const explicitSort = new URL(request.url, 'http://x').searchParams.has('sort');
      return listProducts(app.db, request.query, { explicitSort });
    },
  );

  app.get(
    '/api/search/suggest',
    {
      schema: {
        tags: ['catálogo'],
        summary: 'Sugerencias mientras se escribe: productos, marcas y categorías (desde 2 caracteres)',
        querystring: suggestQuerySchema,
        response: { 200: suggestResponseSchema },
      },
    },
    async (request, reply) => {
      // Prices and the catalogue change: a browser may reuse an answer for a short while only.
      reply.header('Cache-Control', 'private, max-age=30');
      return suggest(app.db, request.query.q);
    },
  );

  app.get(
    '/api/products/:code',
    {
      schema: {
        tags: ['catálogo'],
        summary: 'Detalle de un producto',
        params: codeParams,
        response: { 200: productDetailSchema },
      },
    },
    async (request) => {
      const product = await getProduct(app.db, request.params.code);
      if (!product) throw notFound(PRODUCT_NOT_FOUND);
      return product;
    },
  );

  app.get(
    '/api/products/:code/stock',
    {
      schema: {
        tags: ['catálogo'],
        summary: 'Existencia actual de un producto',
        params: codeParams,
        response: { 200: productStockSchema },
      },
    },
    async (request, reply) => {
      const found = await getStock(app.db, request.params.code);
      if (found === null) throw notFound(PRODUCT_NOT_FOUND);
      reply.header('Cache-Control', 'no-store');
      return { code: request.params.code, ...found };
    },
  );

  app.get(
    '/api/products/:code/image',
    {
      schema: {
        tags: ['catálogo'],
        summary:
          'Imagen del producto (160, 320 o 640 px de ancho; WebP si el navegador lo acepta, si no JPEG)',
        params: codeParams,
        querystring: versionQuery.extend({
          w: z.coerce
            .number({ error: 'Ancho inválido' })
            .int('Ancho inválido')
            .min(1, 'Ancho inválido')
            .max(4000, 'Ancho inválido')
            .optional(),
        }),
      },
    },
    async (request, reply) => {
      const { code } = request.params;
      const hashes = await getMediaHashes(app.db, code);
      if (!hashes) throw notFound(PRODUCT_NOT_FOUND);
      if (!hashes.imageHash) throw notFound('Imagen no encontrada');
      const width = snapWidth(request.query.w);
      const format = negotiateFormat(request.headers.accept);
      const etag = `"${hashes.imageHash}-${width}-${format}"`;
      reply.header('Vary', 'Accept');
      cacheHeaders(reply, etag, request.query.v === hashes.imageHash);
      if (notModified(request, etag)) return reply.code(304).send();
      const image = await renderImage(hashes.imageHash, () => getImageBytes(app.db, code), width, format);
      if (!image) throw notFound('Imagen no encontrada');
      return reply.type(format === 'webp' ? 'image/webp' : 'image/jpeg').send(image);
    },
  );

  app.get(
    '/api/products/:code/datasheet.pdf',
    {
      schema: {
        tags: ['catálogo'],
        summary: 'Ficha técnica en PDF (se muestra dentro de la página del producto)',
        params: codeParams,
        querystring: versionQuery,
      },
    },
    async (request, reply) => {
      const { code } = request.params;
      const sheet = await getDatasheetBytes(app.db, code);
      if (!sheet) {
        if ((await getStock(app.db, code)) === null) throw notFound(PRODUCT_NOT_FOUND);
        throw notFound('Ficha técnica no encontrada');
      }
      // The shop embeds this PDF in an iframe of its own pages: only here is same-origin framing allowed.
      // Uploads are checked as PDFs (decision 053); bytes stored before that which do not even open as one are
      // handed out as a sandboxed download, never shown inline.
      const inline = hasPdfHeader(sheet.data);
      if (inline)
        reply
          .header('Content-Security-Policy', "frame-ancestors 'self'")
          .header('X-Frame-Options', 'SAMEORIGIN');
      return sendAttachment(request, reply, sheet.data, {
        filename: `${code}.pdf`,
        type: 'application/pdf',
        disposition: inline ? 'inline' : 'attachment',
        cache: { hash: sheet.hash, immutable: request.query.v === sheet.hash && sheet.hash !== '' },
      });
    },
  );
};
