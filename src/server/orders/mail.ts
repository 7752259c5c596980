import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { orderLineSplitText, shipNowText } from '../../shared/backorder.ts';
import { formatMoney } from '../../shared/money.ts';
import { ORDER_PAYMENT_METHOD_LABELS } from '../../shared/payment-methods.ts';
import type { Address } from '../../shared/schemas/common.ts';
import type { Db } from '../db/client.ts';
import { invoices, orderLines, purchaseInvoiceRequests, users } from '../db/schema.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';
import type { Order } from './lock.ts';

/** The mails of an order's life, each written to the outbox in the transaction of its transition. */

type MailOrder = Pick<
  Order,
  'number' | 'userId' | 'subtotalCents' | 'shippingCents' | 'ivaCents' | 'totalCents' | 'address'
> &
  Partial<Pick<Order, 'paymentMethod' | 'msiMonths' | 'shipNowBy'>> & { purchaseOrder?: string | null };

/** 'Transferencia SPEI', or 'Tarjeta de crédito o débito · 6 meses sin intereses' (issue 21). */
const paidWithText = (order: MailOrder) =>
  `${ORDER_PAYMENT_METHOD_LABELS[order.paymentMethod ?? 'card']}${order.msiMonths ? ` · ${order.msiMonths} meses sin intereses` : ''}`;

const addressText = (a: Address) =>
  [
    a.nombreEnvio,
    `${a.calleEnvio} ${a.numExtEnvio}${a.numIntEnvio ? ` Int. ${a.numIntEnvio}` : ''}`,
    `${a.coloniaEnvio}, ${a.cpEnvio}`,
    `${a.municipioEnvio}, ${a.ciudadEnvio}, ${a.estadoEnvio}, ${a.paisEnvio}`,
    `Tel. ${a.telefonoEnvio}`,
  ].join('\n');

