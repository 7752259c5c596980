import { sql } from 'drizzle-orm';
import { formatMoney } from '../../shared/money.ts';
import type { Db } from '../db/client.ts';
import type { AddressSnapshot } from '../db/schema.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { rows } from './sql.ts';

type MailOrder = {
  number: number;
  userId: number;
  subtotalCents: number;
  shippingCents: number;
  ivaCents: number;
  totalCents: number;
  address: AddressSnapshot;
};

export const addressText = (a: AddressSnapshot) =>
  [
    a.nombreEnvio,
    `${a.calleEnvio} ${a.numExtEnvio}${a.numIntEnvio ? ` Int. ${a.numIntEnvio}` : ''}`,
    `${a.coloniaEnvio}, ${a.cpEnvio}`,
    `${a.municipioEnvio}, ${a.ciudadEnvio}, ${a.estadoEnvio}, ${a.paisEnvio}`,
    `Tel. ${a.telefonoEnvio}`,
  ].join('\n');

async function recipient(tx: Db, userId: number) {
  const [row] = await rows<{ email: string; nombre: string }>(
    tx,
    sql`select email, nombre from users where id = ${userId}`,
  );
  return row;
}

async function lineRows(tx: Db, number: number): Promise<[string, string][]> {
  const lines = await rows<{ description: string; quantity: number; unit_price_cents: number }>(
    tx,
    sql`
      select description, quantity, unit_price_cents from order_lines where order_number = ${number} order by line_no`,
  );
  return lines.map((l) => [`${l.quantity} × ${formatMoney(Number(l.unit_price_cents))}`, l.description]);
}

/** 'Compra realizada con éxito', in the outbox in the same transaction that marks the order paid. */
export async function enqueueOrderPaidMail(tx: Db, order: MailOrder, publicUrl: string) {
  const to = await recipient(tx, order.userId);
  if (!to) return;
  const { html, text } = renderMail(
    {
      title: 'Compra realizada con éxito',
      preheader: `Pedido #${order.number} · ${formatMoney(order.totalCents)}`,
      greeting: `Hola, ${to.nombre}:`,
      blocks: [
        {
          kind: 'paragraph',
          text: `Recibimos el pago de su pedido #${order.number}. Gracias por su compra.`,
        },
        { kind: 'rows', rows: await lineRows(tx, order.number) },
        {
          kind: 'rows',
          rows: [
            ['Subtotal', formatMoney(order.subtotalCents)],
            ['Envío', formatMoney(order.shippingCents)],
            ['IVA incluido', formatMoney(order.ivaCents)],
            ['Total', formatMoney(order.totalCents)],
          ],
        },
        { kind: 'rows', rows: [['Envío a', addressText(order.address).replace(/\n/g, ', ')]] },
        { kind: 'button', label: 'Ver mi pedido', url: `${publicUrl}/resumen/${order.number}` },
        {
          kind: 'note',
          text: 'Puede solicitar su factura CFDI desde “Historial de pedidos”. Le avisaremos cuando su pedido sea enviado.',
        },
      ],
    },
    publicUrl,
  );
  await enqueueMail(tx, {
    kind: 'order-paid',
    to: to.email,
    subject: 'Compra realizada con éxito',
    html,
    text,
    dedupeKey: `order-paid:${order.number}`,
  });
}

/** The cancellation and its refund, in the transaction that cancels the order. */
export async function enqueueOrderCancelledMail(
  tx: Db,
  order: MailOrder,
  refundedCents: number,
  publicUrl: string,
) {
  const to = await recipient(tx, order.userId);
  if (!to) return;
  const { html, text } = renderMail(
    {
      title: `Pedido #${order.number} cancelado`,
      greeting: `Hola, ${to.nombre}:`,
      blocks: [
        {
          kind: 'paragraph',
          text: `Cancelamos su pedido #${order.number} y reembolsamos ${formatMoney(refundedCents)} a la tarjeta con la que pagó.`,
        },
        {
          kind: 'note',
          text: 'El reembolso puede tardar de 1 a 3 días hábiles en aparecer en su estado de cuenta, según su banco.',
        },
        { kind: 'button', label: 'Ver mis pedidos', url: `${publicUrl}/historial` },
      ],
    },
    publicUrl,
  );
  await enqueueMail(tx, {
    kind: 'order-cancelled',
    to: to.email,
    subject: `Pedido #${order.number} cancelado`,
    html,
    text,
    dedupeKey: `order-cancelled:${order.number}`,
  });
}
