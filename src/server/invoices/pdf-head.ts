import { rgb } from 'pdf-lib';
import { findRegimen, findUsoCfdi } from '../../shared/sat-catalogs.ts';
import { CANCEL_MOTIVO_TEXT, type CancelMotivo } from '../../shared/sat-motivos.ts';
import { shop } from '../../shared/shop.ts';
import { BRAND, BRAND_LIGHT, MUTED, PAGE, RED, type Writer } from '../pdf/writer.ts';
import { FORMA_PAGO_TEXT } from './forma-pago.ts';
import type { InvoicePdfInput } from './pdf.ts';

/** The top of an invoice's PDF: the issuer's header, the state banners and the parties (pdf.ts lays the rest). */

const motivoText = (motivo: string) => {
  const text = CANCEL_MOTIVO_TEXT[motivo as CancelMotivo];
  return text ? `${motivo}: ${text}` : motivo;
};

const RELATION_TEXT: Record<string, string> = {
  '01': '01 - Nota de crédito de los documentos relacionados',
  '04': '04 - Sustitución de los CFDI previos',
};

const regimenText = (code: string) => `${code} - ${findRegimen(code)?.description ?? ''}`;
const usoText = (code: string) => `${code} - ${findUsoCfdi(code)?.description ?? ''}`;
const formaPagoText = (code: string) => `${code} - ${FORMA_PAGO_TEXT[code] ?? ''}`;

function labelValue(w: Writer, x: number, y: number, label: string, value: string, width: number): number {
  w.text(label, x, y, 7, w.bold, MUTED);
  const lines = w.wrap(value, width, 8.5);
  lines.forEach((line, i) => {
    w.text(line, x, y - 11 - i * 10.5, 8.5);
  });
  return 11 + lines.length * 10.5 + 4;
}

export function header(w: Writer, input: InvoicePdfInput) {
  const s = input.snapshot;
  const { margin, width } = PAGE;
  w.page.drawRectangle({ x: 0, y: PAGE.height - 6, width, height: 6, color: BRAND });
  w.text(shop.tradeName, margin, w.y - 14, 18, w.bold, BRAND);
  w.text(shop.tagline, margin, w.y - 28, 8.5, w.font, MUTED);
  const a = shop.address;
  w.text(`${a.street}, ${a.neighbourhood}`, margin, w.y - 44, 8);
  w.text(`${a.postalCode} ${a.city}, ${a.state}, ${a.country}`, margin, w.y - 54, 8);
  w.text(`Tel. ${shop.phones.join(' · ')}`, margin, w.y - 64, 8);
  w.text(shop.email, margin, w.y - 74, 8);

  const boxW = 250;
  const boxX = width - margin - boxW;
  const top = w.y;
  w.page.drawRectangle({ x: boxX, y: top - 92, width: boxW, height: 92, color: BRAND_LIGHT });
  const egreso = s.tipoDeComprobante === 'E';
  const pago = s.tipoDeComprobante === 'P';
  w.text(
    pago ? 'CFDI DE PAGO · CFDI 4.0' : egreso ? 'NOTA DE CRÉDITO · CFDI 4.0' : 'FACTURA · CFDI 4.0',
    boxX + 10,
    top - 16,
    11,
    w.bold,
    BRAND,
  );
  w.text(
    pago
      ? 'Comprobante de recepción de pagos (P) · Pagos 2.0'
      : egreso
        ? 'Comprobante de egreso (E)'
        : 'Comprobante de ingreso (I)',
    boxX + 10,
    top - 28,
    7.5,
    w.font,
    MUTED,
  );
  const rows: [string, string][] = [
    ['Serie y folio', `${s.serie ?? ''}${s.folio ?? ''}` || '—'],
    ['Folio fiscal (UUID)', input.uuid],
    ['Fecha de emisión', s.fecha.replace('T', ' ')],
    ['Fecha de certificación', s.fechaTimbrado.replace('T', ' ')],
    ['Lugar de expedición', s.lugarExpedicion],
  ];
  rows.forEach(([label, value], i) => {
    const yy = top - 42 - i * 10;
    w.text(label, boxX + 10, yy, 7, w.bold, MUTED);
    const mono = label.startsWith('Folio fiscal');
    w.text(value, boxX + 92, yy, mono ? 7 : 7.5, mono ? w.mono : w.font);
  });
  w.y = top - 104;
}

export function banners(w: Writer, input: InvoicePdfInput) {
  const { margin, width } = PAGE;
  const messages: string[] = [];
  if (input.status === 'cancelled') {
    const when = input.cancelledAt ? ` el ${input.cancelledAt.toISOString().slice(0, 10)}` : '';
    const what = input.snapshot.tipoDeComprobante === 'E' ? 'NOTA DE CRÉDITO CANCELADA' : 'FACTURA CANCELADA';
    messages.push(`${what}${when}${input.cancelMotivo ? ` (motivo ${motivoText(input.cancelMotivo)})` : ''}`);
  }
  if (input.test) messages.push('SIN VALIDEZ FISCAL · Timbrado de prueba (PAC de pruebas); no es deducible');
  for (const message of messages) {
    w.page.drawRectangle({
      x: margin,
      y: w.y - 20,
      width: width - 2 * margin,
      height: 20,
      color: rgb(1, 0.94, 0.94),
      borderColor: RED,
      borderWidth: 0.8,
    });
    w.text(message, margin + 10, w.y - 13.5, 8.5, w.bold, RED);
    w.y -= 26;
  }
}

