import { z } from 'zod';
import { checkClabe } from '../clabe.ts';

/**
 * A CLABE as the buyer types it (spaces and hyphens allowed), answered as its 18 digits; the buyer's form and
 * the server refuse the same numbers with the same Spanish message (length, check digit, bank).
 */
export const clabeSchema = z
  .string({ error: 'Escriba la CLABE de 18 dígitos' })
  .max(40, 'La CLABE debe tener 18 dígitos')
  .transform((value, ctx) => {
    const result = checkClabe(value);
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', message: result.message });
      return z.NEVER;
    }
    return result.clabe;
  });
