import { eq, sql } from 'drizzle-orm';
import { formatMoney } from '../../shared/money.ts';
import { formatDeadline, isDelayed } from '../../shared/payment-methods.ts';
import type { PaymentInstructions } from '../../shared/schemas/orders.ts';
import type { Db, Tx } from '../db/client.ts';
import { orders, users } from '../db/schema.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';
import type { Charge } from '../payments/gateway.ts';
import type { OrderContext } from './context.ts';
import { ledgerActor, recordMovement } from './ledger.ts';
import { lockOrder, type Order } from './lock.ts';
import { raisePaymentAlert } from './payment-events.ts';
import { latestPayment, updatePayment } from './payment-records.ts';
import { openRefund } from './refunds.ts';
import type { GatewayRequest, Requester, SweeperRequest } from './requester.ts';
import { returnStock } from './stock.ts';
import { applyTransition } from './transitions.ts';

/**
 * The transitions of an order paid later by SPEI transfer or cash at a store (issue 21, decision 023). The order
 * is born pending_payment with its stock held until payment_due_at (= the Openpay charge's due_date); then:
 * - the charge is created: the instructions are stored and mailed (markAwaitingPayment);
 * - the payment arrives in time: markPaid (payment.ts), the one transition to paid;
 * - the due date passes unpaid: pending_payment → cancelled once, stock back, buyer mailed (expireAwaitingPayment);
 * - the payment arrives after that: recorded on the order and queued for staff, never re-reserving stock that may
 *   have been sold since (recordLatePayment).
 * Each runs under the order's row lock, so a webhook and the sweeper on one order serialize: exactly one wins.
 */

export const EXPIRED_REASON =
  'Venció el plazo para pagar; el pedido se canceló y las existencias se liberaron';

/** What the buyer reads to pay: from the gateway's payment_method, our amount and the order's deadline. */
export function instructionsOf(charge: Charge, amountCents: number, dueAt: Date): PaymentInstructions | null {
  const pay = charge.payTo;
  if (pay?.type === 'bank_transfer') {
    return {
      type: 'spei',
      bank: pay.bank,
      clabe: pay.clabe,
      reference: pay.name,
      amountCents,
      dueAt: dueAt.toISOString(),
    };
  }
  if (pay?.type === 'store') {
    return {
      type: 'cash',
      reference: pay.reference,
      barcodeUrl: pay.barcodeUrl,
      amountCents,
      dueAt: dueAt.toISOString(),
    };
  }
  return null;
}

/**
 * The delayed charge exists at the gateway: its id and instructions go on the attempt and the instructions mail
 * into the outbox, in one transaction. False when the order is no longer pending (paid already by an early
 * webhook, or released) — nothing is then written.
 */
export async function markAwaitingPayment(
  ctx: OrderContext,
  number: number,
  charge: Charge,
  instructions: PaymentInstructions,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (order?.status !== 'pending_payment' || !isDelayed(order.paymentMethod)) return false;
    const payment = await latestPayment(tx, number);
    if (payment) {
      await updatePayment(tx, payment.id, {
        chargeId: charge.id,
        method: order.paymentMethod,
        instructions,
      });
    }
    await enqueueInstructionsMail(tx, order, instructions, ctx.publicUrl);
    return true;
  });
}

/**
 * Why a pending SPEI or store order stops holding its stock: the deadline passed (the sweeper, or Openpay reporting
 * the charge cancelled), the buyer abandoned it, or staff released it (abandon.ts). One path for all three: the
 * reference stops counting, and a payment arriving after it is the 'fuera de plazo' case (recordLatePayment).
 */
export type ReleaseCause = {
  /** The transition it is (transitions.ts): the deadline passed, or the buyer or staff gave the order up. */
  event: 'expire_unpaid' | 'abandon';
  /** The order's cancel_reason, as staff and the buyer's history read it. */
  reason: string;
  /** The payment attempt's note. */
  attemptNote: string;
  /** The buyer's mail: its subject and first paragraph. */
  mail: {
    kind: string;
    dedupe: string;
    title: (number: number) => string;
    paragraph: (number: number) => string;
  };
};

