import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fileNamePart } from '../../shared/lots.ts';
import {
  certificateLookupQuerySchema,
  certificateLookupSchema,
  lotField,
} from '../../shared/schemas/documents.ts';
import { sendAttachment } from '../http/attachment.ts';
import { notFound } from '../http/errors.ts';
import {
  activeFamilyOf,
  findCertificate,
  getCertificateBytes,
  getSafetySheet,
  toPublicCertificate,
} from './documents.ts';

const PRODUCT_NOT_FOUND = 'Producto no encontrado';
const tags = ['catálogo'];
const codeParams = z.object({ code: z.string().min(1, PRODUCT_NOT_FOUND).max(64, PRODUCT_NOT_FOUND) });
const versionQuery = z.object({ v: z.string().max(64, 'Versión inválida').optional() });
const noCertificate = (lot: string) =>
  `No encontramos un certificado de análisis del lote «${lot}» para este producto. Revise el número en la etiqueta del frasco o escríbanos para solicitarlo.`;

/**
 * The family's safety data sheet and certificates of analysis, reached through any presentation's code
 * (decision 028). Downloads, not frames: a buyer files them.
 */
export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/products/:code/hds.pdf',
    {
      schema: {
        tags,
        summary: 'Hoja de datos de seguridad (HDS, NOM-018-STPS-2015) del producto, en PDF',
        params: codeParams,
        querystring: versionQuery,
      },
    },
    async (request, reply) => {
      const { code } = request.params;
      const family = await activeFamilyOf(app.db, code);
      if (!family) throw notFound(PRODUCT_NOT_FOUND);
      const sheet = await getSafetySheet(app.db, family);
      if (!sheet) throw notFound('Este producto no tiene hoja de datos de seguridad (HDS)');
      return sendAttachment(request, reply, sheet.data, {
        filename: `HDS-${code}.pdf`,
        type: 'application/pdf',
        cache: { hash: sheet.hash, immutable: request.query.v === sheet.hash },
      });
    },
  );

  app.get(
    '/api/products/:code/certificate',
    {
      schema: {
        tags,
        summary: 'Busca el certificado de análisis de un lote del producto (número de lote exacto)',
        params: codeParams,
        querystring: certificateLookupQuerySchema,
        response: { 200: certificateLookupSchema },
      },
    },
    async (request) => {
      const { code } = request.params;
      const family = await activeFamilyOf(app.db, code);
      if (!family) throw notFound(PRODUCT_NOT_FOUND);
      const found = await findCertificate(app.db, family, request.query.lot);
      if (!found) throw notFound(noCertificate(request.query.lot));
      return { certificate: toPublicCertificate(code, found) };
    },
  );

  app.get(
    '/api/products/:code/certificate.pdf',
    {
      schema: {
        tags,
        summary: 'Certificado de análisis de un lote, en PDF',
        params: codeParams,
        querystring: versionQuery.extend({ lot: lotField }),
      },
    },
    async (request, reply) => {
      const { code } = request.params;
      const family = await activeFamilyOf(app.db, code);
      if (!family) throw notFound(PRODUCT_NOT_FOUND);
      const certificate = await getCertificateBytes(app.db, family, request.query.lot);
      if (!certificate) throw notFound(noCertificate(request.query.lot));
      return sendAttachment(request, reply, certificate.data, {
        filename: `CoA-${code}-${fileNamePart(certificate.lot)}.pdf`,
        type: 'application/pdf',
        cache: { hash: certificate.hash, immutable: request.query.v === certificate.hash },
      });
    },
  );
};
