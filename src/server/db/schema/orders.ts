import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
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
import type { DeliveryMethod } from '../../../shared/delivery.ts';
import type { OrderPaymentMethod } from '../../../shared/payment-methods.ts';
import type { Address } from '../../../shared/schemas/common.ts';
import type { OrderStatus, PaymentInstructions } from '../../../shared/schemas/orders.ts';
import { users } from './accounts.ts';
import { institutions } from './institutions.ts';

/**
 * Who asked for a cancellation and why, written when the order is claimed (cancelledAt set) so that whoever
 * finishes it — the request itself, or the sweeper after a crash between the refund and the commit — records
 * the same reason, and the same staff member in the audit log.
 */
export type CancelRequest = {
  by: 'shopper' | 'staff';
  reason: string;
  /** The staff member (audit log); null for a shopper. */
  actor: { userId: number | null; label: string } | null;
};

export type PaymentState = 'paid' | 'partially_refunded' | 'refunded' | 'in_dispute' | 'lost';

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
    status: text('status').$type<OrderStatus>().notNull(),
    subtotalCents: bigint('subtotal_cents', { mode: 'number' }).notNull(),
    shippingCents: bigint('shipping_cents', { mode: 'number' }).notNull(),
    ivaCents: bigint('iva_cents', { mode: 'number' }).notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    address: jsonb('address').$type<Address>().notNull(),
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
    /** Set with cancelledAt while a cancellation is claimed; kept afterwards as the record of who asked. */
    cancelRequest: jsonb('cancel_request').$type<CancelRequest>(),
    /**
     * While a cancellation is claimed and not finished: until when its holder is known to be working (renewed by
     * the holder's heartbeat). Past it, the holder died; the sweeper takes the claim over and finishes it.
     */
    cancelLeaseUntil: timestamp('cancel_lease_until', { withTimezone: true }),
    /**
     * Where the money stands once paid (the gateway's word, src/server/orders/payment-events.ts): null until
     * paid, then 'paid', 'partially_refunded', 'refunded', 'in_dispute' (chargeback open) or 'lost'
     * (chargeback accepted). A refunded or lost order can no longer be invoiced.
     */
    paymentState: text('payment_state').$type<PaymentState>(),
    /** The buyer's purchase-order number (orden de compra), printed on everything about the order (issue 20). */
    purchaseOrder: text('purchase_order'),
    /** The quotation it was converted from (issue 20), whose prices it was sold at. */
    quotationId: integer('quotation_id'),
    /** How the buyer chose to pay (issue 21): 'card', 'spei' (transfer) or 'cash' (at a store). */
    paymentMethod: text('payment_method').$type<OrderPaymentMethod>().notNull().default('card'),
    /**
     * SPEI or store: until when the payment is accepted (the Openpay charge's due_date, the hold's end). Unlike
     * reserved_until it is never moved by the sweeper's lease.
     */
    paymentDueAt: timestamp('payment_due_at', { withTimezone: true }),
    /** Card on meses sin intereses: the months of Openpay's payment_plan; null when paid in one go. */
    msiMonths: integer('msi_months'),
    /**
     * A SPEI or store payment that arrived after the order had expired and its stock was released: recorded,
     * never re-reserving stock silently; staff decide (back office 'Pago recibido fuera de plazo').
     */
    latePaymentAt: timestamp('late_payment_at', { withTimezone: true }),
    /**
     * 'Sobre pedido' (decision 029): the promised date for what ships from stock (business days, Mexico City);
     * the backordered part's window is on each line. Null for orders placed before.
     */
    shipNowBy: date('ship_now_by'),
    /**
     * How it reaches the buyer (issue 35, decision 061): 'ground' or 'air' parcel, or 'pickup' at a branch
     * (then `pickupBranch` is the index of the branch in config/shop.json and no shipping is charged).
     */
    deliveryMethod: text('delivery_method').$type<DeliveryMethod>().notNull().default('ground'),
    pickupBranch: integer('pickup_branch'),
    /** The shown code the collector gives at the branch; set when staff mark it 'Listo para recoger'. */
    pickupCode: text('pickup_code'),
    /** Collected at the branch: who (name and the ID they showed) and when. */
    collectedByName: text('collected_by_name'),
    collectedById: text('collected_by_id'),
    collectedAt: timestamp('collected_at', { withTimezone: true }),
    /** The 'sigue esperándolo' reminder of an uncollected pickup was mailed (once). */
    pickupRemindedAt: timestamp('pickup_reminded_at', { withTimezone: true }),
    /** The institution the order was placed for (issue 34); null = a personal order. */
    institutionId: integer('institution_id').references(() => institutions.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_idempotency_idx').on(t.userId, t.idempotencyKey),
    index('orders_user_idx').on(t.userId, t.createdAt),
    index('orders_status_idx').on(t.status, t.reservedUntil),
    // The dashboard's orders by state, all and of the last 30 days: an index-only scan (migration 0035).
    index('orders_status_created_idx').on(t.status, t.createdAt),
    index('orders_quotation_idx').on(t.quotationId).where(sql`${t.quotationId} is not null`),
    index('orders_institution_idx')
      .on(t.institutionId, t.createdAt)
      .where(sql`${t.institutionId} is not null`),
    index('orders_cancel_lease_idx').on(t.cancelLeaseUntil).where(sql`${t.cancelLeaseUntil} is not null`),
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
    unitPriceCents: bigint('unit_price_cents', { mode: 'number' }).notNull(),
    quantity: integer('quantity').notNull(),
    weightKg: numeric('weight_kg', { precision: 10, scale: 3, mode: 'number' }).notNull().default(0),
    /**
     * 'Sobre pedido' (decision 029): of `quantity`, the units stock did not cover when the order was placed (the
     * rest, quantity − backordered, was taken from stock with a ledger row, and only that part goes back on a
     * cancellation). The sale, its price and its CFDI line are the whole quantity.
     */
    backorderedQuantity: integer('backordered_quantity').notNull().default(0),
    /** The promised window of the backordered units (business days, Mexico City); null when none. */
    backorderFrom: date('backorder_from'),
    backorderTo: date('backorder_to'),
    /**
     * Issue 35: of the backordered units, how many goods received have filled (FIFO, src/server/shipments/
     * receiving.ts); and of the whole line, how many units left in a shipment. What may ship now is
     * quantity − backordered + received − shipped.
     */
    receivedQuantity: integer('received_quantity').notNull().default(0),
    shippedQuantity: integer('shipped_quantity').notNull().default(0),
    /**
     * Backordered units the buyer gave up after their promised window passed (refunded through the ledger); and
     * when the window first passed (the 'backorders-late' job moved it and told the buyer and staff).
     */
    cancelledQuantity: integer('cancelled_quantity').notNull().default(0),
    delayedAt: timestamp('delayed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.orderNumber, t.lineNo] }),
    // The dashboard's 'what sold' reads only these columns: an index-only scan (migration 0035).
    index('order_lines_sold_idx').on(t.orderNumber, t.productCode, t.unitPriceCents, t.quantity),
    check(
      'order_lines_backordered',
      sql`${t.backorderedQuantity} between 0 and ${t.quantity} and (${t.backorderedQuantity} = 0) = (${t.backorderFrom} is null) and (${t.backorderFrom} is null) = (${t.backorderTo} is null)`,
    ),
    check(
      'order_lines_shipped',
      sql`${t.receivedQuantity} >= 0 and ${t.cancelledQuantity} >= 0 and ${t.receivedQuantity} + ${t.cancelledQuantity} <= ${t.backorderedQuantity} and ${t.shippedQuantity} between 0 and ${t.quantity} - ${t.backorderedQuantity} + ${t.receivedQuantity}`,
    ),
  ],
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
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull().default(0),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    redirectUrl: text('redirect_url'),
    /**
     * The order_id sent to the gateway for this attempt: the order number and a random suffix
     * ('1001-k3x9q2m7'), unique across databases sharing one Openpay merchant. Null on attempts made
     * before migration 0010 (they sent the bare order number).
     */
    orderRef: text('order_ref'),
    /** How it was paid, once paid: 'card', 'spei' or 'cash' (CFDI FormaPago). */
    method: text('method').$type<'card' | 'spei' | 'cash'>(),
    /** For cards, once paid: 'credit' or 'debit' (Openpay's card.type; CFDI FormaPago 04 / 28). */
    cardType: text('card_type').$type<'credit' | 'debit'>(),
    /** SPEI or store: the instructions the gateway gave (CLABE, bank, reference; or the Paynet reference). */
    instructions: jsonb('instructions').$type<PaymentInstructions>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payments_order_idx').on(t.orderNumber),
    uniqueIndex('payments_charge_idx').on(t.chargeId),
    uniqueIndex('payments_order_ref_idx').on(t.orderRef),
  ],
);

