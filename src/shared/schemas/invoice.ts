import { z } from 'zod';
import {
  capitalRegimeIn,
  FORMAS_PAGO,
  findRegimen,
  findUsoCfdi,
  isGenericRfc,
  personaLabel,
  personaOfRfc,
  RFC_SHAPE,
  regimenFitsPersona,
  rfcCheckDigit,
  rfcCheckDigitMatches,
  rfcHasRealDate,
  usoAllowedForRegimen,
  usoRefusalFor,
} from '../sat-catalogs.ts';
import { POSTAL_CODE_CANNOT_EXIST, postalCodeCanExist } from '../states.ts';
import { orderNumberParamsSchema } from './common.ts';

export const REQUIRED = 'No deje vacío este campo';
export const GENERIC_RFC_MESSAGE = 'No es posible facturar a un RFC genérico';

/**
 * The check digit does not match. SAT has issued a few RFCs whose last character fails the algorithm, so the
 * shopper may confirm the RFC as written (`rfcConfirmado`); a typo is caught before the PAC refuses it.
 */
export const rfcCheckDigitMessage = (expected: string) =>
  `El dígito verificador del RFC no coincide (el último carácter debería ser ${expected}); revíselo en su Constancia de Situación Fiscal. Si su RFC es correcto tal como está, marque «Confirmo que mi RFC es correcto».`;

/** CFDI 4.0: the name of a persona moral goes without its régimen de capital. */
export const capitalRegimeMessage = (suffix: string, without: string) =>
  `Escriba la razón social sin el régimen de capital «${suffix}», tal como aparece en su Constancia de Situación Fiscal: «${without}»`;

const required = () => z.string({ error: REQUIRED }).trim().min(1, REQUIRED);

/** RFC: spec length 10–13, then SAT's shape with a real date; 12 = moral, 13 = física. */
export const rfcField = z
  .string({ error: REQUIRED })
  .trim()
  .toUpperCase()
  .min(1, REQUIRED)
  .min(10, 'Escriba un rfc válido')
  .max(13, 'Escriba un rfc válido')
  .superRefine((rfc, ctx) => {
    if (rfc.length < 10 || rfc.length > 13) return;
    if (rfc.length < 12) {
      ctx.addIssue({
        code: 'custom',
        message: 'Escriba el RFC completo con homoclave: 12 caracteres (persona moral) o 13 (persona física)',
      });
    } else if (!RFC_SHAPE.test(rfc)) {
      ctx.addIssue({ code: 'custom', message: 'El RFC no tiene el formato del SAT' });
    } else if (!rfcHasRealDate(rfc)) {
      ctx.addIssue({ code: 'custom', message: 'La fecha contenida en el RFC no es válida' });
    } else if (isGenericRfc(rfc)) {
      ctx.addIssue({ code: 'custom', message: GENERIC_RFC_MESSAGE });
    }
  });

const isCompleteRfc = (rfc: string) =>
  RFC_SHAPE.test(rfc) && rfcHasRealDate(rfc) && personaOfRfc(rfc) !== undefined && !isGenericRfc(rfc);

/**
 * The invoice request (spec §3 "Invoice request" minus noPedido, which is the URL's order number),
 * checked the same way in the form and by the API. Beyond the spec: SAT's RFC shape, régimen by
 * persona type and uso CFDI by régimen (CFDI 4.0 catalogues).
 */
export const invoiceRequestSchema = z
  .object({
    nombreFiscal: required()
      .min(10, 'Escriba su nombre completo')
      .max(300, 'El nombre fiscal admite hasta 300 caracteres')
      .regex(/^[^|]*$/, 'El nombre fiscal no puede contener el carácter |'),
    rfc: rfcField,
    regimenFiscal: required().refine(
      (code) => findRegimen(code) !== undefined,
      'Seleccione un régimen fiscal de la lista',
    ),
    usoCfdi: required().refine(
      (code) => findUsoCfdi(code) !== undefined,
      'Seleccione un uso de CFDI de la lista',
    ),
    /**
     * Ignored: the invoice's FormaPago comes from the payment that paid the order (issue 14). Still accepted
     * (04/28) so that older clients keep working.
     */
    formaPago: z
      .string({ error: 'Seleccione una forma de pago de la lista' })
      .trim()
      .refine(
        (code) => code === '' || FORMAS_PAGO.some((f) => f.code === code),
        'Seleccione una forma de pago de la lista',
      )
      .optional(),
    cp: required()
      .max(10, 'Escriba un número válido')
      .regex(/^\d+$/, 'Escriba un número válido')
      .regex(/^\d{5}$/, 'El código postal debe tener 5 dígitos')
      // Only once it has its 5 digits (else the message above is the one to read). The exact check against SAT's
      // c_CodigoPostal, when loaded, is the server's (invoices/postal-codes.ts).
      .refine((cp) => !/^\d{5}$/.test(cp) || postalCodeCanExist(cp), POSTAL_CODE_CANNOT_EXIST),
    /** The shopper confirms an RFC whose check digit does not match (see rfcCheckDigitMessage). */
    rfcConfirmado: z.boolean({ error: 'Valor inválido' }).optional(),
  })
  .superRefine((value, ctx) => {
    const regimen = findRegimen(value.regimenFiscal ?? '');
    const rfc = value.rfc ?? '';
    const persona = personaOfRfc(rfc);
    if (isCompleteRfc(rfc) && !rfcCheckDigitMatches(rfc) && value.rfcConfirmado !== true) {
      ctx.addIssue({ code: 'custom', path: ['rfc'], message: rfcCheckDigitMessage(rfcCheckDigit(rfc)) });
    }
    const capital = persona === 'moral' ? capitalRegimeIn(value.nombreFiscal ?? '') : null;
    if (capital) {
      ctx.addIssue({
        code: 'custom',
        path: ['nombreFiscal'],
        message: capitalRegimeMessage(capital.suffix, capital.without),
      });
    }
    if (regimen && persona && isCompleteRfc(rfc) && !regimenFitsPersona(regimen.code, persona)) {
      const other = persona === 'moral' ? 'fisica' : 'moral';
      ctx.addIssue({
        code: 'custom',
        path: ['regimenFiscal'],
        message: `El régimen ${regimen.code} es para ${personaLabel(other)}; revise el régimen o el RFC`,
      });
      return;
    }
    const uso = findUsoCfdi(value.usoCfdi ?? '');
    const refusal = uso ? usoRefusalFor(uso.code, 'I') : null;
    if (refusal) {
      ctx.addIssue({ code: 'custom', path: ['usoCfdi'], message: refusal });
      return;
    }
    if (regimen && uso && !usoAllowedForRegimen(uso.code, regimen.code)) {
      ctx.addIssue({
        code: 'custom',
        path: ['usoCfdi'],
        message: `El uso ${uso.code} no corresponde al régimen fiscal ${regimen.code}`,
      });
    }
  });

