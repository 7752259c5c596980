import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { AGING_BUCKETS } from '../../shared/credit.ts';
import { formatMoney } from '../../shared/money.ts';
import type { Statement } from '../../shared/schemas/credit.ts';
import { shop } from '../../shared/shop.ts';
import { BRAND, BRAND_LIGHT, INK, LINE, MUTED, PAGE, RED, Writer } from '../pdf/writer.ts';

/**
 * The estado de cuenta as a letter-size PDF (decision 060): the shop's header, the institution and its credit line,
 * the balance and its aging, the open invoices, the payments with their CFDI de pago, the credit notes.
 */
const date = (iso: string) =>
  new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeZone: 'America/Mexico_City' }).format(
    new Date(iso),
  );

type Column = { title: string; width: number; align?: 'right' };

function table(w: Writer, title: string, columns: Column[], rows: string[][], empty: string) {
  const { margin, width } = PAGE;
  w.ensure(60);
  w.text(title, margin, w.y - 10, 9, w.bold, BRAND);
  w.y -= 16;
  const head = () => {
    w.page.drawRectangle({ x: margin, y: w.y - 15, width: width - 2 * margin, height: 15, color: BRAND });
    let x = margin + 4;
    for (const c of columns) {
      const tx = c.align === 'right' ? x + c.width - 8 - w.width(c.title, 7, w.bold) : x;
      w.text(c.title, tx, w.y - 10.5, 7, w.bold, rgb(1, 1, 1));
      x += c.width;
    }
    w.y -= 18;
  };
  head();
  if (rows.length === 0) {
    w.text(empty, margin + 4, w.y - 9, 8, w.font, MUTED);
    w.y -= 18;
    return;
  }
  for (const row of rows) {
    if (w.y - 16 < PAGE.margin + 24) {
      w.newPage();
      head();
    }
    let x = margin + 4;
    row.forEach((cell, i) => {
      const c = columns[i]!;
      const text = w.wrap(cell, c.width - 6, 7.5)[0] ?? '';
      const tx = c.align === 'right' ? x + c.width - 8 - w.width(text, 7.5) : x;
      w.text(text, tx, w.y - 9, 7.5);
      x += c.width;
    });
    w.y -= 14;
    w.page.drawLine({
      start: { x: margin, y: w.y + 2 },
      end: { x: width - margin, y: w.y + 2 },
      thickness: 0.5,
      color: LINE,
    });
  }
  w.y -= 10;
}

