import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { importReportSchema, importRequestSchema } from '../../shared/schemas/admin.ts';
import { badRequest } from '../http/errors.ts';
import { staffActor } from './context.ts';
import { ImportFileError, importCatalogue } from './import/importer.ts';

const MB = 1024 * 1024;

/** The catalogue import from /admin (the CSV only; pictures and datasheets go product by product or by CLI). */
export const importRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/admin/import',
    {
      bodyLimit: 28 * MB,
      config: { rateLimit: false, permission: 'catalogo.editar' },
      schema: {
        tags: ['administración'],
        summary: 'Importa un CSV de catálogo (UTF-8, upsert por código); dryRun solo informa qué cambiaría',
        body: importRequestSchema,
        response: { 200: importReportSchema },
      },
    },
    async (request) => {
      const { filename, contentBase64, dryRun, strict } = request.body;
      try {
        return await importCatalogue(app.db, Buffer.from(contentBase64, 'base64'), {
          filename,
          dryRun,
          strict,
          actor: await staffActor(request),
        });
      } catch (error) {
        if (error instanceof ImportFileError) throw badRequest(error.message, { file: error.message });
        throw error;
      }
    },
  );
};
