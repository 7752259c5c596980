import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { orders } from './orders.ts';

/**
 * Who moved the money or the paper: the buyer, a staff member (the audit log's actor), the gateway's word
 * (webhook, a charge's answer), the sweeper finishing interrupted work, or the invoicing jobs.
 */
export type LedgerActor = {
  by: 'shopper' | 'staff' | 'gateway' | 'sweeper' | 'system';
  userId: number | null;
  label: string;
};

/**
 * The kinds of movement (decision 045). Money:
 * - charge: money came in (card captured, SPEI received, cash paid at a store);
 * - refund_due: the shop decided to give back `amount` by `route` (card refund, payout to a CLABE, transfer
 *   made outside); the promise, not yet the money;
 * - refund: the money left by `route` (Openpay's refund id, payout id, the bank reference) — settles a due;
 * - refund_failed: a due that will not be paid that way (the gateway refused); settles the due without money.
 * Paper:
 * - invoice / invoice_cancelled: the CFDI de ingreso of the order (UUID), with the SAT motivo when cancelled;
 * - credit_note / credit_note_cancelled: a CFDI de egreso related to the invoice (or to a global);
 * - global_in / global_out: the order's sale counted in a factura global, or taken out of it (egreso or
 *   the global cancelled and re-issued).
 * Sales on credit (issue 34, decision 060):
 * - credit_sale: the order was placed on the institution's credit line for `amount` (the debt is born; no money);
 * - credit_payment: money received by transfer and applied to the order's invoice PPD (reference: the payment);
 * - payment_cfdi: the CFDI de pago (tipo P) stamped for that money (reference: its UUID, detail.payment).
 */
export const LEDGER_KINDS = [
  'charge',
  'refund_due',
  'refund',
  'refund_failed',
  'invoice',
  'invoice_cancelled',
  'credit_note',
  'credit_note_cancelled',
  'global_in',
  'global_out',
  'credit_sale',
  'credit_payment',
  'payment_cfdi',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** How money goes back: the card refunded by Openpay, an Openpay payout to a CLABE, a transfer made outside. */
export const REFUND_ROUTES = ['card', 'payout', 'transfer'] as const;
export type RefundRoute = (typeof REFUND_ROUTES)[number];

/**
 * One order's money and tax papers, append-only: every peso that moves and every CFDI that follows it is a row,
 * written only by src/server/orders/ledger.ts under the order's row lock. Balances are sums over it.
 */
export const orderLedger = pgTable(
  'order_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNumber: integer('order_number')
      .notNull()
      .references(() => orders.number),
    kind: text('kind').$type<LedgerKind>().notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** charge: 'card' | 'spei' | 'cash'; refund kinds: a RefundRoute; paper: null. */
    method: text('method'),
    /**
     * What identifies the movement at its source, so a repeated report writes nothing: the charge id, the
     * refund's or payout's id, a bank reference, a CFDI's UUID.
     */
    reference: text('reference'),
    /** The refund (order_refunds.id) a refund_due/refund/refund_failed row belongs to. */
    refundId: bigint('refund_id', { mode: 'number' }),
    /** SAT motivo of a cancellation (01–04); the related UUID of an egreso. */
    detail: jsonb('detail').$type<Record<string, string | number | null>>(),
    actor: jsonb('actor').$type<LedgerActor>().notNull(),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('order_ledger_order_idx').on(t.orderNumber, t.id),
    uniqueIndex('order_ledger_reference_idx')
      .on(t.orderNumber, t.kind, t.reference)
      .where(sql`${t.reference} is not null`),
    check('order_ledger_amount', sql`${t.amountCents} >= 0`),
    // The dashboard's sales per day (src/server/dashboard/sales.ts, migration 0035).
    index('order_ledger_sales_idx')
      .on(t.createdAt)
      .where(sql`${t.kind} in ('charge', 'credit_sale', 'refund_due', 'refund_failed')`),
  ],
);

export const REFUND_STATES = ['owed', 'in_progress', 'done', 'failed'] as const;
export type RefundState = (typeof REFUND_STATES)[number];

/**
 * A refund the shop decided, as work to be done: a card refund asked of Openpay (in_progress until its answer),
 * or money owed to a buyer who paid by SPEI or in cash (owed until staff pay it by payout or transfer). Its money
 * movements are ledger rows carrying its id; this row holds what the work needs (the CLABE, the lease of whoever
 * is asking the gateway, the payout's id).
 */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNumber: integer('order_number')
      .notNull()
      .references(() => orders.number),
    route: text('route').$type<RefundRoute>().notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    state: text('state').$type<RefundState>().notNull(),
    /** Payout or transfer: the buyer's CLABE (18 digits, check digit verified) and the holder's name. */
    clabe: text('clabe'),
    holderName: text('holder_name'),
    /** Openpay's refund or payout id; the bank reference of a transfer made outside. */
    providerId: text('provider_id'),
    /** The order_id sent with a payout ('1001-r7-…'): unique at Openpay, so a retry is never paid twice. */
    providerRef: text('provider_ref'),
    errorMessage: text('error_message'),
    reason: text('reason').notNull(),
    actor: jsonb('actor').$type<LedgerActor>().notNull(),
    /** While a request or the sweeper is asking the gateway (payout): until when it is known to be working. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [
    index('order_refunds_order_idx').on(t.orderNumber),
    index('order_refunds_open_idx')
      .on(t.state, t.createdAt)
      .where(sql`${t.state} in ('owed', 'in_progress')`),
    uniqueIndex('order_refunds_provider_ref_idx').on(t.providerRef),
    check('order_refunds_amount', sql`${t.amountCents} > 0`),
  ],
);
