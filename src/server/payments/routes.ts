import bwipjs from 'bwip-js/node';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { escapeMarkup } from '../../shared/escape.ts';
import { formatMoney } from '../../shared/money.ts';
import { errorEnvelopeSchema } from '../../shared/schemas/errors.ts';
import {
  openpayErrorSchema,
  paymentsConfigSchema,
  sandboxTokenResponseSchema,
} from '../../shared/schemas/payments.ts';
import { shop } from '../../shared/shop.ts';
import { AppError, conflict, notFound, unauthorized } from '../http/errors.ts';
import { instrumented } from '../metrics/adapters.ts';
import type { ChargeReports } from './charge-reports.ts';
import { GatewayError, type PaymentGateway } from './gateway.ts';
import { SandboxGateway } from './sandbox.ts';
import {
  createPaymentGateway,
  handleWebhook,
  publicPaymentsConfig,
  returnFrom3ds,
  webhookAuthorized,
} from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    paymentGateway: PaymentGateway;
  }
}

/** The simulated bank page of 3-D Secure (a plain HTML form: no script, so the CSP stays strict). */
function threeDsPage(
  chargeId: string,
  charge: { amountCents: number; description: string; maskedNumber: string },
) {
  const id = escapeMarkup(chargeId);
  return `<!doctype html><html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Autenticación 3-D Secure — simulador</title>
<style>body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;background:#f1f5f9;color:#0f172a}
main{max-width:420px;margin:48px auto;background:#fff;border:1px solid #e2e8f0;border-radius:14px;padding:28px;box-shadow:0 4px 16px #0f172a14}
h1{font-size:20px;margin:0 0 4px}p{margin:8px 0;color:#475569;font-size:14px}.amount{font-size:28px;font-weight:700;color:#0b4a6f;margin:16px 0}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 12px;font-size:14px;margin:16px 0}dt{color:#64748b}dd{margin:0}
.actions{display:flex;gap:12px;margin-top:24px}button{flex:1;padding:12px;border-radius:8px;font-size:15px;font-weight:600;cursor:pointer;border:1px solid #0b4a6f}
.ok{background:#0b4a6f;color:#fff}.no{background:#fff;color:#b91c1c;border-color:#fca5a5}.note{font-size:12px;color:#94a3b8;margin-top:20px}</style></head>
<body><main><h1>Verificación de su banco</h1><p>Confirme la compra en ${escapeMarkup(shop.tradeName)}.</p>
<div class="amount">${escapeMarkup(formatMoney(charge.amountCents))} MXN</div>
<dl><dt>Tarjeta</dt><dd>${escapeMarkup(charge.maskedNumber)}</dd><dt>Concepto</dt><dd>${escapeMarkup(charge.description)}</dd></dl>
<div class="actions"><form method="post" action="/api/payments/sandbox/3ds/${id}/reject" style="flex:1;display:flex"><button class="no" type="submit">Rechazar</button></form>
<form method="post" action="/api/payments/sandbox/3ds/${id}/authorize" style="flex:1;display:flex"><button class="ok" type="submit">Autorizar</button></form></div>
<p class="note">Simulador de pagos: ninguna tarjeta real se cobra.</p></main></body></html>`;
}

/** The development page 'Pagos pendientes (simulador)': each awaited SPEI/store charge with its two buttons. */
function awaitingPage(
  charges: {
    id: string;
    amountCents: number;
    method: string | null;
    orderId: string | null;
    dueDate?: string | null | undefined;
  }[],
) {
  const rows = charges
    .map((c) => {
      const id = escapeMarkup(c.id);
      const label = c.method === 'spei' ? 'Transferencia SPEI' : 'Efectivo en tienda';
      return `<tr><td>${escapeMarkup(c.orderId ?? '-')}</td><td>${label}</td><td>${escapeMarkup(formatMoney(c.amountCents))}</td><td>${escapeMarkup(c.dueDate ?? '-')}</td>
<td><form method="post" action="/api/payments/sandbox/charges/${id}/pay"><button class="ok" type="submit">Simular pago recibido</button></form></td>
<td><form method="post" action="/api/payments/sandbox/charges/${id}/pay-late"><button type="submit">Simular pago fuera de plazo</button></form></td>
<td><form method="post" action="/api/payments/sandbox/charges/${id}/expire"><button class="no" type="submit">Simular vencimiento</button></form></td></tr>`;
    })
    .join('');
  return `<!doctype html><html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Pagos pendientes — simulador</title>
<style>body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;background:#f1f5f9;color:#0f172a}
main{max-width:1100px;margin:32px auto;background:#fff;border:1px solid #e2e8f0;border-radius:14px;padding:24px}
h1{font-size:20px;margin:0 0 8px}p{color:#475569;font-size:14px}table{width:100%;border-collapse:collapse;font-size:14px}
td,th{padding:8px;border-bottom:1px solid #e2e8f0;text-align:left}button{padding:8px 10px;border-radius:8px;border:1px solid #0b4a6f;background:#fff;cursor:pointer}
.ok{background:#0b4a6f;color:#fff}.no{color:#b91c1c;border-color:#fca5a5}</style></head>
<body><main><h1>Pagos SPEI y en tienda pendientes (simulador)</h1>
<p>Solo en desarrollo: cada botón cambia el cargo en el simulador y envía a la tienda el mismo webhook que enviaría Openpay.</p>
<table><thead><tr><th>Referencia</th><th>Forma</th><th>Importe</th><th>Vence</th><th></th><th></th><th></th></tr></thead><tbody>${rows || '<tr><td colspan="7">No hay pagos pendientes.</td></tr>'}</tbody></table></main></body></html>`;
}

