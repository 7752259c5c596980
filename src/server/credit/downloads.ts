import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { creditPayments } from '../db/schema.ts';
import type { Attachment } from '../http/attachment.ts';
import { notFound } from '../http/errors.ts';
import { renderPaymentPdf } from '../invoices/pdf-pago.ts';

/**
 * The XML (as the PAC returned it) or the PDF of a payment's CFDI de pago. `institutionId`: the institution asking
 * (a member's download) — another institution's payment is «not found»; null for staff.
 */
export async function paymentCfdiFile(
  db: Db,
  paymentId: number,
  format: 'xml' | 'pdf',
  institutionId: number | null,
): Promise<[Buffer | Uint8Array | string, Attachment]> {
  const [row] = await db
    .select()
    .from(creditPayments)
    .where(
      and(
        eq(creditPayments.id, paymentId),
        ...(institutionId === null ? [] : [eq(creditPayments.institutionId, institutionId)]),
      ),
    );
  if (!row || row.cfdiStatus !== 'issued' || !row.xml || !row.snapshot || !row.uuid)
    throw notFound('El CFDI de pago no existe o aún no se ha timbrado');
  const base = `cfdi-pago-${row.serie ?? ''}${row.folio ?? ''}-${row.uuid}`;
  if (format === 'xml')
    return [row.xml, { filename: `${base}.xml`, type: 'application/xml; charset=utf-8', cache: 'private' }];
  const pdf = await renderPaymentPdf({ uuid: row.uuid, test: row.test, snapshot: row.snapshot });
  return [pdf, { filename: `${base}.pdf`, type: 'application/pdf', cache: 'private' }];
}
