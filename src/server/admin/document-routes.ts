import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { productCodeParamsSchema } from '../../shared/schemas/admin.ts';
import {
  certificateIdParamsSchema,
  productDocumentsResponseSchema,
  productDocumentsSchema,
  uploadCertificateSchema,
  uploadSafetySheetSchema,
} from '../../shared/schemas/documents-admin.ts';
import { staffActor } from './context.ts';
import {
  addCertificate,
  productDocuments,
  removeCertificate,
  removeSafetySheet,
  setSafetySheet,
} from './documents-service.ts';

const tags = ['administración'];
const MB = 1024 * 1024;
const shared = (family: string, code: string) =>
  family === code ? '' : ` (compartida por la familia ${family})`;

/** The HDS and certificates of analysis of a product's family, from the product editor (decision 028). */
export const documentAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/products/:code/documents',
    {
      config: { permission: 'catalogo.ver' },
      schema: {
        tags,
        summary: 'HDS y certificados de análisis de la familia del producto',
        params: productCodeParamsSchema,
        response: { 200: productDocumentsSchema },
      },
    },
    async (request) => productDocuments(app.db, request.params.code),
  );

  app.put(
    '/api/admin/products/:code/hds',
    {
      config: { permission: 'catalogo.editar' },
      bodyLimit: 15 * MB,
      schema: {
        tags,
        summary:
          'Hoja de datos de seguridad (HDS): PDF hasta 10 MB, en base64; la comparten las presentaciones',
        params: productCodeParamsSchema,
        body: uploadSafetySheetSchema,
        response: { 200: productDocumentsResponseSchema },
      },
    },
    async (request) => {
      const { code } = request.params;
      const data = Buffer.from(request.body.contentBase64, 'base64');
      const family = await setSafetySheet(app.db, await staffActor(request), code, data);
      return {
        message: `Hoja de datos de seguridad guardada${shared(family, code)}`,
        documents: await productDocuments(app.db, code),
      };
    },
  );

  app.delete(
    '/api/admin/products/:code/hds',
    {
      config: { permission: 'catalogo.editar' },
      schema: {
        tags,
        summary: 'Quita la hoja de datos de seguridad de la familia',
        params: productCodeParamsSchema,
        response: { 200: productDocumentsResponseSchema },
      },
    },
    async (request) => {
      const { code } = request.params;
      const family = await removeSafetySheet(app.db, await staffActor(request), code);
      return {
        message: `Hoja de datos de seguridad eliminada${shared(family, code)}`,
        documents: await productDocuments(app.db, code),
      };
    },
  );

  app.post(
    '/api/admin/products/:code/certificates',
    {
      config: { permission: 'catalogo.editar' },
      bodyLimit: 15 * MB,
      schema: {
        tags,
        summary: 'Sube el certificado de análisis de un lote (PDF hasta 10 MB, en base64)',
        params: productCodeParamsSchema,
        body: uploadCertificateSchema,
        response: { 201: productDocumentsResponseSchema },
      },
    },
    async (request, reply) => {
      const { code } = request.params;
      const { contentBase64, lot, analysisDate, expiryDate } = request.body;
      await addCertificate(app.db, await staffActor(request), code, {
        lot,
        analysisDate: analysisDate ?? null,
        expiryDate: expiryDate ?? null,
        data: Buffer.from(contentBase64, 'base64'),
      });
      return reply.code(201).send({
        message: `Certificado del lote ${lot} guardado`,
        documents: await productDocuments(app.db, code),
      });
    },
  );

  app.delete(
    '/api/admin/products/:code/certificates/:id',
    {
      config: { permission: 'catalogo.editar' },
      schema: {
        tags,
        summary: 'Elimina el certificado de análisis de un lote',
        params: certificateIdParamsSchema,
        response: { 200: productDocumentsResponseSchema },
      },
    },
    async (request) => {
      const { code, id } = request.params;
      await removeCertificate(app.db, await staffActor(request), code, id);
      return { message: 'Certificado eliminado', documents: await productDocuments(app.db, code) };
    },
  );
};
