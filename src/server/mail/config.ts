import { z } from 'zod';

/** Mail settings from the environment (listed in the README). */
export const mailEnvShape = {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465. Unset: no SMTP. */
  SMTP_URL: z
    .string()
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'smtp:' || u.protocol === 'smtps:') && u.hostname !== '';
      } catch {
        return false;
      }
    }, 'debe ser una URL smtp://usuario:clave@servidor:587 o smtps://…')
    .optional(),
  /** The sender, e.g. "Ciencia Occidente" <ventas@…>; default: the shop's name and e-mail. */
  MAIL_FROM: z.string().min(3).optional(),
};

export type MailConfig = { smtpUrl: string | undefined; from: string | undefined };

export const mailConfig = (env: {
  SMTP_URL?: string | undefined;
  MAIL_FROM?: string | undefined;
}): MailConfig => ({
  smtpUrl: env.SMTP_URL,
  from: env.MAIL_FROM,
});
