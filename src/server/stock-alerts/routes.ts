import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { escapeMarkup } from '../../shared/escape.ts';
import { stockAlertRequestSchema, stockAlertResponseSchema } from '../../shared/schemas/stock-alerts.ts';
import { shop } from '../../shared/shop.ts';
import { getSessionUser } from '../auth/session.ts';
import { badRequest } from '../http/errors.ts';
import { subscribe, unsubscribe } from './service.ts';

/** 'Avísame cuando haya' (decision 062): the product page's form, and the «baja» page the mail links to. */
export const stockAlertRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/stock-alerts',
    {
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
      schema: {
        tags: ['catálogo'],
        summary: 'Avísame cuando haya: un correo cuando el producto vuelva a tener existencia',
        body: stockAlertRequestSchema,
        response: { 200: stockAlertResponseSchema },
      },
    },
    async (request) => {
      const user = await getSessionUser(request);
      const email = user?.email ?? request.body.email;
      if (!email)
        throw badRequest('Escriba su correo electrónico', { email: 'Escriba su correo electrónico' });
      const message = await subscribe(app.db, { code: request.body.code, email, userId: user?.id ?? null });
      return { message };
    },
  );

  // The mail's link opens a page with a button (a GET never unsubscribes: mail scanners open links).
  app.get(
    '/avisos/baja',
    { schema: { hide: true, querystring: z.object({ t: z.string().max(100).default('') }) } },
    async (request, reply) => {
      const t = escapeMarkup(request.query.t);
      reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
      return reply.type('text/html; charset=utf-8').send(
        page(
          'Avisos de existencia',
          `<p>¿Ya no quiere recibir avisos de existencia en su correo?</p>
             <form method="post" action="/avisos/baja"><input type="hidden" name="t" value="${t}"><button type="submit">Darme de baja</button></form>`,
        ),
      );
    },
  );

  await app.register(unsubscribeForm);
};

/** The «Darme de baja» button's POST: a plain HTML form (no JavaScript), its own body parser in its own scope. */
const unsubscribeForm: FastifyPluginAsyncZod = async (scope) => {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  scope.post(
    '/avisos/baja',
    {
      config: { rateLimit: { max: 20, timeWindow: 60_000 } },
      schema: { hide: true, body: z.object({ t: z.string().max(100).default('') }) },
    },
    async (request, reply) => {
      const done = await unsubscribe(scope.db, request.body.t);
      reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
      return reply
        .code(done ? 200 : 404)
        .type('text/html; charset=utf-8')
        .send(
          done
            ? page(
                'Baja confirmada',
                `<p>Listo: no le enviaremos más avisos de existencia a ${escapeMarkup(done.email)}.</p>`,
              )
            : page('Enlace no válido', '<p>El enlace para darse de baja no es válido o ya no existe.</p>'),
        );
    },
  );
};

const page = (title: string, body: string) => `<!doctype html>
<html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${title} | ${escapeMarkup(shop.tradeName)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f1f5f9;color:#0f172a;margin:0;padding:48px 16px}
main{max-width:480px;margin:0 auto;background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:24px}
h1{font-size:20px;margin:0 0 12px}p{line-height:1.5}a{color:#0e5a8a}
button{background:#0e5a8a;color:#fff;border:0;border-radius:8px;padding:10px 18px;font-size:15px;font-weight:600;cursor:pointer}</style>
</head><body><main><p style="font-weight:600;color:#0e5a8a">${escapeMarkup(shop.tradeName)}</p><h1>${title}</h1>${body}
<p><a href="/">Volver a la tienda</a></p></main></body></html>`;