export type InvoiceRequestInput = z.input<typeof invoiceRequestSchema>;
export type InvoiceRequest = z.output<typeof invoiceRequestSchema>;

/** What the history, the receipt and /factura show about an order's invoice. */
export const invoiceStateSchema = z.object({
  orderNumber: z.number().int(),
  /** none: never invoiced (or only cancelled ones when state is 'cancelled'); issued: an active CFDI. */
  state: z.enum(['none', 'issued', 'cancelled']),
  uuid: z.string().nullable(),
  /** True for CFDIs stamped by the built-in sandbox PAC (no fiscal validity). */
  test: z.boolean(),
  issuedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  rfc: z.string().nullable(),
  nombreFiscal: z.string().nullable(),
  totalCents: z.number().int().nullable(),
  /**
   * A cancellation asked of the SAT for the issued invoice: 'pending' while the receptor must accept ("en
   * proceso": the invoice is still valid), 'rejected' when the receptor refused it; null otherwise.
   */
  cancellation: z.enum(['pending', 'rejected']).nullable(),
  cancelRequestedAt: z.string().nullable(),
  /** Whether 'Solicitar factura' applies now; when not, `blockedReason` says why (Spanish). */
  canRequest: z.boolean(),
  blockedReason: z.string().nullable(),
  /**
   * Whether the shopper may still correct the issued invoice themself («Corregir factura» / «Cancelar
   * factura»): once per order, no cancellation under way, within the SAT's cancellation deadline. When not,
   * `correctionBlockedReason` says why (Spanish); null while there is no issued invoice.
   */
  canCorrect: z.boolean(),
  correctionBlockedReason: z.string().nullable(),
  /** Last day to request the invoice (ISO date-time), when the order is paid. */
  deadline: z.string().nullable(),
  /**
   * An order placed for an institution (issue 34): the institution's fiscal data, the receptor the invoice form
   * starts from (decision 058). Absent or null for a personal order.
   */
  institutionReceptor: z
    .object({
      nombreFiscal: z.string(),
      rfc: z.string(),
      regimenFiscal: z.string(),
      usoCfdi: z.string(),
      cp: z.string(),
    })
    .nullable()
    .optional(),
  /**
   * The order's stamped credit notes (CFDI de egreso, relación 01 with the invoice they credit), newest first:
   * the shopper downloads each one's XML and PDF beside the invoice.
   */
  creditNotes: z.array(
    z.object({
      uuid: z.string(),
      serieFolio: z.string(),
      /** The invoice it credits. */
      invoiceUuid: z.string().nullable(),
      totalCents: z.number().int(),
      issuedAt: z.string().nullable(),
      status: z.enum(['issued', 'cancelled']),
    }),
  ),
});
export type InvoiceState = z.infer<typeof invoiceStateSchema>;

/** A credit note of an order, by its folio fiscal (downloads for the shopper and for staff). */
export const creditNoteParamsSchema = orderNumberParamsSchema.extend({
  uuid: z.string().regex(/^[0-9A-Fa-f-]{36}$/, 'Folio fiscal inválido'),
});

export const invoiceActionResponseSchema = z.object({
  message: z.string(),
  invoice: invoiceStateSchema,
});
export type InvoiceActionResponse = z.infer<typeof invoiceActionResponseSchema>;

/**
 * A saved fiscal profile (issue 20): the invoice form's fields under the invoice form's own SAT rules, plus
 * where its invoices are mailed and whether it is the one offered first.
 */
export const fiscalProfileSchema = invoiceRequestSchema.safeExtend({
  email: z
    .union([
      z.literal(''),
      z.email('Escriba un correo electrónico válido').max(254, 'El correo es demasiado largo'),
    ])
    .optional(),
  isDefault: z.boolean({ error: 'Valor inválido' }).optional(),
});
export type FiscalProfileInput = z.input<typeof fiscalProfileSchema>;

export const fiscalProfileViewSchema = z.object({
  id: z.number().int(),
  rfc: z.string(),
  nombreFiscal: z.string(),
  regimenFiscal: z.string(),
  cp: z.string(),
  usoCfdi: z.string(),
  email: z.string(),
  rfcConfirmado: z.boolean(),
  isDefault: z.boolean(),
});
export type FiscalProfile = z.infer<typeof fiscalProfileViewSchema>;
export const fiscalProfileListSchema = z.object({ profiles: z.array(fiscalProfileViewSchema) });
export const fiscalProfileIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Datos fiscales no encontrados' })
    .int('Datos fiscales no encontrados')
    .min(1, 'Datos fiscales no encontrados')
    .max(2_147_483_647, 'Datos fiscales no encontrados'),
});
