import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { RequisitionEvent, RequisitionState } from '../../../shared/requisitions.ts';
import { users } from './accounts.ts';
import { institutions } from './institutions.ts';
import { orders } from './orders.ts';
import { quotations } from './quotations.ts';

/**
 * A requisition (issue 34, decision 059): a cart or a quotation a member sent for approval. Its lines and prices
 * are those of the quotation behind it (frozen for the quotation's validity); placing it is the quotation's
 * conversion into an order for the institution. The state changes only in `requisitions/transitions.ts`.
 */
export const requisitions = pgTable(
  'requisitions',
  {
    id: serial('id').primaryKey(),
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id),
    requesterId: integer('requester_id')
      .notNull()
      .references(() => users.id),
    state: text('state').$type<RequisitionState>().notNull().default('pendiente'),
    /** The quotation whose lines, prices and validity the requisition carries. */
    quotationId: integer('quotation_id')
      .notNull()
      .references(() => quotations.id),
    /** The amount approved: the quotation's total when sent (placing refuses if the quotation changed since). */
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    lineCount: integer('line_count').notNull(),
    note: text('note').notNull().default(''),
    /** The two free fields, named by the institution (institutions.cost_centre_label / project_label). */
    costCentre: text('cost_centre').notNull().default(''),
    project: text('project').notNull().default(''),
    /** The last decision (approve, reject, return) and its reason. */
    decidedBy: integer('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    reason: text('reason'),
    placedBy: integer('placed_by').references(() => users.id),
    orderNumber: integer('order_number').references(() => orders.number),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('requisitions_institution_idx').on(t.institutionId, t.createdAt),
    index('requisitions_requester_idx').on(t.requesterId, t.createdAt),
    uniqueIndex('requisitions_order_uq').on(t.orderNumber),
    check(
      'requisitions_state_chk',
      sql`${t.state} in ('pendiente', 'aprobada', 'rechazada', 'devuelta', 'colocada', 'cancelada')`,
    ),
    check('requisitions_total_chk', sql`${t.totalCents} > 0`),
  ],
);

/** The audit trail of a requisition (who, what, when, why), read by the institution's administrador. */
export const requisitionEvents = pgTable(
  'requisition_events',
  {
    id: serial('id').primaryKey(),
    requisitionId: integer('requisition_id')
      .notNull()
      .references(() => requisitions.id),
    /** Null: the shop itself (the institution's rule placing an approved requisition). */
    actorId: integer('actor_id').references(() => users.id),
    event: text('event').$type<RequisitionEvent>().notNull(),
    fromState: text('from_state').$type<RequisitionState>(),
    toState: text('to_state').$type<RequisitionState>().notNull(),
    reason: text('reason'),
    orderNumber: integer('order_number'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('requisition_events_requisition_idx').on(t.requisitionId, t.id)],
);