/**
 * What staff must look at about an order's money (a refund made in Openpay's dashboard, a chargeback, a charge
 * that is not ours): shown on the back office's order until someone marks it seen. One row per fact
 * (dedupe_key), so repeated webhook deliveries alert once.
 */
export const paymentAlerts = pgTable(
  'payment_alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNumber: integer('order_number')
      .notNull()
      .references(() => orders.number),
    kind: text('kind').notNull(),
    message: text('message').notNull(),
    chargeId: text('charge_id'),
    dedupeKey: text('dedupe_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    seenAt: timestamp('seen_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payment_alerts_dedupe_idx').on(t.dedupeKey),
    index('payment_alerts_order_idx').on(t.orderNumber),
  ],
);

/** What POST /api/orders answered for a key: the checkout's result, replayed to a retry with the same key. */
export type CheckoutAnswer =
  | { kind: 'paid'; number: number }
  /** SPEI or cash: the order holds its stock until the deadline; the instructions are on its page. */
  | { kind: 'awaiting'; number: number }
  | { kind: 'redirect'; number: number; redirectUrl: string }
  | { kind: 'failed'; number: number; message: string; errorCode: number | null }
  /** The payment failed on our side (nothing charged, order released): 503, never a decline. */
  | { kind: 'error'; number: number; message: string }
  | { kind: 'refused'; code: string; message: string };

