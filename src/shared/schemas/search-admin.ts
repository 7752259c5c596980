import { z } from 'zod';

/** The back office's lab vocabulary and the searches that find little (issue 18, decision 020). */

export const synonymSchema = z.object({
  id: z.number().int(),
  term: z.string(),
  canonical: z.string(),
  updatedAt: z.string(),
});
export type Synonym = z.infer<typeof synonymSchema>;
export const synonymListSchema = z.object({ items: z.array(synonymSchema) });

const words = (label: string) =>
  z
    .string({ error: `${label} es obligatorio` })
    .trim()
    .min(2, `${label} debe tener al menos 2 caracteres`)
    .max(100, `${label} admite hasta 100 caracteres`)
    .refine((v) => /[\p{L}\p{N}]/u.test(v), `${label} debe tener letras o números`);

export const synonymInputSchema = z.object({
  /** What shoppers type ('ácido muriático'). */
  term: words('El término'),
  /** The catalogue's words it stands for ('ácido clorhídrico'). */
  canonical: words('El nombre en el catálogo'),
});
export type SynonymInput = z.infer<typeof synonymInputSchema>;
export const synonymIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Sinónimo inválido' })
    .int('Sinónimo inválido')
    .positive('Sinónimo inválido')
    .max(2_147_483_647, 'Sinónimo inválido'),
});

export const searchMissSchema = z.object({
  term: z.string(),
  /** What its last search found (0, 1 or 2). */
  results: z.number().int(),
  searches: z.number().int(),
  days: z.number().int(),
  lastDay: z.string(),
});
export const searchMissListSchema = z.object({ items: z.array(searchMissSchema), days: z.number().int() });
export const searchMissQuerySchema = z.object({
  days: z.coerce
    .number({ error: 'Días inválidos' })
    .int('Días inválidos')
    .min(1, 'Días inválidos')
    .max(365, 'Se pueden ver hasta 365 días')
    .default(30),
});
