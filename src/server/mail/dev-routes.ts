import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { escapeMarkup } from '../../shared/escape.ts';
import { mailOutbox } from '../db/schema.ts';
import { sendNotFound } from '../http/errors.ts';
import { fromThisMachine } from '../http/loopback.ts';

const listed = {
  id: mailOutbox.id,
  kind: mailOutbox.kind,
  to: mailOutbox.to,
  subject: mailOutbox.subject,
  text: mailOutbox.text,
  status: mailOutbox.status,
  attempts: mailOutbox.attempts,
  createdAt: mailOutbox.createdAt,
  sentAt: mailOutbox.sentAt,
};

const mailSchema = z.object({
  id: z.number(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  status: z.string(),
  attempts: z.number(),
  createdAt: z.date(),
  sentAt: z.date().nullable(),
});

export const DEV_MAIL_LOOPBACK_ONLY =
  'El buzón de desarrollo solo responde a solicitudes desde esta misma máquina (127.0.0.1 o ::1).';

const statusLabel: Record<string, string> = { pending: 'pendiente', sent: 'enviado', failed: 'fallido' };

/**
 * Development only (never registered with NODE_ENV=production): the outbox, newest first, as a
 * page at /dev/correo and as JSON at /dev/correo.json, so mails can be read without an SMTP server.
 */
export const devMailRoutes: FastifyPluginAsyncZod = async (app) => {
  // It shows recovery codes: only a browser on this same machine may read it (http/loopback.ts).
  app.addHook('onRequest', async (request, reply) => {
    if (!fromThisMachine(app, request)) {
      return reply
        .code(403)
        .header('Cache-Control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(DEV_MAIL_LOOPBACK_ONLY);
    }
  });

  const latest = () => app.db.select(listed).from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(50);

  app.get(
    '/dev/correo.json',
    { schema: { hide: true, response: { 200: z.object({ mails: z.array(mailSchema) }) } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { mails: await latest() };
    },
  );

  app.get(
    '/dev/correo/:id',
    { schema: { hide: true, params: z.object({ id: z.coerce.number().int().positive() }) } },
    async (request, reply) => {
      const [row] = await app.db
        .select({ html: mailOutbox.html })
        .from(mailOutbox)
        .where(eq(mailOutbox.id, request.params.id));
      if (!row) return sendNotFound(reply);
      return reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(row.html);
    },
  );

  app.get('/dev/correo', { schema: { hide: true } }, async (_request, reply) => {
    const mails = await latest();
    const items = mails
      .map(
        (
          m,
        ) => `<article style="border:1px solid #e2e8f0;border-radius:10px;padding:16px;margin:0 0 16px;background:#fff">
  <h2 style="margin:0 0 4px;font-size:17px">${escapeMarkup(m.subject)}</h2>
  <p style="margin:0 0 10px;color:#475569;font-size:13px">Para <strong>${escapeMarkup(m.to)}</strong> · ${escapeMarkup(m.kind)} · ${m.createdAt.toISOString()} · ${statusLabel[m.status] ?? m.status} · <a href="/dev/correo/${m.id}">ver HTML</a></p>
  <pre style="white-space:pre-wrap;margin:0;font-size:13px;background:#f8fafc;padding:12px;border-radius:8px">${escapeMarkup(m.text)}</pre>
</article>`,
      )
      .join('\n');
    const html = `<!doctype html><html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Correo de desarrollo</title></head>
<body style="margin:0;background:#f1f5f9;font-family:system-ui,sans-serif;color:#0f172a"><main style="max-width:760px;margin:0 auto;padding:24px 16px">
<h1 style="font-size:22px;margin:0 0 4px">Correo de desarrollo</h1>
<p style="margin:0 0 20px;color:#475569">Bandeja de salida, lo más reciente primero (${mails.length}). Esta página no existe en producción.</p>
${items || '<p>No hay correos.</p>'}
</main></body></html>`;
    return reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(html);
  });
};
