import type { FastifyInstance } from 'fastify';
import { startAuthCleanup } from './auth/cleanup.ts';
import { createMailTransport } from './mail/transport.ts';
import { startMailWorker } from './mail/worker.ts';

/**
 * The accounts' background work of one server process: the outbox worker and the hourly purge of
 * expired sessions. Returns the function that stops both (call it before app.close()).
 */
export function startBackgroundJobs(app: FastifyInstance): () => Promise<void> {
  const { config, db, log } = app;
  const transport = createMailTransport(
    { smtpUrl: config.mail.smtpUrl, mailFrom: config.mail.from, env: config.env },
    log,
  );
  const stopCleanup = startAuthCleanup(db, log);
  if (!transport) {
    log.warn('SMTP_URL no está configurado: los correos esperan en la bandeja de salida (mail_outbox)');
    return async () => stopCleanup();
  }
  log.info({ transport: transport.kind }, 'envío de correos iniciado');
  const worker = startMailWorker({ db, transport, log });
  return async () => {
    stopCleanup();
    await worker.stop();
  };
}
