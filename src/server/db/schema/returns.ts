import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { RestockDisposition, ReturnReason, ReturnState } from '../../../shared/returns.ts';
import { users } from './accounts.ts';
import { bytea, products } from './catalog.ts';
import { orderRefunds } from './ledger.ts';
import { orders } from './orders.ts';

/**
 * Returns (RMA, issue 35, decision 062). One row per return a buyer asks for; its state changes only in
 * src/server/returns/machine.ts under the order's and the return's row locks. Its refund is an order_refunds row
 * (the order's ledger); its stock back, stock_movements rows.
 */
export const returns = pgTable(
  'returns',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNumber: integer('order_number')
      .notNull()
      .references(() => orders.number),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    state: text('state').$type<ReturnState>().notNull().default('requested'),
    reason: text('reason').$type<ReturnReason>().notNull(),
    description: text('description').notNull(),
    /** Staff's authorization: how to send it back, and the prepaid label's link when there is one. */
    instructions: text('instructions'),
    labelUrl: text('label_url'),
    /** Why staff refused or closed it, or what they noted on receipt / at the refund. */
    staffNote: text('staff_note'),
    refundId: bigint('refund_id', { mode: 'number' }).references(() => orderRefunds.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('returns_order_idx').on(t.orderNumber),
    index('returns_state_idx').on(t.state, t.createdAt),
    check(
      'returns_state',
      sql`${t.state} in ('requested','authorized','refused','received','refunded','closed')`,
    ),
    check('returns_reason', sql`${t.reason} in ('defective','wrong_item','not_needed')`),
  ],
);

/** The order lines a return asks for, and where each went once received (sellable or quarantine). */
export const returnLines = pgTable(
  'return_lines',
  {
    returnId: bigint('return_id', { mode: 'number' })
      .notNull()
      .references(() => returns.id, { onDelete: 'cascade' }),
    lineNo: integer('line_no').notNull(),
    productCode: text('product_code')
      .notNull()
      .references(() => products.code),
    description: text('description').notNull(),
    unitPriceCents: bigint('unit_price_cents', { mode: 'number' }).notNull(),
    quantity: integer('quantity').notNull(),
    disposition: text('disposition').$type<RestockDisposition>(),
  },
  (t) => [
    primaryKey({ columns: [t.returnId, t.lineNo] }),
    check('return_lines_quantity', sql`${t.quantity} > 0`),
    check(
      'return_lines_disposition',
      sql`${t.disposition} is null or ${t.disposition} in ('sellable','quarantine')`,
    ),
  ],
);

/** The buyer's photos of a return (JPEG, PNG or WebP, judged by content, like the product pictures). */
export const returnPhotos = pgTable(
  'return_photos',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    returnId: bigint('return_id', { mode: 'number' })
      .notNull()
      .references(() => returns.id, { onDelete: 'cascade' }),
    contentType: text('content_type').notNull(),
    data: bytea('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('return_photos_return_idx').on(t.returnId)],
);

/**
 * 'Avísame cuando haya' (issue 35): one subscription per e-mail and presentation. The unsubscribe token is kept
 * only as its SHA-256; notified_at is set when the one mail is queued (a new subscription starts it again).
 */
export const stockAlerts = pgTable(
  'stock_alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    productCode: text('product_code')
      .notNull()
      .references(() => products.code),
    email: text('email').notNull(),
    userId: integer('user_id').references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('stock_alerts_product_email_idx').on(t.productCode, t.email),
    uniqueIndex('stock_alerts_token_idx').on(t.tokenHash),
    index('stock_alerts_waiting_idx')
      .on(t.productCode)
      .where(sql`${t.notifiedAt} is null and ${t.unsubscribedAt} is null`),
    index('stock_alerts_email_idx').on(t.email, t.createdAt),
  ],
);
