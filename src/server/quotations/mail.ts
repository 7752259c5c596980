import { formatMoney } from '../../shared/money.ts';
import type { QuotationDetail } from '../../shared/schemas/quotations.ts';
import type { Db } from '../db/client.ts';
import type { quotations } from '../db/schema.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { quotationFileName, renderQuotationPdf } from './pdf.ts';

const longDate = (iso: string) =>
  new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'America/Mexico_City' }).format(
    new Date(iso),
  );

const INTRO: Record<string, (folio: string) => string> = {
  1: (folio) => `Adjuntamos la cotización ${folio} que solicitó en nuestra tienda en línea.`,
};

/** The quotation's PDF to the buyer, in the transaction that wrote its revision (once per revision). */
export async function enqueueQuotationMail(
  tx: Db,
  q: typeof quotations.$inferSelect,
  detail: QuotationDetail,
  to: string,
  publicUrl: string,
) {
  const pdf = await renderQuotationPdf(detail, to);
  const subject =
    detail.revision === 1
      ? `Cotización ${q.folio}`
      : `Cotización ${q.folio} actualizada (revisión ${detail.revision})`;
  const intro =
    INTRO[detail.revision]?.(q.folio) ??
    `Actualizamos su cotización ${q.folio}: adjuntamos la revisión ${detail.revision}, que sustituye a las anteriores.`;
  const { html, text } = renderMail(
    {
      title: subject,
      preheader: `${formatMoney(detail.totalCents)} · vigente hasta el ${longDate(detail.validUntil)}`,
      greeting: `Hola, ${detail.buyerName}:`,
      blocks: [
        { kind: 'paragraph', text: intro },
        {
          kind: 'rows',
          rows: [
            ['Folio', q.folio],
            ['Total (IVA incluido)', formatMoney(detail.totalCents)],
            ['Vigente hasta', longDate(detail.validUntil)],
            ...(detail.purchaseOrder ? [['Orden de compra', detail.purchaseOrder] as [string, string]] : []),
          ],
        },
        ...(detail.note ? [{ kind: 'paragraph' as const, text: `Observaciones: ${detail.note}` }] : []),
        { kind: 'button', label: 'Ver mis cotizaciones', url: `${publicUrl}/cotizaciones` },
        {
          kind: 'note',
          text: 'Los precios se respetan hasta la fecha de vigencia. Para comprar, abra la cotización en «Mis cotizaciones» y elija «Convertir en pedido».',
        },
      ],
    },
    publicUrl,
  );
  await enqueueMail(tx, {
    kind: 'quotation',
    to,
    subject,
    html,
    text,
    attachments: [
      {
        filename: quotationFileName(q.folio, detail.revision),
        contentType: 'application/pdf',
        contentBase64: Buffer.from(pdf).toString('base64'),
      },
    ],
    dedupeKey: `quotation:${q.folio}:${detail.revision}`,
  });
}