/** The offline simulator's own endpoints: tokenization and the 3-D Secure page. */
const sandboxRoutes: FastifyPluginAsyncZod<{
  gateway: SandboxGateway;
  reports: ChargeReports;
  devTools: boolean;
}> = async (app, { gateway, reports, devTools }) => {
  // The 3-D Secure page posts plain forms without fields; their (empty) body is not read.
  app.addContentTypeParser('application/x-www-form-urlencoded', (_request, _payload, done) => done(null, {}));

  app.post(
    '/api/payments/sandbox/tokens',
    {
      schema: {
        tags: ['pagos'],
        summary: 'Simulador: tokeniza una tarjeta de prueba (como Openpay.js)',
        body: z.object({
          holder_name: z.string().max(200),
          card_number: z.string().max(40),
          expiration_month: z.string().max(4),
          expiration_year: z.string().max(4),
          cvv2: z.string().max(8),
        }),
        response: {
          201: sandboxTokenResponseSchema,
          // Openpay's error object for card checks; the shop's error shape when the body itself is invalid.
          400: z.union([openpayErrorSchema, errorEnvelopeSchema]),
          412: openpayErrorSchema,
          422: openpayErrorSchema,
        },
      },
    },
    async (request, reply) => {
      try {
        return reply.code(201).send(await gateway.createToken(request.body));
      } catch (error) {
        if (!(error instanceof GatewayError) || error.errorCode === null) throw error;
        const status = error.httpCode as 400 | 412 | 422;
        return reply.code(status).send({
          category: error.category,
          error_code: error.errorCode,
          description: error.description ?? 'Solicitud inválida',
          http_code: error.httpCode,
          request_id: error.requestId ?? '',
          error: { code: `openpay_${error.errorCode}`, message: error.description ?? 'Solicitud inválida' },
        });
      }
    },
  );

  const chargeParams = z.object({ chargeId: z.string().regex(/^[a-z0-9]{1,40}$/, 'Cargo inválido') });

  app.get(
    '/api/payments/sandbox/3ds/:chargeId',
    { schema: { hide: true, params: chargeParams } },
    async (request, reply) => {
      const pending = await gateway.pendingCharge(request.params.chargeId);
      if (!pending) {
        const back = await gateway.complete3ds(request.params.chargeId, false);
        if (back) return reply.redirect(back, 303);
        throw notFound('Cargo no encontrado');
      }
      reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8');
      return threeDsPage(request.params.chargeId, pending);
    },
  );

  app.post(
    '/api/payments/sandbox/3ds/:chargeId/:decision',
    {
      // A plain HTML form (no script on the bank page), so not JSON: the same-origin check is done here.
      config: { csrfExempt: true },
      schema: {
        hide: true,
        params: chargeParams.extend({ decision: z.enum(['authorize', 'reject']) }),
      },
    },
    async (request, reply) => {
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== `${request.protocol}://${request.host}`) {
        throw new AppError(403, 'forbidden_origin', 'Solicitud rechazada: el origen no está permitido');
      }
      const back = await gateway.complete3ds(
        request.params.chargeId,
        request.params.decision === 'authorize',
      );
      if (!back) throw notFound('Cargo no encontrado');
      return reply.redirect(back, 303);
    },
  );

  // The Paynet barcode of a store reference (Code 128, as Openpay's barcode_url).
  app.get(
    '/api/payments/sandbox/barcode/:reference',
    {
      schema: {
        hide: true,
        params: z.object({ reference: z.string().regex(/^[A-Z0-9]{6,60}$/, 'Referencia inválida') }),
      },
    },
    async (request, reply) => {
      const svg = bwipjs.toSVG({
        bcid: 'code128',
        text: request.params.reference,
        height: 12,
        includetext: false,
      });
      return reply.header('Cache-Control', 'public, max-age=86400').type('image/svg+xml').send(svg);
    },
  );

  // Development only (never with NODE_ENV=production): the page and buttons that pay or expire a SPEI/store
  // charge in the simulator and deliver the same webhook Openpay would (charge.succeeded / charge.cancelled).
  if (!devTools) return;

  app.get('/api/payments/sandbox/pagos', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8');
    return awaitingPage(await gateway.awaitingCharges());
  });

  app.post(
    '/api/payments/sandbox/charges/:chargeId/:action',
    {
      config: { csrfExempt: true },
      schema: {
        tags: ['pagos'],
        summary:
          'Simulador (solo desarrollo): pago recibido, pago fuera de plazo o vencimiento de un cargo SPEI/tienda',
        params: chargeParams.extend({ action: z.enum(['pay', 'pay-late', 'expire']) }),
      },
    },
    async (request, reply) => {
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== `${request.protocol}://${request.host}`) {
        throw new AppError(403, 'forbidden_origin', 'Solicitud rechazada: el origen no está permitido');
      }
      const { chargeId, action } = request.params;
      const charge =
        action === 'expire'
          ? await gateway.simulateExpiry(chargeId)
          : await gateway.simulatePayment(chargeId, { late: action === 'pay-late' });
      if (!charge) throw conflict('El cargo no existe o ya no está pendiente de pago', 'not_pending');
      const event = {
        type: action === 'expire' ? 'charge.cancelled' : 'charge.succeeded',
        event_date: new Date().toISOString(),
        transaction: { id: charge.id, order_id: charge.orderId },
      };
      if (!(await handleWebhook(gateway, reports, request, event))) {
        throw new AppError(503, 'gateway_unavailable', 'La pasarela no respondió; reintente');
      }
      const number = await reports.orderOf(charge.id, charge.orderId);
      if (request.headers.accept?.includes('application/json')) {
        return { chargeId: charge.id, status: charge.status, orderNumber: number };
      }
      return reply.redirect(number ? `/resumen/${number}` : '/api/payments/sandbox/pagos', 303);
    },
  );
};