export function parties(w: Writer, input: InvoicePdfInput) {
  const s = input.snapshot;
  const { margin, width } = PAGE;
  const colW = (width - 2 * margin - 16) / 2;
  const top = w.y;
  const cols: [string, [string, string][]][] = [
    [
      'EMISOR',
      [
        ['RFC', s.emisor.rfc],
        ['Nombre o razón social', s.emisor.nombre],
        ['Régimen fiscal', regimenText(s.emisor.regimenFiscal)],
      ],
    ],
    [
      'RECEPTOR',
      [
        ['RFC', s.receptor.rfc],
        ['Nombre o razón social', s.receptor.nombre],
        ['Domicilio fiscal (C.P.)', s.receptor.domicilioFiscal],
        ['Régimen fiscal', regimenText(s.receptor.regimenFiscal)],
        ['Uso del CFDI', usoText(s.receptor.usoCfdi)],
      ],
    ],
  ];
  let lowest = top;
  cols.forEach(([title, rows], i) => {
    const x = margin + i * (colW + 16);
    w.text(title, x, top - 10, 8, w.bold, BRAND);
    w.page.drawLine({
      start: { x, y: top - 14 },
      end: { x: x + colW, y: top - 14 },
      thickness: 0.8,
      color: BRAND,
    });
    let y = top - 26;
    for (const [label, value] of rows) y -= labelValue(w, x, y, label, value, colW);
    lowest = Math.min(lowest, y);
  });
  w.y = lowest - 2;

  // A CFDI de pago (decision 060) states no FormaPago nor MetodoPago: its money is in the complemento.
  const facts: [string, string][] =
    s.tipoDeComprobante === 'P'
      ? [
          ['Tipo', 'P - Pago'],
          ['Concepto', '84111506 - Servicios de facturación'],
          ['Unidad', 'ACT - Actividad'],
          ['Moneda', 'XXX - Sin moneda'],
          ['Exportación', '01 - No aplica'],
        ]
      : [
          ['Pedido', `#${input.orderNumber}`],
          ['Forma de pago', formaPagoText(s.formaPago)],
          [
            'Método de pago',
            s.metodoPago === 'PPD'
              ? 'PPD - Pago en parcialidades o diferido'
              : 'PUE - Pago en una sola exhibición',
          ],
          ['Moneda', 'MXN - Peso mexicano'],
          ['Exportación', '01 - No aplica'],
        ];
  // 532 pt across. The widest Forma de pago ('03 - Transferencia electrónica de fondos', every SPEI invoice) gets
  // its own room; any value still wider than its column wraps inside it and the band grows, never overprints.
  const widths = [50, 160, 132, 100, 90];
  const cells = facts.map(([label, value], i) => ({
    label,
    lines: w.wrap(value, (widths[i] ?? 100) - 8, 7.5),
  }));
  const bandHeight = 18 + Math.max(...cells.map((c) => c.lines.length)) * 9.5 + 2;
  w.page.drawRectangle({
    x: margin,
    y: w.y - bandHeight,
    width: width - 2 * margin,
    height: bandHeight,
    color: BRAND_LIGHT,
  });
  let fx = margin + 8;
  cells.forEach(({ label, lines }, i) => {
    w.text(label, fx, w.y - 11, 6.5, w.bold, MUTED);
    lines.forEach((line, j) => {
      w.text(line, fx, w.y - 23 - j * 9.5, 7.5);
    });
    fx += widths[i] ?? 100;
  });
  w.y -= bandHeight + 12;
  if (s.purchaseOrder) {
    w.text('ORDEN DE COMPRA DEL CLIENTE', margin, w.y - 4, 7.5, w.bold, BRAND);
    w.text(s.purchaseOrder, margin + 132, w.y - 4, 9, w.bold);
    w.y -= 16;
  }
  if (s.deliveryNote) {
    w.text('ENTREGA', margin, w.y - 4, 7.5, w.bold, BRAND);
    w.text(s.deliveryNote, margin + 132, w.y - 4, 8.5, w.bold);
    w.y -= 16;
  }
  const related = s.cfdiRelacionados;
  if (related && related.uuids.length > 0) {
    w.text('CFDI RELACIONADOS', margin, w.y - 8, 7.5, w.bold, BRAND);
    w.text(
      `Tipo de relación ${RELATION_TEXT[related.tipoRelacion] ?? related.tipoRelacion}`,
      margin,
      w.y - 19,
      7.5,
    );
    related.uuids.forEach((uuid, i) => {
      w.text(`Folio fiscal (UUID): ${uuid}`, margin, w.y - 30 - i * 10, 7.5, w.mono);
    });
    w.y -= 38 + related.uuids.length * 10;
  }
}