export const EXPIRED_CAUSE: ReleaseCause = {
  event: 'expire_unpaid',
  reason: EXPIRED_REASON,
  attemptNote: 'Venció el plazo para pagar',
  mail: {
    kind: 'order-payment-expired',
    dedupe: 'order-expired',
    title: (n) => `Pedido #${n} cancelado por falta de pago`,
    paragraph: (n) =>
      `No recibimos el pago de su pedido #${n} antes de la fecha límite, así que lo cancelamos y liberamos los productos. No se hizo ningún cargo.`,
  },
};

/**
 * pending_payment → cancelled for a SPEI or store order whose deadline passed unpaid (the sweeper, or Openpay
 * reporting the charge cancelled): stock back ('order_release'), the attempt 'expired', the buyer mailed. Once:
 * false when the order is not a pending delayed one (paid meanwhile, or expired already).
 */
export async function expireAwaitingPayment(
  ctx: OrderContext,
  number: number,
  who: GatewayRequest | SweeperRequest,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (!order) return false;
    return releaseAwaitingLocked(tx, ctx, order, who, EXPIRED_CAUSE);
  });
}

/**
 * The release itself, for a caller holding the order's lock (`lockOrder` in its transaction): false, and nothing
 * written, when the order is not a pending SPEI or store one.
 */
export async function releaseAwaitingLocked(
  tx: Tx,
  ctx: OrderContext,
  order: Order,
  who: Requester,
  cause: ReleaseCause,
): Promise<boolean> {
  if (order.status !== 'pending_payment' || !isDelayed(order.paymentMethod)) return false;
  await applyTransition(tx, order, cause.event, who, {
    cancelledAt: sql`now()`,
    cancelReason: cause.reason,
    reservedUntil: null,
  });
  await returnStock(tx, order.number, 'order_release');
  const payment = await latestPayment(tx, order.number);
  if (payment) {
    await updatePayment(tx, payment.id, { status: 'expired', errorMessage: cause.attemptNote });
  }
  await enqueueReleasedMail(tx, order, cause, ctx.publicUrl);
  ctx.log.info(
    { order: order.number, by: who.kind, reason: cause.reason },
    'pedido con pago diferido liberado',
  );
  return true;
}

/**
 * A completed SPEI or store charge of an order that had expired (cancelled, stock released): the money is
 * recorded on the attempt and on the order (late_payment_at), and staff get the order in the queue 'Pago
 * recibido fuera de plazo' to refund it or to re-reserve and ship by hand. Once per order.
 */
export async function recordLatePayment(
  ctx: OrderContext,
  number: number,
  charge: Charge,
  who: GatewayRequest | SweeperRequest,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, number);
    if (!order || order.paidAt !== null || order.latePaymentAt !== null) return false;
    if (order.status !== 'cancelled' || !isDelayed(order.paymentMethod)) return false;
    await tx
      .update(orders)
      .set({ latePaymentAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(orders.number, number));
    const payment = await latestPayment(tx, number);
    if (payment) {
      await updatePayment(tx, payment.id, {
        status: 'completed',
        chargeId: charge.id,
        method: charge.method ?? order.paymentMethod,
        errorMessage: null,
      });
    }
    // The money is the shop's now, whatever staff decide: the ledger has it, and it is owed back until the order
    // is shipped by hand or the money returned to the buyer's CLABE.
    await recordMovement(tx, number, ledgerActor(who), {
      kind: 'charge',
      amountCents: charge.amountCents,
      method: charge.method ?? order.paymentMethod,
      reference: charge.id,
    });
    await openRefund(tx, order, {
      route: 'payout',
      amountCents: charge.amountCents,
      reason: 'Pago recibido fuera de plazo: el pedido ya estaba cancelado',
      actor: ledgerActor(who),
    });
    await raisePaymentAlert(tx, {
      orderNumber: number,
      kind: 'late_payment',
      message: `Pago recibido fuera de plazo (${formatMoney(charge.amountCents)}, cargo ${charge.id}): el pedido ya estaba cancelado y sus existencias liberadas. Se registró como reembolso pendiente a la CLABE del cliente; contáctelo para devolverle el dinero.`,
      chargeId: charge.id,
      dedupeKey: `late:${charge.id}`,
    });
    ctx.log.error({ order: number, charge: charge.id, by: who.kind }, 'pago recibido fuera de plazo');
    return true;
  });
}

