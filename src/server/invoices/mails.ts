import { formatMoney } from '../../shared/money.ts';
import { CANCEL_MOTIVO_TEXT, type CancelMotivo } from '../../shared/sat-motivos.ts';
import { renderMail } from '../mail/layout.ts';
import type { OutgoingMail } from '../mail/outbox.ts';

type Person = { email: string; nombre: string };

type IssuedInvoice = {
  orderNumber: number;
  uuid: string;
  rfc: string;
  nombreFiscal: string;
  totalCents: number;
  test: boolean;
  fileBase: string;
  xml: string;
  pdf: Uint8Array;
};

const attachmentsOf = (cfdi: Pick<IssuedInvoice, 'fileBase' | 'xml' | 'pdf'>) => [
  {
    filename: `${cfdi.fileBase}.xml`,
    contentType: 'application/xml',
    contentBase64: Buffer.from(cfdi.xml, 'utf8').toString('base64'),
  },
  {
    filename: `${cfdi.fileBase}.pdf`,
    contentType: 'application/pdf',
    contentBase64: Buffer.from(cfdi.pdf).toString('base64'),
  },
];

/** 'Su factura del pedido #N' with the XML and the PDF attached (sent by the outbox worker). */
export function invoiceIssuedMail(to: Person, invoice: IssuedInvoice, publicUrl: string): OutgoingMail {
  return {
    kind: 'invoice-issued',
    to: to.email,
    subject: `Su factura del pedido #${invoice.orderNumber}`,
    dedupeKey: `invoice-issued:${invoice.uuid}`,
    attachments: attachmentsOf(invoice),
    ...renderMail(
      {
        title: 'Su factura está lista',
        preheader: `CFDI 4.0 del pedido #${invoice.orderNumber}`,
        greeting: `Hola, ${to.nombre}:`,
        blocks: [
          {
            kind: 'paragraph',
            text: `Adjuntamos la factura (CFDI 4.0) de su pedido #${invoice.orderNumber} en XML y en PDF.`,
          },
          {
            kind: 'rows',
            rows: [
              ['Folio fiscal (UUID)', invoice.uuid],
              ['RFC', invoice.rfc],
              ['Nombre fiscal', invoice.nombreFiscal],
              ['Total', `${formatMoney(invoice.totalCents)} MXN`],
            ],
          },
          ...(invoice.test
            ? [
                {
                  kind: 'note' as const,
                  text: 'Esta factura se timbró con el PAC de pruebas: no tiene validez fiscal.',
                },
              ]
            : []),
          { kind: 'button', label: 'Ver mis pedidos', url: `${publicUrl}/historial` },
          {
            kind: 'note',
            text: 'También puede descargar el XML y el PDF desde la página de facturación de su pedido.',
          },
        ],
      },
      publicUrl,
    ),
  };
}

/** 'Nota de crédito del pedido #N' (CFDI de egreso related to the invoice) with its XML and PDF attached. */
export function creditNoteIssuedMail(
  to: Person,
  note: IssuedInvoice & { invoiceUuid: string },
  publicUrl: string,
): OutgoingMail {
  return {
    kind: 'credit-note-issued',
    to: to.email,
    subject: `Nota de crédito del pedido #${note.orderNumber}`,
    dedupeKey: `credit-note-issued:${note.uuid}`,
    attachments: attachmentsOf(note),
    ...renderMail(
      {
        title: 'Le emitimos una nota de crédito',
        preheader: `CFDI de egreso del pedido #${note.orderNumber}`,
        greeting: `Hola, ${to.nombre}:`,
        blocks: [
          {
            kind: 'paragraph',
            text: `Adjuntamos la nota de crédito (CFDI 4.0 de egreso) de su pedido #${note.orderNumber} en XML y en PDF. Disminuye el importe de su factura, que sigue vigente.`,
          },
          {
            kind: 'rows',
            rows: [
              ['Folio fiscal (UUID)', note.uuid],
              ['Factura relacionada', note.invoiceUuid],
              ['RFC', note.rfc],
              ['Nombre fiscal', note.nombreFiscal],
              ['Importe (IVA incluido)', `${formatMoney(note.totalCents)} MXN`],
            ],
          },
          ...(note.test
            ? [
                {
                  kind: 'note' as const,
                  text: 'Esta nota de crédito se timbró con el PAC de pruebas: no tiene validez fiscal.',
                },
              ]
            : []),
          { kind: 'button', label: 'Ver mis pedidos', url: `${publicUrl}/historial` },
        ],
      },
      publicUrl,
    ),
  };
}

/** What the shopper may do after the cancellation, by its motivo (a new request only after an error, 02). */
const AFTER_CANCEL: Record<CancelMotivo, string> = {
  '01': 'La sustituye la factura corregida que le enviamos por separado.',
  '02': 'Si necesita una factura con otros datos, puede solicitarla de nuevo mientras el pedido esté dentro del plazo de facturación.',
  '03': 'El pedido se canceló y su pago fue reembolsado, por lo que la venta no se realizó.',
  '04': 'La operación quedó incluida en una factura global.',
};

export function invoiceCancelledMail(
  to: Person,
  invoice: { orderNumber: number; uuid: string; motivo: CancelMotivo },
  publicUrl: string,
): OutgoingMail {
  return {
    kind: 'invoice-cancelled',
    to: to.email,
    subject: `Factura cancelada del pedido #${invoice.orderNumber}`,
    dedupeKey: `invoice-cancelled:${invoice.uuid}`,
    ...renderMail(
      {
        title: 'Factura cancelada',
        preheader: `Folio fiscal ${invoice.uuid}`,
        greeting: `Hola, ${to.nombre}:`,
        blocks: [
          {
            kind: 'paragraph',
            text: `Cancelamos ante el SAT la factura de su pedido #${invoice.orderNumber} (motivo ${invoice.motivo}: ${CANCEL_MOTIVO_TEXT[invoice.motivo]}).`,
          },
          { kind: 'rows', rows: [['Folio fiscal (UUID)', invoice.uuid]] },
          { kind: 'paragraph', text: AFTER_CANCEL[invoice.motivo] },
          invoice.motivo === '02'
            ? {
                kind: 'button',
                label: 'Solicitar factura',
                url: `${publicUrl}/factura/${invoice.orderNumber}`,
              }
            : { kind: 'button', label: 'Ver factura', url: `${publicUrl}/factura/${invoice.orderNumber}` },
        ],
      },
      publicUrl,
    ),
  };
}
