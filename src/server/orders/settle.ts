import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import type { AddressSnapshot } from '../db/schema.ts';
import { type Charge, declineMessage, type PaymentGateway } from '../payments/gateway.ts';
import { enqueueOrderPaidMail } from './mail.ts';
import { rows } from './sql.ts';
import { returnStock } from './stock.ts';

export type CheckoutContext = {
  db: Db;
  gateway: PaymentGateway;
  publicUrl: string;
  log: FastifyBaseLogger;
};

/** Where an order stands after talking to the gateway. */
export type Outcome =
  | { kind: 'paid'; number: number }
  | { kind: 'redirect'; number: number; redirectUrl: string }
  | { kind: 'failed'; number: number; message: string; errorCode: number | null }
  | { kind: 'unknown'; number: number };

export type OrderRow = {
  number: number;
  user_id: number;
  status: string;
  subtotal_cents: number;
  shipping_cents: number;
  iva_cents: number;
  total_cents: number;
  address: AddressSnapshot;
};

const mailOrder = (o: OrderRow) => ({
  number: o.number,
  userId: o.user_id,
  subtotalCents: Number(o.subtotal_cents),
  shippingCents: Number(o.shipping_cents),
  ivaCents: Number(o.iva_cents),
  totalCents: Number(o.total_cents),
  address: o.address,
});

/** The latest payment attempt of an order. */
const latestPayment = (number: number) =>
  sql`(select id from payments where order_number = ${number} order by id desc limit 1)`;

/**
 * pending_payment → paid, once: the payment row, the confirmation mail (outbox) and the bought
 * products out of the saved cart, in one transaction. Returns false when the order was not pending.
 */
export async function markPaid(ctx: CheckoutContext, number: number, charge: Charge): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [order] = await rows<OrderRow>(
      tx,
      sql`
        update orders set status = 'paid', paid_at = now(), reserved_until = null, updated_at = now()
        where number = ${number} and status = 'pending_payment'
        returning number, user_id, status, subtotal_cents, shipping_cents, iva_cents, total_cents, address`,
    );
    if (!order) return false;
    await tx.execute(sql`
      update payments set status = 'completed', charge_id = ${charge.id}, error_code = null,
        error_message = null, updated_at = now()
      where id = ${latestPayment(number)}`);
    await enqueueOrderPaidMail(tx as unknown as Db, mailOrder(order), ctx.publicUrl);
    await tx.execute(sql`
      update carts set items = coalesce((
          select jsonb_agg(item) from jsonb_array_elements(carts.items) as item
          where item->>'code' not in (select product_code from order_lines where order_number = ${number})
        ), '[]'::jsonb), updated_at = now()
      where user_id = ${order.user_id}`);
    return true;
  });
}

/** pending_payment → payment_failed, once: stock back with 'order_release' ledger rows. */
export async function markFailed(
  ctx: CheckoutContext,
  number: number,
  failure: { chargeId: string | null; errorCode: number | null; message: string },
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [order] = await rows<{ number: number }>(
      tx,
      sql`
        update orders set status = 'payment_failed', reserved_until = null, updated_at = now()
        where number = ${number} and status = 'pending_payment' returning number`,
    );
    if (!order) return false;
    await returnStock(tx as unknown as Db, number, 'order_release');
    await tx.execute(sql`
      update payments set status = 'failed', charge_id = coalesce(${failure.chargeId}, charge_id),
        error_code = ${failure.errorCode === null ? null : String(failure.errorCode)},
        error_message = ${failure.message}, updated_at = now()
      where id = ${latestPayment(number)}`);
    return true;
  });
}

async function currentStatus(db: Db, number: number): Promise<string | undefined> {
  const [row] = await rows<{ status: string }>(db, sql`select status from orders where number = ${number}`);
  return row?.status;
}

/** What a failed order answers when asked again (its stored decline message). */
export async function storedFailure(db: Db, number: number): Promise<Outcome> {
  const [row] = await rows<{ error_code: string | null; error_message: string | null }>(
    db,
    sql`select error_code, error_message from payments where order_number = ${number} order by id desc limit 1`,
  );
  const code = row?.error_code ? Number(row.error_code) : null;
  return { kind: 'failed', number, errorCode: code, message: row?.error_message ?? 'Tarjeta declinada' };
}

/**
 * Brings an order in line with its charge as the gateway reports it (charge answer, 3-D Secure
 * return, webhook, sweeper). Idempotent: a second call with the same charge changes nothing.
 */
export async function applyCharge(ctx: CheckoutContext, number: number, charge: Charge): Promise<Outcome> {
  switch (charge.status) {
    case 'completed': {
      if (await markPaid(ctx, number, charge)) return { kind: 'paid', number };
      const status = await currentStatus(ctx.db, number);
      if (status === 'payment_failed') {
        // The reservation was released (expired) but the bank took the money after all: give it back.
        ctx.log.warn(
          { order: number, charge: charge.id },
          'cargo completado de un pedido liberado: se reembolsa',
        );
        await ctx.gateway
          .refund(charge.id, { description: `Pedido ${number} vencido antes de confirmar el pago` })
          .catch((error: unknown) => ctx.log.error({ err: error, order: number }, 'no se pudo reembolsar'));
        return storedFailure(ctx.db, number);
      }
      return { kind: 'paid', number };
    }
    case 'charge_pending': {
      if (!charge.redirectUrl) return { kind: 'unknown', number };
      await ctx.db.execute(sql`
        update payments set status = 'charge_pending', charge_id = ${charge.id},
          redirect_url = ${charge.redirectUrl}, updated_at = now()
        where id = ${latestPayment(number)} and status in ('in_progress', 'unknown', 'charge_pending')`);
      return { kind: 'redirect', number, redirectUrl: charge.redirectUrl };
    }
    case 'failed':
    case 'cancelled': {
      const message = declineMessage(charge.errorCode, charge.errorMessage);
      await markFailed(ctx, number, { chargeId: charge.id, errorCode: charge.errorCode, message });
      const status = await currentStatus(ctx.db, number);
      if (status === 'payment_failed') return storedFailure(ctx.db, number);
      return status === 'pending_payment' ? { kind: 'unknown', number } : { kind: 'paid', number };
    }
    case 'refunded':
      return (await currentStatus(ctx.db, number)) === 'payment_failed'
        ? storedFailure(ctx.db, number)
        : { kind: 'paid', number };
    default:
      return { kind: 'unknown', number };
  }
}
