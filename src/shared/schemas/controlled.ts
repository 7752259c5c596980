import { z } from 'zod';
import { DECLARED_USE_MAX, DECLARED_USE_MIN } from '../controlled.ts';

/** The end-use declaration's request schema (decision 030); the texts and the list live in src/shared/controlled.ts. */
const USE_TOO_SHORT = `Uso final declarado: describa en al menos ${DECLARED_USE_MIN} caracteres para qué y dónde usará los productos (p. ej. «Determinación de grasas en alimentos, laboratorio de control de calidad»)`;

/**
 * 'Uso final declarado': what the products are for, in the buyer's words. Meaningful means at least
 * DECLARED_USE_MIN characters, four words of two or more letters and eight different letters — 'aaaa…' or
 * 'uso de laboratorio' does not describe a use. Line breaks become spaces; other control or invisible
 * characters are refused.
 */
export const declaredUseSchema = z
  .string({ error: 'Uso final declarado: escriba para qué usará los productos controlados' })
  .max(2000, `Uso final declarado: admite hasta ${DECLARED_USE_MAX} caracteres`)
  .transform((v) =>
    v
      .replace(/[\r\n\t]+/g, ' ')
      .trim()
      .replace(/ {2,}/g, ' '),
  )
  .refine((v) => !/\p{C}/u.test(v), 'Uso final declarado: contiene caracteres no válidos')
  .refine(
    (v) => v.length <= DECLARED_USE_MAX,
    `Uso final declarado: admite hasta ${DECLARED_USE_MAX} caracteres`,
  )
  .refine((v) => {
    const words = v.match(/\p{L}{2,}/gu) ?? [];
    const letters = new Set(v.toLowerCase().match(/\p{L}/gu) ?? []);
    return v.length >= DECLARED_USE_MIN && words.length >= 4 && letters.size >= 8;
  }, USE_TOO_SHORT);

/** What POST /api/orders carries when the cart has controlled products. */
export const controlledDeclarationSchema = z.object(
  {
    declaredUse: declaredUseSchema,
    accepted: z.literal(true, {
      error: 'Marque «Declaro bajo protesta de decir verdad…» para comprar productos controlados',
    }),
    textVersion: z
      .string({ error: 'Falta la versión de la declaración' })
      .max(40, 'La versión de la declaración no es válida'),
  },
  { error: 'La declaración de uso final no es válida' },
);
export type ControlledDeclarationInput = z.infer<typeof controlledDeclarationSchema>;
