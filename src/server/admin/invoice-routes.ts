import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parsePriceToCents } from '../../shared/money.ts';
import { STAFF_CANCEL_MOTIVOS } from '../../shared/sat-motivos.ts';
import { adminInvoiceListSchema, adminInvoicesQuerySchema } from '../../shared/schemas/admin.ts';
import { messageSchema, orderNumberParamsSchema } from '../../shared/schemas/common.ts';
import { creditNoteParamsSchema } from '../../shared/schemas/invoice.ts';
import { writeAudit } from '../audit/log.ts';
import { sendAttachment } from '../http/attachment.ts';
import { conflict, notFound } from '../http/errors.ts';
import { cancelInvoice } from '../invoices/cancel.ts';
import { createInvoicingContext } from '../invoices/context.ts';
import { CREDIT_NOTE_RECOVERED, issueCreditNote, listCreditNotes } from '../invoices/credit-notes.ts';
import { getCreditNotePdf, getCreditNoteXml, getInvoicePdf, getInvoiceXml } from '../invoices/downloads.ts';
import {
  globalDeadline,
  globalInvoiceXml,
  issueGlobalInvoice,
  listGlobalInvoices,
} from '../invoices/global.ts';
import { staffActor } from './context.ts';
import { cancelInvoiceByStaff, listAdminInvoices, ownerOf } from './invoices-service.ts';

const tags = ['administración'];

const creditNoteSchema = z.object({
  amount: z
    .string({ error: 'Escriba el importe con IVA (p. ej. 1234.50)' })
    .refine((v) => (parsePriceToCents(v) ?? 0) > 0, 'Escriba el importe con IVA (p. ej. 1234.50)'),
  description: z
    .string({ error: 'Escriba el concepto de la nota de crédito' })
    .trim()
    .min(5, 'Escriba el concepto de la nota de crédito')
    .max(1000, 'El concepto admite hasta 1000 caracteres')
    .regex(/^[^|]*$/, 'El concepto no puede contener el carácter |'),
});

const creditNoteListSchema = z.object({
  invoiceUuid: z.string().nullable(),
  invoiceTotalCents: z.number().int().nullable(),
  remainingCents: z.number().int(),
  items: z.array(
    z.object({
      uuid: z.string().nullable(),
      serieFolio: z.string(),
      status: z.string(),
      totalCents: z.number().int(),
      description: z.string(),
      issuedAt: z.string().nullable(),
      test: z.boolean(),
    }),
  ),
});

/** The body names the motivo ({} = 02); unknown fields and a null body are refused like everywhere else. */
const staffCancelSchema = z.strictObject({
  motivo: z
    .enum(STAFF_CANCEL_MOTIVOS, {
      error: `Seleccione el motivo de cancelación: ${STAFF_CANCEL_MOTIVOS.join(', ').replace(/, (?=[^,]*$)/, ' o ')}`,
    })
    .default('02'),
});

