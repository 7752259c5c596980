import { z } from 'zod';

/**
 * An institution's contract prices (issue 34, decision 059), as staff send and read them: per product code, IVA
 * included, valid from one Mexico City date to another, both inclusive.
 */
const day = (label: string) =>
  z
    .string({ error: `${label}: escriba la fecha como AAAA-MM-DD` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label}: escriba la fecha como AAAA-MM-DD`)
    .refine(
      (v) =>
        !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      `${label}: la fecha no existe`,
    );

export const MAX_CONTRACT_PRICES = 5000;

export const contractPriceSchema = z
  .object({
    code: z.string({ error: 'Falta el código' }).trim().min(1, 'Falta el código').max(40, 'Código no válido'),
    priceCents: z
      .number({ error: 'El precio debe ser un número de centavos' })
      .int('El precio debe ser un número entero de centavos')
      .min(1, 'El precio debe ser mayor que cero')
      .max(100_000_000_00, 'El precio es demasiado alto'),
    validFrom: day('Vigente desde'),
    validTo: day('Vigente hasta'),
  })
  .refine((p) => p.validTo >= p.validFrom, {
    message: 'La vigencia termina antes de empezar',
    path: ['validTo'],
  });

export const contractPricesBodySchema = z.object({
  prices: z
    .array(contractPriceSchema, { error: 'Envíe la lista de precios' })
    .max(MAX_CONTRACT_PRICES, `Hasta ${MAX_CONTRACT_PRICES} precios por institución`),
});
export type ContractPricesBody = z.infer<typeof contractPricesBodySchema>;

export const institutionIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Institución no encontrada' })
    .int('Institución no encontrada')
    .min(1, 'Institución no encontrada')
    .max(2_147_483_647, 'Institución no encontrada'),
});

export const contractPriceListSchema = z.object({
  institution: z.string(),
  prices: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      listPriceCents: z.number().int(),
      priceCents: z.number().int(),
      validFrom: z.string(),
      validTo: z.string(),
    }),
  ),
});
export type ContractPriceList = z.infer<typeof contractPriceListSchema>;
