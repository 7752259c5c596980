import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatMoney } from '../../shared/money.ts';
import {
  creditLineSchema,
  institutionIdParamsSchema,
  paymentIdParamsSchema,
  receivablesSchema,
  recordPaymentResponseSchema,
  recordPaymentSchema,
  statementSchema,
} from '../../shared/schemas/credit.ts';
import { errorEnvelopeSchema } from '../../shared/schemas/errors.ts';
import { staffActor } from '../admin/context.ts';
import { writeAudit } from '../audit/log.ts';
import { institutions } from '../db/schema.ts';
import { sendAttachment } from '../http/attachment.ts';
import { notFound } from '../http/errors.ts';
import { createInvoicingContext, type InvoicingContext } from '../invoices/context.ts';
import { paymentCfdiFile } from './downloads.ts';
import { issuePaymentCfdi } from './payment-cfdi.ts';
import { recordPayment } from './payments.ts';
import { receivables, receivablesCsv } from './receivables.ts';
import { statementOf } from './statement.ts';
import { renderStatementPdf } from './statement-pdf.ts';

const tags = ['administración', 'crédito'];
const errors = { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema };

/** Staff's side of sales on credit (decision 060), under /api/admin (adminRoutes' guard): lines, payments, receivables. */
export const creditAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  // Made on first use, as the invoice routes' own.
  let invoicing: InvoicingContext | undefined;
  const context = () => {
    invoicing ??= createInvoicingContext(app.config, app.db, { log: app.log });
    return invoicing;
  };

  app.put(
    '/api/admin/credit/institutions/:id/line',
    {
      config: { permission: 'credito.gestionar' },
      schema: {
        tags,
        summary: 'Otorga, cambia o retira la línea de crédito (límite y plazo) de una institución',
        params: institutionIdParamsSchema,
        body: creditLineSchema,
        response: { 200: z.object({ message: z.string() }), ...errors },
      },
    },
    async (request) => {
      const actor = await staffActor(request);
      const { id } = request.params;
      const { limitCents, days } = request.body;
      return app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(institutions).where(eq(institutions.id, id)).for('update');
        if (!before) throw notFound('Institución no encontrada');
        await tx
          .update(institutions)
          .set({ creditLimitCents: limitCents, creditDays: days, updatedAt: new Date() })
          .where(eq(institutions.id, id));
        await writeAudit(tx, actor, {
          action: 'institution.credit_line',
          entityType: 'institution',
          entityId: id,
          before: { limitCents: before.creditLimitCents, days: before.creditDays },
          after: { limitCents, days },
        });
        return {
          message:
            limitCents === null
              ? `Se retiró la línea de crédito de ${before.razonSocial}`
              : `Línea de crédito de ${before.razonSocial}: ${formatMoney(limitCents)} a ${days} días`,
        };
      });
    },
  );

  app.post(
    '/api/admin/credit/payments',
    {
      config: { permission: 'credito.gestionar' },
      schema: {
        tags,
        summary:
          'Registra un pago recibido por transferencia, lo aplica a facturas PPD y emite su CFDI de pago',
        body: recordPaymentSchema,
        response: { 201: recordPaymentResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { paymentId } = await recordPayment(context(), await staffActor(request), request.body);
      // The payment is recorded whatever the PAC says; its CFDI de pago that could not be stamped now is the jobs'.
      const cfdi = await issuePaymentCfdi(context(), paymentId).catch((error: unknown) => {
        request.log.error({ err: error, payment: paymentId }, 'no se emitió el CFDI de pago; se reintentará');
        return 'failed' as const;
      });
      const message =
        cfdi === 'issued' || cfdi === 'already'
          ? 'Pago registrado; el CFDI de pago se timbró y se envió a la institución.'
          : 'Pago registrado; el CFDI de pago no se pudo timbrar ahora y se reintentará automáticamente.';
      return reply.code(201).send({ message, paymentId, cfdi });
    },
  );

  app.get(
    '/api/admin/credit/receivables',
    {
      config: { permission: 'credito.gestionar' },
      schema: {
        tags,
        summary: 'Cuentas por cobrar: saldo y antigüedad por institución, con totales',
        response: { 200: receivablesSchema },
      },
    },
    async () => receivables(app.db, new Date()),
  );

  app.get(
    '/api/admin/credit/receivables.csv',
    {
      config: { permission: 'credito.gestionar' },
      schema: { tags, summary: 'Cuentas por cobrar en CSV (una línea por factura con saldo)' },
    },
    async (request, reply) => {
      const csv = receivablesCsv(await receivables(app.db, new Date()));
      return reply
        .header(
          'Content-Disposition',
          `attachment; filename="cuentas-por-cobrar-${new Date().toISOString().slice(0, 10)}.csv"`,
        )
        .type('text/csv; charset=utf-8')
        .send(csv);
    },
  );

  app.get(
    '/api/admin/credit/institutions/:id/statement',
    {
      config: { permission: 'credito.gestionar' },
      schema: {
        tags,
        summary: 'Estado de cuenta de una institución',
        params: institutionIdParamsSchema,
        response: { 200: statementSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => statementOf(app.db, request.params.id, new Date()),
  );

  app.get(
    '/api/admin/credit/institutions/:id/statement.pdf',
    {
      config: { permission: 'credito.gestionar' },
      schema: {
        tags,
        summary: 'Estado de cuenta de una institución en PDF (carta)',
        params: institutionIdParamsSchema,
      },
    },
    async (request, reply) => {
      const statement = await statementOf(app.db, request.params.id, new Date());
      return sendAttachment(request, reply, await renderStatementPdf(statement), {
        filename: `estado-de-cuenta-${statement.institution.rfc}-${statement.asOf.slice(0, 10)}.pdf`,
        type: 'application/pdf',
        cache: 'private',
      });
    },
  );

  for (const format of ['xml', 'pdf'] as const) {
    app.get(
      `/api/admin/credit/payments/:id/cfdi.${format}`,
      {
        config: { permission: 'credito.gestionar' },
        schema: {
          tags,
          summary: `CFDI de pago del pago recibido (${format.toUpperCase()})`,
          params: paymentIdParamsSchema,
        },
      },
      async (request, reply) =>
        sendAttachment(request, reply, ...(await paymentCfdiFile(app.db, request.params.id, format, null))),
    );
  }
};
