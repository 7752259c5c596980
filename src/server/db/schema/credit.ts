import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { institutions } from './institutions.ts';
import type { InvoiceSnapshot } from './invoices.ts';
import { invoices } from './invoices.ts';
import { orders } from './orders.ts';

/**
 * What the PDF of a CFDI de pago needs beside its XML (issue 34, decision 060): the stamped document's header and
 * one line per invoice it pays.
 */
export type PaymentCfdiSnapshot = InvoiceSnapshot & {
  fechaPago: string;
  formaDePagoP: string;
  monto: string;
  numOperacion: string | null;
  documentos: {
    uuid: string;
    serie: string | null;
    folio: string | null;
    numParcialidad: number;
    saldoAnterior: string;
    pagado: string;
    saldoInsoluto: string;
    base: string;
    iva: string;
  }[];
};

/**
 * A payment an institution made by transfer to the shop's account, recorded by staff (issue 34, decision 060),
 * and its CFDI de pago (tipo P, complemento Pagos 2.0): 'pending' until stamped — the sealed XML kept before the
 * PAC is called, so a crash between stamping and recording sends the same document again and the PAC answers the
 * same stamp — then 'issued'. A bank reference is recorded once per institution.
 */
export const creditPayments = pgTable(
  'credit_payments',
  {
    id: serial('id').primaryKey(),
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id),
    /** The day the money arrived (FechaPago), Mexico City. */
    receivedOn: date('received_on').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** The SPEI tracking key or the bank's reference (NumOperacion). */
    bankReference: text('bank_reference').notNull(),
    /** c_FormaPago of the money: '03' transferencia electrónica. */
    formaPago: text('forma_pago').notNull().default('03'),
    recordedBy: integer('recorded_by').references(() => users.id),
    cfdiStatus: text('cfdi_status').$type<'pending' | 'issued'>().notNull().default('pending'),
    pac: text('pac'),
    serie: text('serie'),
    folio: integer('folio'),
    uuid: text('uuid'),
    test: boolean('test').notNull().default(false),
    sealed: jsonb('sealed').$type<{ xml: string; comprobante: unknown }>(),
    xml: text('xml'),
    snapshot: jsonb('snapshot').$type<PaymentCfdiSnapshot>(),
    /** Whoever is stamping it now holds it until then (a crashed one is taken over after). */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastError: text('last_error'),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('credit_payments_reference_idx').on(t.institutionId, t.bankReference),
    uniqueIndex('credit_payments_uuid_idx').on(t.uuid),
    index('credit_payments_pending_idx').on(t.cfdiStatus).where(sql`${t.cfdiStatus} = 'pending'`),
    check('credit_payments_amount', sql`${t.amountCents} > 0`),
  ],
);

/**
 * What of a payment went to which invoice PPD: its parcialidad, the balance before and after (ImpSaldoAnt,
 * ImpSaldoInsoluto) and the IVA it carries (TrasladoDR). One parcialidad number per invoice (unique), written under
 * the invoice's row lock, so concurrent payments cannot overpay it.
 */
export const creditPaymentAllocations = pgTable(
  'credit_payment_allocations',
  {
    paymentId: integer('payment_id')
      .notNull()
      .references(() => creditPayments.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    orderNumber: integer('order_number')
      .notNull()
      .references(() => orders.number),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    numParcialidad: integer('num_parcialidad').notNull(),
    balanceBeforeCents: bigint('balance_before_cents', { mode: 'number' }).notNull(),
    balanceAfterCents: bigint('balance_after_cents', { mode: 'number' }).notNull(),
    baseCents: bigint('base_cents', { mode: 'number' }).notNull(),
    ivaCents: bigint('iva_cents', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.paymentId, t.invoiceId] }),
    uniqueIndex('credit_payment_allocations_parcialidad_idx').on(t.invoiceId, t.numParcialidad),
    check(
      'credit_payment_allocations_amounts',
      sql`${t.amountCents} > 0 and ${t.balanceAfterCents} >= 0 and ${t.balanceBeforeCents} - ${t.amountCents} = ${t.balanceAfterCents}`,
    ),
  ],
);

/** Reminder mails of an invoice PPD ('before' its due date, 'after' it), each sent once. */
export const creditReminders = pgTable(
  'credit_reminders',
  {
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    kind: text('kind').$type<'before' | 'after'>().notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.invoiceId, t.kind] })],
);