export async function renderStatementPdf(s: Statement): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Estado de cuenta · ${s.institution.razonSocial} · ${s.asOf.slice(0, 10)}`);
  doc.setAuthor(shop.legalName);
  doc.setLanguage('es-MX');
  const asOf = new Date(s.asOf);
  doc.setCreationDate(asOf);
  doc.setModificationDate(asOf);
  const w = new Writer(
    doc,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
    await doc.embedFont(StandardFonts.Courier),
  );
  const { margin, width } = PAGE;

  // Header: the shop, and the document's box.
  w.page.drawRectangle({ x: 0, y: PAGE.height - 6, width, height: 6, color: BRAND });
  w.text(shop.tradeName, margin, w.y - 14, 18, w.bold, BRAND);
  w.text(shop.legalName, margin, w.y - 28, 8.5, w.font, MUTED);
  const a = shop.address;
  w.text(`${a.street}, ${a.neighbourhood}`, margin, w.y - 42, 8);
  w.text(`${a.postalCode} ${a.city}, ${a.state}`, margin, w.y - 52, 8);
  w.text(`Tel. ${shop.phones.join(' · ')} · ${shop.email}`, margin, w.y - 62, 8);
  const boxW = 220;
  const boxX = width - margin - boxW;
  const top = w.y;
  w.page.drawRectangle({ x: boxX, y: top - 62, width: boxW, height: 62, color: BRAND_LIGHT });
  w.text('ESTADO DE CUENTA', boxX + 10, top - 16, 12, w.bold, BRAND);
  w.text(`Al ${date(s.asOf)}`, boxX + 10, top - 30, 8.5);
  w.text('Importes en pesos mexicanos, IVA incluido', boxX + 10, top - 42, 7, w.font, MUTED);
  w.y = top - 80;

  // The institution and its line.
  w.text('CLIENTE', margin, w.y - 8, 8, w.bold, BRAND);
  w.page.drawLine({
    start: { x: margin, y: w.y - 12 },
    end: { x: width - margin, y: w.y - 12 },
    thickness: 0.8,
    color: BRAND,
  });
  w.text(s.institution.razonSocial, margin, w.y - 26, 10, w.bold);
  w.text(`RFC ${s.institution.rfc}`, margin, w.y - 38, 8.5);
  const facts: [string, string][] = [
    ['Línea de crédito', s.limitCents === null ? 'Sin línea' : formatMoney(s.limitCents)],
    ['Plazo', s.days === null ? '—' : `${s.days} días`],
    ['Saldo', formatMoney(s.balanceCents)],
    ['Disponible', s.availableCents === null ? '—' : formatMoney(s.availableCents)],
  ];
  let fx = width - margin - 4 * 78;
  for (const [label, value] of facts) {
    w.text(label, fx, w.y - 24, 7, w.bold, MUTED);
    w.text(value, fx, w.y - 37, 9.5, label === 'Saldo' ? w.bold : w.font, label === 'Saldo' ? BRAND : INK);
    fx += 78;
  }
  w.y -= 50;
  if (s.onHold && s.holdReason) {
    const lines = w.wrap(s.holdReason, width - 2 * margin - 30, 8, w.bold);
    const h = 10 + lines.length * 10;
    w.page.drawRectangle({
      x: margin,
      y: w.y - h,
      width: width - 2 * margin,
      height: h,
      color: rgb(1, 0.94, 0.94),
      borderColor: RED,
      borderWidth: 0.8,
    });
    lines.forEach((line, i) => {
      w.text(line, margin + 10, w.y - 13 - i * 10, 8, w.bold, RED);
    });
    w.y -= h + 8;
  }

  // Aging.
  w.text('ANTIGÜEDAD DE SALDOS (días desde la emisión de la factura)', margin, w.y - 10, 9, w.bold, BRAND);
  w.y -= 16;
  const cellW = (width - 2 * margin) / 5;
  const cells: [string, number][] = [
    ...AGING_BUCKETS.map((b) => [b.label, s.aging[b.key]] as [string, number]),
    ['Total facturado pendiente', Object.values(s.aging).reduce((t, c) => t + c, 0)],
  ];
  cells.forEach(([label, cents], i) => {
    const x = margin + i * cellW;
    w.page.drawRectangle({
      x: x + 2,
      y: w.y - 36,
      width: cellW - 4,
      height: 36,
      color: i === 4 ? BRAND : BRAND_LIGHT,
    });
    const color = i === 4 ? rgb(1, 1, 1) : INK;
    w.text(label, x + 8, w.y - 12, 7, w.bold, i === 4 ? rgb(1, 1, 1) : MUTED);
    w.text(formatMoney(cents), x + 8, w.y - 28, 10, w.bold, color);
  });
  w.y -= 50;

  table(
    w,
    'FACTURAS PENDIENTES',
    [
      { title: 'Factura', width: 56 },
      { title: 'Pedido', width: 44 },
      { title: 'Orden de compra', width: 86 },
      { title: 'Emitida', width: 58 },
      { title: 'Vence', width: 58 },
      { title: 'Días venc.', width: 44, align: 'right' },
      { title: 'Total', width: 62, align: 'right' },
      { title: 'Abonos', width: 62, align: 'right' },
      { title: 'Saldo', width: 62, align: 'right' },
    ],
    s.openInvoices.map((i) => [
      i.serieFolio,
      `#${i.orderNumber}`,
      i.purchaseOrder ?? '—',
      date(i.issuedAt),
      date(i.dueAt),
      i.daysPastDue > 0 ? String(i.daysPastDue) : '—',
      formatMoney(i.totalCents),
      formatMoney(i.paidCents + i.creditedCents),
      formatMoney(i.balanceCents),
    ]),
    'No hay facturas con saldo pendiente.',
  );
  table(
    w,
    'PAGOS RECIBIDOS',
    [
      { title: 'Fecha', width: 62 },
      { title: 'Referencia', width: 110 },
      { title: 'Aplicado a', width: 150 },
      { title: 'CFDI de pago', width: 130 },
      { title: 'Importe', width: 80, align: 'right' },
    ],
    s.payments.map((p) => [
      date(`${p.receivedOn}T18:00:00Z`),
      p.bankReference,
      p.invoices.map((i) => `${i.serieFolio} (${i.numParcialidad})`).join(', '),
      p.uuid ? `${p.serieFolio ?? ''} ${p.uuid.slice(0, 8)}…` : 'En trámite',
      formatMoney(p.amountCents),
    ]),
    'Sin pagos registrados.',
  );
  table(
    w,
    'NOTAS DE CRÉDITO',
    [
      { title: 'Nota', width: 70 },
      { title: 'Factura', width: 70 },
      { title: 'Fecha', width: 80 },
      { title: 'Folio fiscal (UUID)', width: 232 },
      { title: 'Importe', width: 80, align: 'right' },
    ],
    s.creditNotes.map((n) => [
      n.serieFolio,
      n.relatedSerieFolio,
      date(n.issuedAt),
      n.uuid,
      formatMoney(n.totalCents),
    ]),
    'Sin notas de crédito.',
  );
  w.ensure(40);
  for (const line of w.wrap(
    `Pague por transferencia a la cuenta de ${shop.legalName} indicando el número de factura; por cada pago emitimos su CFDI de pago (complemento para recepción de pagos 2.0).`,
    width - 2 * margin,
    7.5,
  )) {
    w.text(line, margin, w.y - 8, 7.5, w.font, MUTED);
    w.y -= 10;
  }

  w.pages.forEach((page, i) => {
    const label = `Página ${i + 1} de ${w.pages.length}`;
    page.drawText(`Estado de cuenta de ${w.safe(s.institution.razonSocial)}`, {
      x: margin,
      y: 22,
      size: 7,
      font: w.font,
      color: MUTED,
    });
    page.drawText(label, {
      x: width - margin - w.font.widthOfTextAtSize(label, 7),
      y: 22,
      size: 7,
      font: w.font,
      color: MUTED,
    });
  });
  return doc.save();
}