const webhookBody = z
  .object({
    type: z.string().max(100),
    event_date: z.string().max(100).optional(),
    verification_code: z.string().max(100).optional(),
    transaction: z
      .object({ id: z.string().max(64).optional(), order_id: z.string().max(100).nullable().optional() })
      .loose()
      .optional(),
  })
  .loose();

/**
 * Gateway (decorated for the whole app), payment config, 3-D Secure return and the Openpay webhook. What a
 * reported charge does to its order is `reports` (the checkout's), handed in by the app.
 */
export const paymentsPlugin = fp<{ gateway?: PaymentGateway | undefined; reports: ChargeReports }>(
  async (app, opts) => {
    const made = opts.gateway ?? createPaymentGateway(app.config, app.db);
    // Every call the shop makes to the gateway goes through this one object: timed for /metrics here.
    const gateway = instrumented(`payments_${made.name}`, made);
    app.decorate('paymentGateway', gateway);

    await app.register(async (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      r.get(
        '/api/payments/config',
        {
          schema: {
            tags: ['pagos'],
            summary: 'Pasarela configurada y llave pública para el formulario de tarjeta',
            response: { 200: paymentsConfigSchema },
          },
        },
        async () => publicPaymentsConfig(app.config),
      );

      r.get(
        '/api/payments/return',
        {
          schema: {
            tags: ['pagos'],
            summary: 'Regreso de 3-D Secure: consulta el cargo y redirige al resumen o al error de pago',
            querystring: z.object({ id: z.string().max(100).optional() }),
          },
        },
        async (request, reply) => {
          const target = await returnFrom3ds(gateway, opts.reports, request, request.query.id);
          return reply.header('Cache-Control', 'no-store').redirect(target, 303);
        },
      );

      r.post(
        '/api/payments/openpay/webhook',
        {
          schema: {
            tags: ['pagos'],
            summary: 'Notificaciones de Openpay (autenticación básica)',
            body: webhookBody,
            response: {
              200: z.object({ received: z.literal(true) }),
              503: errorEnvelopeSchema,
            },
          },
        },
        async (request, reply) => {
          if (!app.config.payments.webhook) throw notFound('Recurso no encontrado');
          if (!webhookAuthorized(app.config, request.headers.authorization)) {
            reply.header('WWW-Authenticate', 'Basic realm="openpay-webhook"');
            throw unauthorized('Credenciales del webhook inválidas');
          }
          const handled = await handleWebhook(gateway, opts.reports, request, request.body);
          if (!handled) {
            return reply.code(503).send({
              error: { code: 'gateway_unavailable', message: 'La pasarela no respondió; reintente' },
            });
          }
          return { received: true as const };
        },
      );

      if (gateway instanceof SandboxGateway) {
        await r.register(sandboxRoutes, {
          gateway,
          reports: opts.reports,
          devTools: app.config.env !== 'production',
        });
      }
    });
  },
);
