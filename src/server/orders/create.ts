import { sql } from 'drizzle-orm';
import { promisedDates } from '../../shared/backorder.ts';
import type { OrderPaymentMethod } from '../../shared/payment-methods.ts';
import type { Address } from '../../shared/schemas/common.ts';
import type { Tx } from '../db/client.ts';
import { orderLines, orderNumberSeq, orders } from '../db/schema.ts';
import { reserveStock } from './stock.ts';

export type NewOrder = {
  userId: number;
  address: Address;
  idempotencyKey: string;
  requestHash: string;
  /** How long the reservation holds while the order waits for its payment. */
  reservationMinutes: number;
  /** The buyer's purchase-order number (issue 20), already validated; null when none. */
  purchaseOrder?: string | null;
  /** The quotation the order is converted from (issue 20). */
  quotationId?: number | null;
  /** The institution the order is placed for (issue 34); null = a personal order. */
  institutionId?: number | null;
  /** Card unless told (issue 21: 'spei' or 'cash' hold the stock until paymentDueAt). */
  paymentMethod?: OrderPaymentMethod;
  /** SPEI or cash: the payment's deadline, which is also the end of the reservation. */
  paymentDueAt?: Date;
  /** Card on meses sin intereses. */
  msiMonths?: number | null;
  /** When the order is placed (tests pin it): the promised dates count business days from it (decision 029). */
  placedAt?: Date;
  amounts: { subtotalCents: number; shippingCents: number; ivaCents: number; totalCents: number };
  lines: readonly {
    code: string;
    name: string;
    unitPriceCents: number;
    quantity: number;
    /** Of the whole line. */
    weightKg: number;
  }[];
};

/**
 * An order is born pending_payment, with its lines and its stock reserved (ledger rows), inside the caller's
 * transaction. Throws 409 naming the product when one runs short (nothing is then written). A 'sobre pedido'
 * line (decision 029) takes what stock there is; the rest is recorded on the line as backordered with its
 * promised window, and the order keeps the date by which what is in stock ships.
 */
export async function createPendingOrder(tx: Tx, order: NewOrder): Promise<number> {
  const { rows } = await tx.execute<{ n: number }>(sql`select nextval(${orderNumberSeq.seqName})::int as n`);
  const number = rows[0]!.n;
  const dates = promisedDates(order.placedAt ?? new Date());
  await tx.insert(orders).values({
    number,
    userId: order.userId,
    status: 'pending_payment',
    ...order.amounts,
    address: order.address,
    purchaseOrder: order.purchaseOrder ?? null,
    quotationId: order.quotationId ?? null,
    institutionId: order.institutionId ?? null,
    idempotencyKey: order.idempotencyKey,
    requestHash: order.requestHash,
    reservedUntil: order.paymentDueAt ?? sql`now() + make_interval(mins => ${order.reservationMinutes})`,
    paymentMethod: order.paymentMethod ?? 'card',
    paymentDueAt: order.paymentDueAt ?? null,
    msiMonths: order.msiMonths ?? null,
    shipNowBy: dates.shipNowBy,
  });
  const reserved = await reserveStock(tx, number, order.lines);
  await tx.insert(orderLines).values(
    order.lines.map((line, i) => {
      const r = reserved.get(line.code);
      const window = r?.lead && r.backordered > 0 ? dates.window(r.lead) : null;
      return {
        orderNumber: number,
        lineNo: i + 1,
        productCode: line.code,
        description: line.name,
        unitPriceCents: line.unitPriceCents,
        quantity: line.quantity,
        weightKg: Math.round((line.weightKg / line.quantity) * 1000) / 1000,
        backorderedQuantity: window ? (r?.backordered ?? 0) : 0,
        backorderFrom: window?.from ?? null,
        backorderTo: window?.to ?? null,
      };
    }),
  );
  return number;
}