async function recipient(tx: Db, userId: number) {
  const [row] = await tx
    .select({ email: users.email, nombre: users.nombre })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** The rows of the instructions, as the mail and the order page show them. */
export function instructionRows(i: PaymentInstructions): [string, string][] {
  const common: [string, string][] = [
    ['Importe exacto', `${formatMoney(i.amountCents)} MXN`],
    ['Fecha límite', formatDeadline(i.dueAt)],
  ];
  return i.type === 'spei'
    ? [['Banco', i.bank], ['CLABE', i.clabe], ['Referencia / concepto', i.reference], ...common]
    : [['Referencia Paynet', i.reference], ...common];
}

async function enqueueInstructionsMail(
  tx: Db,
  order: Order,
  instructions: PaymentInstructions,
  publicUrl: string,
) {
  const to = await recipient(tx, order.userId);
  if (!to) return;
  const spei = instructions.type === 'spei';
  const title = `Instrucciones de pago del pedido #${order.number}`;
  const { html, text } = renderMail(
    {
      title,
      preheader: `${formatMoney(instructions.amountCents)} · antes del ${formatDeadline(instructions.dueAt)}`,
      greeting: `Hola, ${to.nombre}:`,
      blocks: [
        {
          kind: 'paragraph',
          text: spei
            ? `Apartamos los productos de su pedido #${order.number}. Para confirmarlo, haga una transferencia SPEI desde su banca en línea con estos datos:`
            : `Apartamos los productos de su pedido #${order.number}. Para confirmarlo, pague en efectivo en una tienda afiliada a Paynet (OXXO, 7-Eleven, Walmart, farmacias y otras) mostrando esta referencia:`,
        },
        { kind: 'rows', rows: instructionRows(instructions) },
        {
          kind: 'button',
          label: 'Ver instrucciones y código de barras',
          url: `${publicUrl}/resumen/${order.number}`,
        },
        {
          kind: 'note',
          text: spei
            ? 'Transfiera el importe exacto y escriba la referencia en el concepto. Si el pago no llega antes de la fecha límite, el pedido se cancela y los productos se liberan.'
            : 'Pague el importe exacto; la tienda puede cobrar una comisión. Si el pago no llega antes de la fecha límite, el pedido se cancela y los productos se liberan.',
        },
      ],
    },
    publicUrl,
  );
  await enqueueMail(tx, {
    kind: 'order-payment-instructions',
    to: to.email,
    subject: title,
    html,
    text,
    dedupeKey: `order-instructions:${order.number}`,
  });
}

async function enqueueReleasedMail(tx: Db, order: Order, cause: ReleaseCause, publicUrl: string) {
  const to = await recipient(tx, order.userId);
  if (!to) return;
  const title = cause.mail.title(order.number);
  const { html, text } = renderMail(
    {
      title,
      greeting: `Hola, ${to.nombre}:`,
      blocks: [
        { kind: 'paragraph', text: cause.mail.paragraph(order.number) },
        {
          kind: 'note',
          text: 'Si ya pagó, no se preocupe: el pago queda registrado y nos comunicaremos con usted. Si aún desea los productos, haga un pedido nuevo.',
        },
        { kind: 'button', label: 'Ver mis pedidos', url: `${publicUrl}/historial` },
      ],
    },
    publicUrl,
  );
  await enqueueMail(tx, {
    kind: cause.mail.kind,
    to: to.email,
    subject: title,
    html,
    text,
    dedupeKey: `${cause.mail.dedupe}:${order.number}`,
  });
}
