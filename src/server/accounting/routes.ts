import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fileNamePart } from '../../shared/lots.ts';
import { accountingSummarySchema, periodQuerySchema } from '../../shared/schemas/accounting.ts';
import { errorEnvelopeSchema } from '../../shared/schemas/errors.ts';
import { staffActor } from '../admin/context.ts';
import { writeAudit } from '../audit/log.ts';
import { badRequest } from '../http/errors.ts';
import { ZIP_MAX_ENTRIES, type ZipFile, zipStream } from '../http/zip.ts';
import { documentFiles, periodDocuments } from './documents.ts';
import { periodOf } from './period.ts';
import { reportCsv, reportFileName, reportXlsx } from './report.ts';
import { accountingSummary } from './summary.ts';

const tags = ['administración', 'contabilidad'];
const errors = { 400: errorEnvelopeSchema };
const permission = 'facturas.gestionar' as const;

const attachment = (name: string) =>
  ({
    'Content-Disposition': `attachment; filename="${fileNamePart(name)}"`,
    'Content-Security-Policy': "sandbox; default-src 'none'; frame-ancestors 'none'",
  }) as const;

/** The accountant's month (issue 36, decision 066), under /api/admin (adminRoutes' guard). */
export const accountingAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/accounting/summary',
    {
      config: { permission },
      schema: {
        tags,
        summary:
          'Contabilidad de un periodo: CFDI por tipo, reporte, factura global, conciliación con el libro y cuentas por cobrar',
        querystring: periodQuerySchema,
        response: { 200: accountingSummarySchema, ...errors },
      },
    },
    async (request) => accountingSummary(app.db, periodOf(request.query), request.query.types),
  );

  app.get(
    '/api/admin/accounting/report.csv',
    {
      config: { permission },
      schema: { tags, summary: 'Reporte de CFDI del periodo en CSV', querystring: periodQuerySchema },
    },
    async (request, reply) => {
      const period = periodOf(request.query);
      const rows = await periodDocuments(app.db, period, request.query.types);
      return reply
        .headers(attachment(reportFileName(period, 'csv')))
        .type('text/csv; charset=utf-8')
        .send(reportCsv(rows));
    },
  );

  app.get(
    '/api/admin/accounting/report.xlsx',
    {
      config: { permission },
      schema: {
        tags,
        summary: 'Reporte de CFDI del periodo en Excel (XLSX)',
        querystring: periodQuerySchema,
      },
    },
    async (request, reply) => {
      const period = periodOf(request.query);
      const rows = await periodDocuments(app.db, period, request.query.types);
      return reply
        .headers(attachment(reportFileName(period, 'xlsx')))
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .send(reportXlsx(rows, period));
    },
  );

  app.get(
    '/api/admin/accounting/cfdi.zip',
    {
      config: { permission },
      schema: {
        tags,
        summary:
          'ZIP con el XML y el PDF de cada CFDI del periodo (por tipo), y el reporte en CSV y XLSX; se envía por partes',
        querystring: periodQuerySchema,
      },
    },
    async (request, reply) => {
      const period = periodOf(request.query);
      const { types } = request.query;
      const documents = await periodDocuments(app.db, period, types);
      if (documents.length * 2 + 2 > ZIP_MAX_ENTRIES)
        throw badRequest(
          'El periodo tiene demasiados CFDI para un solo ZIP; descárguelo por partes o por tipo',
        );
      await writeAudit(app.db, await staffActor(request), {
        action: 'accounting.zip',
        entityType: 'export',
        entityId: `cfdi ${period.slug}`,
        after: { types, documents: documents.length },
      });
      async function* files(): AsyncGenerator<ZipFile> {
        yield { name: reportFileName(period, 'csv'), data: reportCsv(documents) };
        yield { name: reportFileName(period, 'xlsx'), data: reportXlsx(documents, period), store: true };
        yield* documentFiles(app.db, documents);
      }
      const stream = Readable.from(zipStream(files()));
      stream.on('error', (error) => request.log.error({ err: error }, 'el ZIP de CFDI se interrumpió'));
      return reply
        .headers(attachment(`cfdi_${period.slug}${types.length < 4 ? `_${types.join('-')}` : ''}.zip`))
        .type('application/zip')
        .send(stream);
    },
  );
};
