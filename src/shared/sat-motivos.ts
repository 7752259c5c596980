/**
 * The SAT's motivos de cancelación of a CFDI (Anexo 20, catálogo de motivos de cancelación; CFF art. 29-A since
 * 2022): the one home of the codes, the SAT's wording and which one needs the substitute CFDI's UUID
 * (FolioSustitucion). Decision 016 says which flow uses which.
 */
export const SAT_CANCEL_MOTIVOS = {
  '01': { label: 'Comprobante emitido con errores con relación', needsSubstitute: true },
  '02': { label: 'Comprobante emitido con errores sin relación', needsSubstitute: false },
  '03': { label: 'No se llevó a cabo la operación', needsSubstitute: false },
  '04': { label: 'Operación nominativa relacionada en una factura global', needsSubstitute: false },
} as const;

export type CancelMotivo = keyof typeof SAT_CANCEL_MOTIVOS;

/** What staff may choose: 01 is not a choice but the outcome of a replacement (its own action). */
export const STAFF_CANCEL_MOTIVOS = ['02', '03', '04'] as const satisfies readonly CancelMotivo[];

/** The SAT's words inside a sentence («motivo 03: no se llevó a cabo la operación»): PDF banner and mails. */
export const CANCEL_MOTIVO_TEXT = Object.fromEntries(
  Object.entries(SAT_CANCEL_MOTIVOS).map(([code, { label }]) => [
    code,
    label.charAt(0).toLowerCase() + label.slice(1),
  ]),
) as Record<CancelMotivo, string>;
