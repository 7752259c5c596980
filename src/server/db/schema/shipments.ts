import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { orders } from './orders.ts';

/**
 * Issue 35 (decision 061): an order leaves in one or more shipments, each with its lines and quantities, its
 * carrier and tracking number (or, for 'Recoger en sucursal', the branch), the day it left and the day it arrived.
 */
export const shipments = pgTable(
  'shipments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNumber: integer('order_number')
      .notNull()
      .references(() => orders.number, { onDelete: 'cascade' }),
    /** 1, 2, … within the order ('Envío 2 de 2'). */
    seq: integer('seq').notNull(),
    /** src/shared/carriers.ts id, 'pickup' for a branch, or 'other' for a guide recorded before shipments existed. */
    carrier: text('carrier').notNull(),
    /** As shown: 'Estafeta', or the free text a guide recorded before shipments existed carried. */
    carrierName: text('carrier_name').notNull(),
    trackingNumber: text('tracking_number'),
    estimatedDelivery: date('estimated_delivery'),
    shippedAt: timestamp('shipped_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id),
  },
  (t) => [uniqueIndex('shipments_order_seq_idx').on(t.orderNumber, t.seq)],
);

export const shipmentLines = pgTable(
  'shipment_lines',
  {
    shipmentId: bigint('shipment_id', { mode: 'number' })
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    orderNumber: integer('order_number').notNull(),
    lineNo: integer('line_no').notNull(),
    quantity: integer('quantity').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.shipmentId, t.lineNo] }),
    check('shipment_lines_quantity', sql`${t.quantity} > 0`),
  ],
);

/**
 * Goods received for backorders (issue 35): a product's units as they came in, with the lot and (for reagents)
 * the expiry. Received and allocated to the oldest backordered lines in one transaction (receiving.ts).
 */
export const goodsReceipts = pgTable(
  'goods_receipts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    productCode: text('product_code').notNull(),
    quantity: integer('quantity').notNull(),
    lot: text('lot'),
    expiresOn: date('expires_on'),
    receivedBy: integer('received_by').references(() => users.id),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('goods_receipts_quantity', sql`${t.quantity} > 0`),
    index('goods_receipts_product_idx').on(t.productCode, t.receivedAt),
  ],
);

/** Which backordered lines a receipt filled, and with how many units. */
export const backorderAllocations = pgTable(
  'backorder_allocations',
  {
    receiptId: bigint('receipt_id', { mode: 'number' })
      .notNull()
      .references(() => goodsReceipts.id),
    orderNumber: integer('order_number').notNull(),
    lineNo: integer('line_no').notNull(),
    quantity: integer('quantity').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.receiptId, t.orderNumber, t.lineNo] }),
    check('backorder_allocations_quantity', sql`${t.quantity} > 0`),
  ],
);
