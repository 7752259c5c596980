import { z } from 'zod';
/** 'Sobre pedido' fields of a product (decision 029). Part of the back-office API contract (../admin.ts). */
/** Days of a lead time as typed in the form: '' → null; whole, not negative (the rest: leadTimeFieldsProblem). */
export const leadDays = (label: string) =>
  z
    .string({ error: `${label}: escriba un número entero de días hábiles` })
    .trim()
    .default('')
    .refine(
      (v) => v === '' || /^-?\d+(?:[.,]\d+)?$/.test(v),
      `${label}: escriba un número entero de días hábiles`,
    )
    .refine((v) => !/[.,]/.test(v), `${label} debe ser un número entero`)
    .refine((v) => !v.startsWith('-'), `${label} no puede ser negativo`)
    .refine((v) => v.length <= 4, `${label}: demasiados días`)
    .transform((v) => (v === '' ? null : Number(v)));
