import { z } from 'zod';
import { parseCas } from '../../cas.ts';
import {
  GRADES,
  PICTOGRAM_CODES,
  type PictogramCode,
  parseGrade,
  parseMolarMass,
  parseStatementCodes,
  type SignalWord,
} from '../../ghs.ts';

/** Reagent and safety fields of a product (decision 027). Part of the back-office API contract (../admin.ts). */
/** A list of H or P codes typed in the form ('H290 H314 H335') → the codes, or a Spanish issue naming the code. */
const statementCodes = (kind: 'H' | 'P') =>
  z
    .string()
    .max(2000, 'Demasiados códigos')
    .transform((v, ctx) => {
      const parsed = parseStatementCodes(v, kind);
      if ('codes' in parsed) return parsed.codes;
      const what = kind === 'H' ? 'una indicación de peligro' : 'un consejo de prudencia';
      ctx.addIssue({
        code: 'custom',
        message:
          'unknown' in parsed
            ? `«${parsed.unknown}» no es ${what} de la lista oficial del SGA`
            : `${parsed.tooMany} códigos: el máximo es 40`,
      });
      return z.NEVER;
    })
    .optional();

/**
 * Reagent data (decision 027). Each field is optional: a request without it keeps the stored value (the form
 * always sends them all). The safety fields belong to a family's base; the server refuses them on a presentation.
 */
export const reagentFieldsSchema = z.object({
  casNumber: z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === '') return null;
      const cas = parseCas(v);
      if (cas === null) {
        ctx.addIssue({
          code: 'custom',
          message: 'Número CAS inválido: el dígito verificador no corresponde (p. ej. 7664-93-9)',
        });
        return z.NEVER;
      }
      return cas;
    })
    .optional(),
  formula: z
    .string()
    .trim()
    .max(100, 'La fórmula admite hasta 100 caracteres')
    .transform((v) => (v === '' ? null : v))
    .optional(),
  molarMass: z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === '') return null;
      const n = parseMolarMass(v);
      if (n === null) {
        ctx.addIssue({
          code: 'custom',
          message: 'Escriba la masa molar en g/mol, un número mayor que cero (p. ej. 36.46)',
        });
        return z.NEVER;
      }
      return n;
    })
    .optional(),
  grade: z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === '') return null;
      const g = parseGrade(v);
      if (g === null) {
        ctx.addIssue({
          code: 'custom',
          message: `Grado desconocido; use ${GRADES.map((x) => x.code).join(', ')}`,
        });
        return z.NEVER;
      }
      return g;
    })
    .optional(),
  ghsPictograms: z
    .array(z.string(), { error: 'Pictogramas inválidos' })
    .max(9, 'Pictogramas inválidos')
    .refine((list) => list.every((c) => (PICTOGRAM_CODES as readonly string[]).includes(c)), {
      message: 'Pictograma desconocido: use GHS01 a GHS09',
    })
    .transform((list) => PICTOGRAM_CODES.filter((c) => list.includes(c)) as PictogramCode[])
    .optional(),
  signalWord: z
    .enum(['', 'danger', 'warning'], { error: 'Palabra de advertencia inválida (Peligro o Atención)' })
    .transform((v) => (v === '' ? null : (v as SignalWord)))
    .optional(),
  hazardStatements: statementCodes('H'),
  precautionaryStatements: statementCodes('P'),
  storageConditions: z
    .string()
    .trim()
    .max(300, 'Las condiciones de almacenamiento admiten hasta 300 caracteres')
    .transform((v) => (v === '' ? null : v))
    .optional(),
});
