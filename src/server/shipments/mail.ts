import { eq } from 'drizzle-orm';
import { formatLongDate } from '../../shared/business-days.ts';
import type { Ymd } from '../../shared/mexico-time.ts';
import type { shop } from '../../shared/shop.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { type MailBlock, renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';

/** The mails of shipments (issue 35): one per shipment, the pickup's code and its reminder, goods that arrived. */

async function recipient(tx: Db, userId: number) {
  const [row] = await tx
    .select({ email: users.email, nombre: users.nombre })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

type SentLine = { description: string; quantity: number };

const lineRows = (lines: readonly SentLine[]): MailBlock => ({
  kind: 'rows',
  rows: lines.map((l) => [`${l.quantity} ×`, l.description]),
});

/** 'Envío 1 de su pedido #1042 va en camino', with what is in it, the carrier, the guide and its link. */
export async function enqueueShipmentMail(
  tx: Db,
  order: { number: number; userId: number },
  shipment: {
    id: number;
    seq: number;
    carrierName: string;
    trackingNumber: string | null;
    trackingUrl: string | null;
    estimatedDelivery: string | null;
    lines: readonly SentLine[];
    complete: boolean;
  },
  publicUrl: string,
) {
  const to = await recipient(tx, order.userId);
  if (!to) return;
  const title = `Envío ${shipment.seq} de su pedido #${order.number} va en camino`;
  const rows: [string, string][] = [['Paquetería', shipment.carrierName]];
  if (shipment.trackingNumber) rows.push(['Guía de rastreo', shipment.trackingNumber]);
  if (shipment.estimatedDelivery)
    rows.push(['Entrega estimada', formatLongDate(shipment.estimatedDelivery as Ymd)]);
  const blocks: MailBlock[] = [
    {
      kind: 'paragraph',
      text: shipment.complete
        ? `Enviamos ${shipment.seq === 1 ? 'su pedido' : 'lo que faltaba de su pedido'} #${order.number}. Contiene:`
        : `Enviamos una parte de su pedido #${order.number}; el resto se lo enviaremos en cuanto esté listo. Este envío contiene:`,
    },
    lineRows(shipment.lines),
    { kind: 'rows', rows },
  ];
  if (shipment.trackingUrl)
    blocks.push({ kind: 'button', label: 'Rastrear el envío', url: shipment.trackingUrl });
  blocks.push({ kind: 'button', label: 'Ver mi pedido', url: `${publicUrl}/historial` });
  const { html, text } = renderMail(
    {
      title,
      preheader: `${shipment.carrierName}${shipment.trackingNumber ? ` · guía ${shipment.trackingNumber}` : ''}`,
      greeting: `Hola, ${to.nombre}:`,
      blocks,
    },
    publicUrl,
  );
  await enqueueMail(tx, {
    kind: 'order-shipment',
    to: to.email,
    subject: title,
    html,
    text,
    dedupeKey: `order-shipment:${shipment.id}`,
  });
}

export type Branch = (typeof shop.branches)[number];

const branchRows = (branch: Branch): [string, string][] => [
  ['Sucursal', branch.name],
  ['Dirección', branch.address],
  ['Horario', branch.hours],
  ['Teléfono', branch.phones.join(', ')],
];

/** 'Listo para recoger': the code to give at the branch, the branch's address and hours. */
export async function enqueuePickupReadyMail(
  tx: Db,
  order: { number: number; userId: number },
  ready: { shipmentId: number; code: string; branch: Branch; lines: readonly SentLine[]; complete: boolean },
  publicUrl: string,
) {
  const to = await recipient(tx, order.userId);
  if (!to) return;
  const title = `Su pedido #${order.number} está listo para recoger`;
  const { html, text } = renderMail(
    {
      title,
      preheader: `${ready.branch.name} · código ${ready.code}`,
      greeting: `Hola, ${to.nombre}:`,
      blocks: [
        {
          kind: 'paragraph',
          text: ready.complete
            ? `Su pedido #${order.number} lo espera en ${ready.branch.name}. Al recogerlo, dé este código y muestre una identificación oficial:`
            : `Una parte de su pedido #${order.number} lo espera en ${ready.branch.name} (el resto le avisaremos cuando llegue). Al recogerlo, dé este código y muestre una identificación oficial:`,
        },
        { kind: 'code', text: ready.code },
        lineRows(ready.lines),
        { kind: 'rows', rows: branchRows(ready.branch) },
        { kind: 'button', label: 'Ver mi pedido', url: `${publicUrl}/historial` },
        {
          kind: 'note',
          text: 'Puede recogerlo otra persona si trae este código y su identificación. Recoger en sucursal no tiene costo de envío.',
        },
      ],
    },
    publicUrl,
  );
  await enqueueMail(tx, {
    kind: 'pickup-ready',
    to: to.email,
    subject: title,
    html,
    text,
    dedupeKey: `pickup-ready:${ready.shipmentId}`,
  });
}

/** The pickup still waits after N days: one reminder with the same code. */
export async function enqueuePickupReminderMail(
  tx: Db,
  order: { number: number; userId: number },
  code: string,
  branch: Branch,
  days: number,
  publicUrl: string,
) {
  const to = await recipient(tx, order.userId);
  if (!to) return;
  const title = `Su pedido #${order.number} sigue esperándolo en ${branch.name}`;
  const { html, text } = renderMail(
    {
      title,
      greeting: `Hola, ${to.nombre}:`,
      blocks: [
        {
          kind: 'paragraph',
          text: `Hace ${days} días que su pedido #${order.number} está listo para recoger. Lo guardamos para usted; pase por él con este código y una identificación oficial:`,
        },
        { kind: 'code', text: code },
        { kind: 'rows', rows: branchRows(branch) },
      ],
    },
    publicUrl,
  );
  await enqueueMail(tx, {
    kind: 'pickup-reminder',
    to: to.email,
    subject: title,
    html,
    text,
    dedupeKey: `pickup-reminder:${order.number}`,
  });
}

/** A backordered line's window passed: the new dates, and that the buyer may give those units up with a refund. */
export async function enqueueBackorderLateMail(
  tx: Db,
  order: { number: number; userId: number },
  line: {
    lineNo: number;
    description: string;
    awaited: number;
    promised: string;
    from: string;
    to: string;
    refund: string;
  },
  publicUrl: string,
) {
  const to = await recipient(tx, order.userId);
  if (!to) return;
  const title = `Se retrasa parte de su pedido #${order.number}`;
  const window =
    line.from === line.to
      ? `el ${formatLongDate(line.to as Ymd)}`
      : `entre el ${formatLongDate(line.from as Ymd)} y el ${formatLongDate(line.to as Ymd)}`;
  const { html, text } = renderMail(
    {
      title,
      greeting: `Hola, ${to.nombre}:`,
      blocks: [
        {
          kind: 'paragraph',
          text: `Lo sentimos: ${line.awaited} × ${line.description}, que pidió sobre pedido, no llegó para el ${formatLongDate(line.promised as Ymd)} como le prometimos. Nuestro proveedor lo entrega ahora ${window}.`,
        },
        {
          kind: 'paragraph',
          text: `Si prefiere no esperar, puede cancelar esa parte desde «Historial de pedidos» y le reembolsamos ${line.refund} por la misma vía con la que pagó. El resto de su pedido sigue su curso.`,
        },
        { kind: 'button', label: 'Ver mi pedido', url: `${publicUrl}/historial` },
      ],
    },
    publicUrl,
  );
  await enqueueMail(tx, {
    kind: 'backorder-late',
    to: to.email,
    subject: title,
    html,
    text,
    dedupeKey: `backorder-late:${order.number}:${line.lineNo}:${line.promised}`,
  });
}