/** Invoices: the list, downloads and cancellation, through the invoices service acting for the order's owner. */
export const invoiceAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx = createInvoicingContext(app.config, app.db, { log: app.log });

  // The monthly CFDI global's hourly round is a job (jobs.ts).
  const globalSchema = z.object({
    id: z.number().int(),
    year: z.number().int(),
    month: z.number().int(),
    period: z.string(),
    status: z.string(),
    uuid: z.string().nullable(),
    test: z.boolean(),
    formaPago: z.string(),
    totalCents: z.number().int(),
    orders: z.array(z.number().int()),
    issuedAt: z.string().nullable(),
  });

  app.get(
    '/api/admin/invoices/global',
    {
      config: { permission: 'facturas.gestionar' },
      schema: {
        tags,
        summary: 'Facturas globales al público en general, por mes',
        response: { 200: z.object({ items: z.array(globalSchema) }) },
      },
    },
    async () => ({ items: await listGlobalInvoices(app.db) }),
  );

  app.post(
    '/api/admin/invoices/global',
    {
      config: { permission: 'facturas.gestionar' },
      schema: {
        tags,
        summary:
          'Emite la factura global (CFDI al público en general) de un mes terminado con las ventas pagadas sin factura',
        body: z.strictObject({
          year: z
            .number({ error: 'Indique el año' })
            .int('Indique el año')
            .min(2022, 'Año inválido')
            .max(2100, 'Año inválido'),
          month: z
            .number({ error: 'Indique el mes' })
            .int('Indique el mes')
            .min(1, 'Mes inválido')
            .max(12, 'Mes inválido'),
          /** Past the SAT's 72 hours (RMF 2.7.1.21) the global is issued only when staff confirm it; audited. */
          confirmLate: z.boolean({ error: 'Indique si confirma la emisión extemporánea' }).optional(),
        }),
        response: { 201: globalSchema },
      },
    },
    async (request, reply) => {
      const { year, month, confirmLate } = request.body;
      const actor = await staffActor(request);
      const late = ctx.now().getTime() > globalDeadline(year, month).getTime();
      const issued = await issueGlobalInvoice(ctx, { year, month }, 'staff', {
        confirmLate: confirmLate === true,
      });
      if (late) {
        await writeAudit(app.db, actor, {
          action: 'invoice.global-late',
          entityType: 'invoice',
          entityId: issued.id,
          before: null,
          after: { year, month, deadline: globalDeadline(year, month).toISOString(), uuid: issued.uuid },
        });
      }
      return reply.code(201).send(issued);
    },
  );

  app.get(
    '/api/admin/invoices/global/:id/xml',
    {
      config: { permission: 'facturas.gestionar' },
      schema: {
        tags,
        summary: 'XML timbrado de una factura global',
        params: z.object({
          id: z.coerce.number().int().positive('Factura inválida').max(2_147_483_647, 'Factura inválida'),
        }),
      },
    },
    async (request, reply) => {
      const file = await globalInvoiceXml(app.db, request.params.id);
      if (!file) throw notFound('Factura global no encontrada');
      return sendAttachment(request, reply, file.xml, {
        filename: file.name,
        type: 'application/xml; charset=utf-8',
      });
    },
  );

  app.get(
    '/api/admin/invoices',
    {
      config: { permission: 'facturas.gestionar' },
      schema: {
        tags,
        summary: 'Facturas: estado, RFC, total; filtro por estado y búsqueda por pedido, RFC, UUID o correo',
        querystring: adminInvoicesQuerySchema,
        response: { 200: adminInvoiceListSchema },
      },
    },
    async (request) => listAdminInvoices(app.db, request.query),
  );

  app.post(
    '/api/admin/invoices/:number/cancel',
    {
      config: { permission: 'facturas.gestionar' },
      schema: {
        tags,
        summary:
          'Cancela la factura vigente del pedido ante el PAC con el motivo del SAT: 02 (errores sin relación), 03 (la venta no se realizó), 04 (factura global)',
        params: orderNumberParamsSchema,
        body: staffCancelSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const { motivo } = request.body;
      return cancelInvoiceByStaff(app.db, await staffActor(request), request.params.number, motivo, (owner) =>
        cancelInvoice(ctx, owner, request.params.number, { motivo, by: 'staff' }),
      );
    },
  );

  app.post(
    '/api/admin/invoices/:number/credit-notes',
    {
      config: { permission: 'facturas.gestionar' },
      schema: {
        tags,
        summary:
          'Bonificación: nota de crédito (CFDI de egreso, relación 01 con la factura) sin devolución de dinero; los reembolsos emiten la suya solos',
        params: orderNumberParamsSchema,
        body: creditNoteSchema,
        response: {
          201: z.object({ message: z.string(), uuid: z.string(), remainingCents: z.number().int() }),
        },
      },
    },
    async (request, reply) => {
      const actor = await staffActor(request);
      const amountCents = parsePriceToCents(request.body.amount) ?? 0;
      const note = await issueCreditNote(ctx, request.params.number, {
        amountCents,
        description: request.body.description,
      });
      if (!note)
        throw conflict(
          'Hay otra nota de crédito en proceso para este pedido; intente de nuevo en un momento',
          'credit_note_in_progress',
        );
      if (note.recovered) {
        return reply
          .code(201)
          .send({ message: CREDIT_NOTE_RECOVERED, uuid: note.uuid, remainingCents: note.remainingCents });
      }
      await writeAudit(app.db, actor, {
        action: 'invoice.credit-note',
        entityType: 'invoice',
        entityId: request.params.number,
        before: null,
        after: {
          uuid: note.uuid,
          totalCents: note.totalCents,
          description: request.body.description,
          bonificacion: true,
        },
      });
      return reply.code(201).send({
        message: `Bonificación por ${(note.totalCents / 100).toFixed(2)} MXN emitida como nota de crédito (UUID ${note.uuid}); no se devolvió dinero al cliente.`,
        uuid: note.uuid,
        remainingCents: note.remainingCents,
      });
    },
  );

  app.get(
    '/api/admin/invoices/:number/credit-notes',
    {
      config: { permission: 'facturas.gestionar' },
      schema: {
        tags,
        summary: 'Notas de crédito del pedido y lo que queda por acreditar de su factura vigente',
        params: orderNumberParamsSchema,
        response: { 200: creditNoteListSchema },
      },
    },
    async (request) => listCreditNotes(ctx, request.params.number),
  );

  app.get(
    '/api/admin/invoices/:number/credit-notes/:uuid.xml',
    {
      config: { permission: 'facturas.gestionar' },
      schema: { tags, summary: 'XML timbrado de una nota de crédito', params: creditNoteParamsSchema },
    },
    async (request, reply) => {
      const { xml, filename } = await getCreditNoteXml(ctx, request.params.number, request.params.uuid);
      return sendAttachment(request, reply, xml, { filename, type: 'application/xml; charset=utf-8' });
    },
  );

  app.get(
    '/api/admin/invoices/:number/credit-notes/:uuid.pdf',
    {
      config: { permission: 'facturas.gestionar' },
      schema: { tags, summary: 'PDF de una nota de crédito', params: creditNoteParamsSchema },
    },
    async (request, reply) => {
      const { pdf, filename } = await getCreditNotePdf(ctx, request.params.number, request.params.uuid);
      return sendAttachment(request, reply, pdf, { filename, type: 'application/pdf' });
    },
  );

  app.get(
    '/api/admin/invoices/:number/invoice.xml',
    {
      config: { permission: 'facturas.gestionar' },
      schema: {
        tags,
        summary: 'XML timbrado de la factura del pedido',
        params: orderNumberParamsSchema,
        response: { 200: z.string() },
      },
    },
    async (request, reply) => {
      const { xml, filename } = await getInvoiceXml(
        ctx,
        await ownerOf(app.db, request.params.number),
        request.params.number,
      );
      return sendAttachment(request, reply, xml, { filename, type: 'application/xml; charset=utf-8' });
    },
  );

  app.get(
    '/api/admin/invoices/:number/invoice.pdf',
    {
      config: { permission: 'facturas.gestionar' },
      schema: { tags, summary: 'PDF de la factura del pedido', params: orderNumberParamsSchema },
    },
    async (request, reply) => {
      const { pdf, filename } = await getInvoicePdf(
        ctx,
        await ownerOf(app.db, request.params.number),
        request.params.number,
      );
      return sendAttachment(request, reply, pdf, { filename, type: 'application/pdf' });
    },
  );
};
