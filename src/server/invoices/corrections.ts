import { mexicoCityDate, mexicoDayStart, mexicoLongDate } from '../../shared/mexico-time.ts';
import type { InvoiceRow } from './context.ts';

/** Who may correct (cancel or replace) an issued invoice, and until when (decision 016). */

export type CorrectionBlock = { message: string; code: string };

/**
 * Why a correction (cancel or replace) of `active` cannot go on now, or null: a cancellation under way, the SAT's
 * deadline (everyone); for a shopper also one correction per order and none after the receptor rejected one.
 */
export function correctionBlock(
  active: InvoiceRow,
  rows: InvoiceRow[],
  now: Date,
  by: 'shopper' | 'staff',
): CorrectionBlock | null {
  if (active.cancelStatus === 'pending') return { message: CANCEL_IN_PROGRESS, code: 'cancel_in_progress' };
  if (by === 'shopper') {
    if (active.cancelStatus === 'rejected') return { message: CANCEL_REJECTED, code: 'cancel_rejected' };
    if (rows.some((r) => (r.status === 'cancelled' || r.status === 'replaced') && r.kind === 'I')) {
      return { message: SELF_SERVICE_LIMIT, code: 'self_service_limit' };
    }
  }
  const deadline = cancellationDeadline(active.issuedAt ?? active.createdAt);
  if (now.getTime() > deadline.getTime()) {
    return { message: cancelDeadlineMessage(deadline), code: 'cancel_deadline' };
  }
  return null;
}

const cancelDeadlineMessage = (deadline: Date) =>
  `El plazo para cancelar esta factura terminó el ${mexicoLongDate(deadline)} (Código Fiscal de la Federación, art. 29-A)`;

export const CANCEL_IN_PROGRESS =
  'La cancelación de esta factura está en proceso: el SAT espera la respuesta del receptor';
export const CANCEL_REJECTED =
  'El receptor rechazó la cancelación ante el SAT; la factura sigue vigente. Contacte al personal de la tienda.';
export const SELF_SERVICE_LIMIT =
  'Este pedido ya tuvo una corrección de factura; para otra, contacte al personal de la tienda';

/**
 * The last day to cancel a CFDI (CFF art. 29-A, párrafo cuarto, since 2022): until the month in which the annual
 * ISR return of the fiscal year of issue is due. The shop is a persona moral, whose return is due by 31 March of
 * the following year (LISR art. 76 fr. V), so: 31 March of the year after the issue, end of day, Mexico City.
 */
export function cancellationDeadline(issuedAt: Date): Date {
  const year = Number(mexicoCityDate(issuedAt).slice(0, 4));
  return new Date(mexicoDayStart(`${year + 1}-04-01`).getTime() - 1);
}
