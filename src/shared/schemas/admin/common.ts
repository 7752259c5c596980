import { z } from 'zod';

/** Shared pieces of the back-office schemas: messages, page numbers, days. Part of the back-office API contract (../admin.ts). */
export const REQUIRED = 'No deje vacío este campo';
export const NO_PERMISSION = 'No tiene permiso para esta acción';

export const page = z.coerce
  .number({ error: 'Página inválida' })
  .int('Página inválida')
  .min(1, 'Página inválida')
  .max(100_000, 'Página inválida')
  .default(1);

export const isoDay = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine((v) => {
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
    }, message);

export const pageInfoSchema = {
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
};