/**
 * Idempotency-Key of POST /api/orders (Stripe's contract): the key, a hash of the request and the
 * answer once there is one. 'in_progress' rows are leased until lockedUntil so a crashed request
 * can be resumed by a retry with the same key.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** 'in_progress' or 'done'. */
    state: text('state').notNull(),
    orderNumber: integer('order_number'),
    /** The final answer, replayed from then on (HTTP status and body are the route's business). */
    answer: jsonb('answer').$type<CheckoutAnswer>(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/** Card tokens of the offline payment simulator (single use; never the full card number). */
export const sandboxTokens = pgTable('sandbox_tokens', {
  id: text('id').primaryKey(),
  holderName: text('holder_name').notNull(),
  /** 'visa' | 'mastercard'. */
  brand: text('brand').notNull(),
  maskedNumber: text('masked_number').notNull(),
  /** What the simulator will answer for this card: 'approve', '3ds' or an Openpay error code. */
  outcome: text('outcome').notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Charges of the offline payment simulator, in the database so several instances agree. */
export const sandboxCharges = pgTable('sandbox_charges', {
  id: text('id').primaryKey(),
  orderId: text('order_id').unique(),
  tokenId: text('token_id').notNull(),
  amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull().default(0),
  status: text('status').notNull(),
  errorCode: integer('error_code'),
  errorMessage: text('error_message'),
  description: text('description').notNull(),
  redirectUrl: text('redirect_url'),
  maskedNumber: text('masked_number').notNull(),
  /** Openpay's method: 'card', 'bank_account' (SPEI) or 'store' (issue 21). */
  method: text('method').notNull().default('card'),
  dueDate: timestamp('due_date', { withTimezone: true }),
  /** Openpay's payment_method object of a bank_account or store charge. */
  paymentMethod: jsonb('payment_method').$type<Record<string, string>>(),
  /** Every refund of the charge, oldest first, in Openpay's refund shape (what the answer's `refunds` lists). */
  refunds: jsonb('refunds').$type<SandboxRefund[]>().notNull().default(sql`'[]'::jsonb`),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type SandboxRefund = { id: string; amount_cents: number; description: string; created_at: string };

/**
 * Payouts of the offline payment simulator (money sent to a CLABE), in the database so several instances agree.
 * order_id is unique like Openpay's (the charges' order_ids are checked as well: unique among all transactions).
 */
export const sandboxPayouts = pgTable('sandbox_payouts', {
  id: text('id').primaryKey(),
  orderId: text('order_id').notNull().unique(),
  amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  /** The full CLABE (answers show it masked, as Openpay does). */
  clabe: text('clabe').notNull(),
  holderName: text('holder_name').notNull(),
  description: text('description').notNull(),
  /** 'in_progress', then 'completed' or 'failed' (Openpay's payout statuses). */
  status: text('status').notNull(),
  errorCode: integer('error_code'),
  errorMessage: text('error_message'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
