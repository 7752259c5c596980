import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import { shop } from '../../shared/shop.ts';
import type { OutboxAttachment } from './outbox.ts';

export type MailMessage = {
  id: number;
  kind: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments: OutboxAttachment[];
};

/** Where the worker hands a mail over. */
export type MailTransport = {
  kind: 'smtp' | 'log';
  send(mail: MailMessage): Promise<void>;
  close(): void;
};

export const defaultFrom = () => `"${shop.tradeName}" <${shop.email}>`;

/**
 * SMTP through nodemailer when SMTP_URL is set (smtp://user:pass@host:587, smtps://… for TLS);
 * otherwise, outside production, a transport that only logs: the mail stays readable at /dev/correo.
 * In production without SMTP_URL there is no transport and mails wait in the outbox.
 */
export function createMailTransport(
  options: { smtpUrl: string | undefined; mailFrom: string | undefined; env: string },
  log: FastifyBaseLogger,
): MailTransport | null {
  const from = options.mailFrom ?? defaultFrom();
  if (options.smtpUrl) {
    const transporter = nodemailer.createTransport(options.smtpUrl, {
      from,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    } as Parameters<typeof nodemailer.createTransport>[1]);
    return {
      kind: 'smtp',
      async send(mail) {
        await transporter.sendMail({
          from,
          to: mail.to,
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
          attachments: mail.attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: Buffer.from(a.contentBase64, 'base64'),
          })),
        });
      },
      close: () => transporter.close(),
    };
  }
  if (options.env === 'production') return null;
  return {
    kind: 'log',
    async send(mail) {
      log.info(
        { mail: { id: mail.id, kind: mail.kind, to: mail.to, subject: mail.subject } },
        `correo (sin SMTP_URL; véalo en /dev/correo)\n${mail.text}`,
      );
    },
    close: () => {},
  };
}
