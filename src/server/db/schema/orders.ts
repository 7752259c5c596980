import {
  bigserial,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

export type AddressSnapshot = {
  nombreEnvio: string;
  telefonoEnvio: string;
  cpEnvio: string;
  calleEnvio: string;
  numExtEnvio: string;
  numIntEnvio: string;
  coloniaEnvio: string;
  municipioEnvio: string;
  ciudadEnvio: string;
  estadoEnvio: string;
  paisEnvio: string;
};

export const orderNumberSeq = pgSequence('order_number_seq', { startWith: 1001 });

/**
 * Statuses: pending_payment, paid, preparing, shipped, delivered, payment_failed, cancelled (SPEC-NOTES 6).
 * Amounts in centavos, IVA included; ivaCents is the included part.
 */
export const orders = pgTable(
  'orders',
  {
    number: integer('number').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    status: text('status').notNull(),
    subtotalCents: integer('subtotal_cents').notNull(),
    shippingCents: integer('shipping_cents').notNull(),
    ivaCents: integer('iva_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    address: jsonb('address').$type<AddressSnapshot>().notNull(),
    trackingGuide: text('tracking_guide'),
    deliveryProvider: text('delivery_provider'),
    deliveryDate: date('delivery_date'),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** Until when the stock reservation of an unpaid order holds. */
    reservedUntil: timestamp('reserved_until', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelReason: text('cancel_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_idempotency_idx').on(t.userId, t.idempotencyKey),
    index('orders_user_idx').on(t.userId, t.createdAt),
    index('orders_status_idx').on(t.status, t.reservedUntil),
  ],
);

export const orderLines = pgTable(
  'order_lines',
  {
    orderNumber: integer('order_number')
      .notNull()
      .references(() => orders.number, { onDelete: 'cascade' }),
    lineNo: integer('line_no').notNull(),
    productCode: text('product_code').notNull(),
    description: text('description').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    quantity: integer('quantity').notNull(),
    weightKg: numeric('weight_kg', { precision: 10, scale: 3, mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orderNumber, t.lineNo] })],
);

/** One row per charge attempt; status follows the gateway's (in_progress, completed, failed, refunded, charge_pending…). */
export const payments = pgTable(
  'payments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNumber: integer('order_number')
      .notNull()
      .references(() => orders.number),
    gateway: text('gateway').notNull(),
    chargeId: text('charge_id'),
    status: text('status').notNull(),
    amountCents: integer('amount_cents').notNull(),
    refundedCents: integer('refunded_cents').notNull().default(0),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    redirectUrl: text('redirect_url'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payments_order_idx').on(t.orderNumber), uniqueIndex('payments_charge_idx').on(t.chargeId)],
);