async function recipient(tx: Db, userId: number) {
  const [row] = await tx
    .select({ email: users.email, nombre: users.nombre })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

async function lineRows(tx: Db, number: number): Promise<[string, string][]> {
  const lines = await tx
    .select({
      description: orderLines.description,
      quantity: orderLines.quantity,
      unitPriceCents: orderLines.unitPriceCents,
      backorderedQuantity: orderLines.backorderedQuantity,
      backorderFrom: orderLines.backorderFrom,
      backorderTo: orderLines.backorderTo,
    })
    .from(orderLines)
    .where(eq(orderLines.orderNumber, number))
    .orderBy(asc(orderLines.lineNo));
  // 'Sobre pedido' (decision 029): what ships now and what later, with the promised window, under the line.
  return lines.map((l) => {
    const split = orderLineSplitText(l);
    return [
      `${l.quantity} × ${formatMoney(l.unitPriceCents)}`,
      split ? `${l.description} — ${split}` : l.description,
    ];
  });
}

/** The order's ship-now promise when some of it is backordered (decision 029); nothing otherwise. */
async function shipNowBlocks(tx: Db, order: MailOrder): Promise<{ kind: 'paragraph'; text: string }[]> {
  if (!order.shipNowBy) return [];
  const [row] = await tx
    .select({ partly: sql<boolean>`bool_or(${orderLines.backorderedQuantity} > 0)` })
    .from(orderLines)
    .where(eq(orderLines.orderNumber, order.number));
  return row?.partly
    ? [
        {
          kind: 'paragraph',
          text: `${shipNowText(order.shipNowBy)}; lo que está sobre pedido se envía en cuanto llega, en la fecha indicada en cada producto.`,
        },
      ]
    : [];
}

/**
 * What the paid mail says of the invoice, as it stands (issue 37, item 4): issued (to whom), requested at the
 * purchase (to whom, on its way), or still to be requested.
 */
async function invoiceNote(tx: Db, number: number): Promise<string> {
  const [issued] = await tx
    .select({ nombre: invoices.nombreFiscal, rfc: invoices.rfc })
    .from(invoices)
    .where(and(eq(invoices.orderNumber, number), eq(invoices.status, 'issued'), eq(invoices.kind, 'I')))
    .orderBy(desc(invoices.id))
    .limit(1);
  if (issued)
    return `Su factura CFDI ya fue emitida a nombre de ${issued.nombre} (RFC ${issued.rfc}); descárguela (PDF y XML) desde “Historial de pedidos”.`;
  const [requested] = await tx
    .select({ request: purchaseInvoiceRequests.request, email: purchaseInvoiceRequests.email })
    .from(purchaseInvoiceRequests)
    .where(
      and(eq(purchaseInvoiceRequests.orderNumber, number), eq(purchaseInvoiceRequests.status, 'waiting')),
    )
    .limit(1);
  if (requested)
    return `Solicitó su factura CFDI al comprar: la emitimos a nombre de ${requested.request.nombreFiscal} (RFC ${requested.request.rfc}) y se la enviamos a ${requested.email} con el XML y el PDF.`;
  return 'Puede solicitar su factura CFDI desde “Historial de pedidos”.';
}

/** 'Compra realizada con éxito', in the outbox in the same transaction that marks the order paid. */
export async function enqueueOrderPaidMail(tx: Db, order: MailOrder, publicUrl: string) {
  const to = await recipient(tx, order.userId);
  if (!to) return;
  const { html, text } = renderMail(
    {
      title: order.paymentMethod === 'credit' ? 'Pedido confirmado a crédito' : 'Compra realizada con éxito',
      preheader: `Pedido #${order.number}${order.purchaseOrder ? ` · OC ${order.purchaseOrder}` : ''} · ${formatMoney(order.totalCents)}`,
      greeting: `Hola, ${to.nombre}:`,
      blocks: [
        {
          kind: 'paragraph',
          // A sale on credit (decision 060): no money yet; the invoice PPD and its due date come with the shipment.
          text:
            order.paymentMethod === 'credit'
              ? `Confirmamos su pedido #${order.number} a crédito, a nombre de su institución. Le enviaremos la factura (método de pago PPD) con su fecha de vencimiento; el pago se registra al recibir su transferencia.`
              : `Recibimos el pago de su pedido #${order.number}. Gracias por su compra.`,
        },
        { kind: 'rows', rows: await lineRows(tx, order.number) },
        ...(await shipNowBlocks(tx, order)),
        {
          kind: 'rows',
          rows: [
            ['Subtotal', formatMoney(order.subtotalCents)],
            ['Envío', formatMoney(order.shippingCents)],
            ['IVA incluido', formatMoney(order.ivaCents)],
            ['Total', formatMoney(order.totalCents)],
            ['Forma de pago', paidWithText(order)],
          ],
        },
        {
          kind: 'rows',
          rows: [
            ...(order.purchaseOrder ? [['Orden de compra', order.purchaseOrder] as [string, string]] : []),
            ['Envío a', addressText(order.address).replace(/\n/g, ', ')],
          ],
        },
        { kind: 'button', label: 'Ver mi pedido', url: `${publicUrl}/resumen/${order.number}` },
        {
          kind: 'note',
          text: `${await invoiceNote(tx, order.number)} Le avisaremos cuando su pedido sea enviado.`,
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

/** The cancellation and where its money goes (by its real route), in the transaction that cancels the order. */
export async function enqueueOrderCancelledMail(
  tx: Db,
  order: Pick<Order, 'number' | 'userId'>,
  refund: { sentence: string; route: 'card' | 'payout' | 'transfer'; needsAccount: boolean } | null,
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
          text: `Cancelamos su pedido #${order.number}. ${refund?.sentence ?? ''}`.trim(),
        },
        ...refundNotes(refund),
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

function refundNotes(refund: { route: string; needsAccount: boolean } | null) {
  if (!refund) return [];
  if (refund.route === 'card')
    return [
      {
        kind: 'note' as const,
        text: 'El reembolso puede tardar de 1 a 3 días hábiles en aparecer en su estado de cuenta, según su banco.',
      },
    ];
  return refund.needsAccount
    ? [
        {
          kind: 'note' as const,
          text: 'Indíquenos su CLABE (18 dígitos) en «Mis pedidos» para recibir la transferencia.',
        },
      ]
    : [];
}

/** A refund's news (owed, paid, refunded to the card), once per refund and state. */
export async function enqueueRefundStateMail(
  tx: Db,
  order: Pick<Order, 'number' | 'userId'>,
  refund: { id: number; state: string; route: string; sentence: string; needsAccount: boolean },
  publicUrl: string,
) {
  const to = await recipient(tx, order.userId);
  if (!to) return;
  const title = `Reembolso del pedido #${order.number}`;
  const { html, text } = renderMail(
    {
      title,
      greeting: `Hola, ${to.nombre}:`,
      blocks: [
        { kind: 'paragraph', text: refund.sentence },
        ...refundNotes(refund),
        { kind: 'button', label: 'Ver mis pedidos', url: `${publicUrl}/historial` },
      ],
    },
    publicUrl,
  );
  await enqueueMail(tx, {
    kind: 'order-refund',
    to: to.email,
    subject: title,
    html,
    text,
    dedupeKey: `order-refund:${refund.id}:${refund.state}`,
  });
}

const longDate = (day: string) =>
  new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

/** 'Su pedido #N va en camino': the guide, the carrier and the expected date, in the shipping transaction. */
export async function enqueueOrderShippedMail(
  tx: Db,
  order: {
    number: number;
    userId: number;
    trackingGuide: string;
    deliveryProvider: string;
    deliveryDate: string;
  },
  publicUrl: string,
) {
  const to = await recipient(tx, order.userId);
  if (!to) return;
  const title = `Su pedido #${order.number} va en camino`;
  const { html, text } = renderMail(
    {
      title,
      preheader: `Guía ${order.trackingGuide} · ${order.deliveryProvider}`,
      greeting: `Hola, ${to.nombre}:`,
      blocks: [
        { kind: 'paragraph', text: `Enviamos su pedido #${order.number}. Puede rastrearlo con estos datos:` },
        {
          kind: 'rows',
          rows: [
            ['Guía de rastreo', order.trackingGuide],
            ['Paquetería', order.deliveryProvider],
            ['Entrega estimada', longDate(order.deliveryDate)],
          ],
        },
        { kind: 'button', label: 'Ver mis pedidos', url: `${publicUrl}/historial` },
        {
          kind: 'note',
          text: 'Un pedido enviado ya no puede cancelarse desde la tienda; si necesita devolverlo, escríbanos.',
        },
      ],
    },
    publicUrl,
  );
  await enqueueMail(tx, {
    kind: 'order-shipped',
    to: to.email,
    subject: title,
    html,
    text,
    dedupeKey: `order-shipped:${order.number}`,
  });
}
