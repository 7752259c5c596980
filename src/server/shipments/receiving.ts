import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { SHIP_NOW_BUSINESS_DAYS } from '../../shared/backorder.ts';
import { addBusinessDays } from '../../shared/business-days.ts';
import { mexicoCityToday } from '../../shared/mexico-time.ts';
import { writeAudit } from '../audit/log.ts';
import type { Db } from '../db/client.ts';
import {
  backorderAllocations,
  goodsReceipts,
  orderLines,
  orders,
  products,
  stockMovements,
} from '../db/schema.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { lockOrder } from '../orders/lock.ts';
import type { StaffRequest } from '../orders/requester.ts';
import { MAY_SHIP } from './dispatch.ts';

export type ReceiveGoods = {
  code: string;
  quantity: number;
  lot?: string | undefined;
  expiresOn?: string | undefined;
};
export type Allocation = { orderNumber: number; lineNo: number; quantity: number };

/** The backordered lines of a product still waiting for goods, oldest order first (FIFO by order date). */
const waitingLines = (db: Db, code: string, among?: readonly number[]) =>
  db
    .select({
      orderNumber: orderLines.orderNumber,
      lineNo: orderLines.lineNo,
      waiting: sql<number>`(${orderLines.backorderedQuantity} - ${orderLines.receivedQuantity} - ${orderLines.cancelledQuantity})::int`,
    })
    .from(orderLines)
    .innerJoin(orders, eq(orders.number, orderLines.orderNumber))
    .where(
      and(
        eq(orderLines.productCode, code),
        sql`${orderLines.backorderedQuantity} > ${orderLines.receivedQuantity} + ${orderLines.cancelledQuantity}`,
        inArray(orders.status, [...MAY_SHIP]),
        sql`${orders.cancelledAt} is null`,
        ...(among ? [among.length ? inArray(orders.number, [...among]) : sql`false`] : []),
      ),
    )
    .orderBy(asc(orders.createdAt), asc(orders.number), asc(orderLines.lineNo));

/**
 * Goods received for a product (issue 35), in ONE transaction: the receipt (lot, expiry), the units into stock with
 * a ledger row, then allocated to the oldest backordered lines first — each allocation taken back out of stock with
 * its own ledger row ('backorder_fill') and recorded, and a line fully received gets its new promised date (ships
 * within SHIP_NOW_BUSINESS_DAYS). A crash anywhere in between leaves nothing: neither the receipt nor the stock.
 *
 * Locks: the orders that may take the goods are locked first, by number (as every order change starts), then the
 * product row; a cancellation (order, then product) therefore never waits on this in the opposite order.
 */
export async function receiveGoods(
  db: Db,
  who: StaffRequest,
  input: ReceiveGoods,
): Promise<{ receiptId: number; allocations: Allocation[]; toStock: number }> {
  return db.transaction(async (tx) => {
    const base = alias(products, 'base');
    const [product] = await tx
      .select({
        code: products.code,
        name: products.name,
        reagent: sql<boolean>`(coalesce(${base.grade}, ${products.grade}) is not null or coalesce(${base.molarMass}, ${products.molarMass}) is not null or cardinality(coalesce(${base.hazardStatements}, ${products.hazardStatements})) > 0)`,
      })
      .from(products)
      .leftJoin(base, eq(base.code, products.familyCode))
      .where(eq(products.code, input.code));
    if (!product) throw notFound(`No existe el producto ${input.code}`);
    if (product.reagent && !input.expiresOn) {
      const message = 'Un reactivo se recibe con su fecha de caducidad';
      throw badRequest(message, { expiresOn: message });
    }
    if (product.reagent && !input.lot) {
      const message = 'Un reactivo se recibe con su número de lote';
      throw badRequest(message, { lot: message });
    }
    const candidates = [...new Set((await waitingLines(tx, input.code)).map((l) => l.orderNumber))].sort(
      (a, b) => a - b,
    );
    for (const number of candidates) await lockOrder(tx, number);
    await tx
      .select({ code: products.code })
      .from(products)
      .where(eq(products.code, input.code))
      .for('update');

    const [receipt] = await tx
      .insert(goodsReceipts)
      .values({
        productCode: input.code,
        quantity: input.quantity,
        lot: input.lot || null,
        expiresOn: input.expiresOn ?? null,
        receivedBy: who.actor.userId,
      })
      .returning({ id: goodsReceipts.id });
    const receiptId = receipt!.id;
    await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${input.quantity}`, updatedAt: sql`now()` })
      .where(eq(products.code, input.code));
    await tx.insert(stockMovements).values({
      productCode: input.code,
      delta: input.quantity,
      reason: 'goods_received',
      note: `Recepción ${receiptId}${input.lot ? ` · lote ${input.lot}` : ''}`,
      actorUserId: who.actor.userId,
    });

    // Under the locks the waiting lines read now are the ones to fill; orders that appeared since wait for the next.
    let left = input.quantity;
    const allocations: Allocation[] = [];
    const promised = addBusinessDays(mexicoCityToday(), SHIP_NOW_BUSINESS_DAYS);
    for (const line of await waitingLines(tx, input.code, candidates)) {
      if (left <= 0) break;
      const take = Math.min(left, Number(line.waiting));
      left -= take;
      const full = take === Number(line.waiting);
      await tx
        .update(orderLines)
        .set({
          receivedQuantity: sql`${orderLines.receivedQuantity} + ${take}`,
          ...(full ? { backorderFrom: promised, backorderTo: promised } : {}),
        })
        .where(and(eq(orderLines.orderNumber, line.orderNumber), eq(orderLines.lineNo, line.lineNo)));
      await tx
        .insert(backorderAllocations)
        .values({ receiptId, orderNumber: line.orderNumber, lineNo: line.lineNo, quantity: take });
      await tx
        .update(products)
        .set({ stock: sql`${products.stock} - ${take}`, updatedAt: sql`now()` })
        .where(eq(products.code, input.code));
      await tx.insert(stockMovements).values({
        productCode: input.code,
        delta: -take,
        reason: 'backorder_fill',
        orderNumber: line.orderNumber,
        note: `Recepción ${receiptId}`,
        actorUserId: who.actor.userId,
      });
      allocations.push({ orderNumber: line.orderNumber, lineNo: line.lineNo, quantity: take });
    }
    await writeAudit(tx, who.actor, {
      action: 'stock.receive',
      entityType: 'product',
      entityId: input.code,
      after: {
        receipt: receiptId,
        quantity: input.quantity,
        lot: input.lot ?? null,
        expiresOn: input.expiresOn ?? null,
        allocations,
        toStock: left,
      },
    });
    return { receiptId, allocations, toStock: left };
  });
}

/** The receipts of a product, newest first, with what each filled (the product screen's history). */
export async function receiptsOf(db: Db, code: string) {
  return db
    .select()
    .from(goodsReceipts)
    .where(eq(goodsReceipts.productCode, code))
    .orderBy(sql`${goodsReceipts.receivedAt} desc`)
    .limit(50);
}
