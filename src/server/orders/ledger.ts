import { asc, eq } from 'drizzle-orm';
import type { Actor } from '../audit/log.ts';
import type { Db, Tx } from '../db/client.ts';
import { type LedgerActor, type LedgerKind, orderLedger, type RefundRoute } from '../db/schema.ts';
import type { Requester } from './requester.ts';

/**
 * The order's ledger (decision 045): the one place that writes order_ledger, and the balances every screen,
 * mail and CFDI reads. A movement is written in the caller's transaction, which holds the order's row lock
 * (lockOrder), so the movements of one order are ordered and a balance read under the lock is the truth. A
 * movement with a reference is written once: a repeated webhook, a retry after a crash or a second instance
 * finishing the same work finds it there and writes nothing.
 */

export type LedgerRow = typeof orderLedger.$inferSelect;

export type Movement = {
  kind: LedgerKind;
  amountCents: number;
  method?: string | null;
  reference?: string | null;
  refundId?: number | null;
  detail?: Record<string, string | number | null> | null;
  reason?: string | null;
};

/** The ledger's actor for whoever asked: staff keep their audit label; the shop's own processes name themselves. */
export function ledgerActor(who: Requester | { kind: 'system' }): LedgerActor {
  switch (who.kind) {
    case 'shopper':
      return { by: 'shopper', userId: who.userId, label: 'cliente' };
    case 'staff':
      return { by: 'staff', userId: who.actor.userId, label: who.actor.label };
    case 'gateway':
      return { by: 'gateway', userId: null, label: 'Openpay' };
    case 'sweeper':
      return { by: 'sweeper', userId: null, label: 'proceso de recuperación' };
    case 'system':
      return { by: 'system', userId: null, label: 'facturación' };
  }
}

export const staffLedgerActor = (actor: Actor): LedgerActor => ledgerActor({ kind: 'staff', actor });

/**
 * Appends one movement. Must run in a transaction holding the order's lock. Answers false when a movement of
 * the same kind and reference is already there (nothing written).
 */
export async function recordMovement(
  tx: Tx,
  orderNumber: number,
  actor: LedgerActor,
  movement: Movement,
): Promise<boolean> {
  if (!Number.isSafeInteger(movement.amountCents) || movement.amountCents < 0)
    throw new Error(`Importe inválido en el libro del pedido ${orderNumber}: ${movement.amountCents}`);
  const written = await tx
    .insert(orderLedger)
    .values({
      orderNumber,
      kind: movement.kind,
      amountCents: movement.amountCents,
      method: movement.method ?? null,
      reference: movement.reference ?? null,
      refundId: movement.refundId ?? null,
      detail: movement.detail ?? null,
      actor,
      reason: movement.reason ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: orderLedger.id });
  return written.length > 0;
}

export async function ledgerOf(db: Db, orderNumber: number): Promise<LedgerRow[]> {
  return db
    .select()
    .from(orderLedger)
    .where(eq(orderLedger.orderNumber, orderNumber))
    .orderBy(asc(orderLedger.id));
}

/**
 * Where an order's money and papers stand, all in centavos:
 * - paid: money received; refunded: money that went back, by route;
 * - refundDue: promised and not yet gone (a card refund in flight, money owed to a SPEI/cash buyer);
 * - kept: what the shop keeps once every promise is paid (paid − refunded − refundDue);
 * - invoiced: the live CFDI de ingreso's total; credited: live credit notes (egresos) on it;
 * - inGlobal: the sale counts in a live factura global, for inGlobalCents (what was kept when the global was
 *   claimed: decision 056), and what of it a global egreso took back: globalCredited; globalTaxDue: what the global
 *   still states beyond what is kept and its egresos (positive: an egreso to the público en general is missing);
 * - taxDue: what the papers still owe the money — the live invoice minus its credit notes, minus what is kept
 *   and, on a sale on credit, minus what is still owed (positive: a credit note is missing for money that went back);
 * - on credit (decision 060): creditSale, the sale placed on the credit line; creditPaid, money applied to its invoice
 *   PPD (also in paid); receivable, what the institution still owes — the invoice's total (or, before it is
 *   issued, the sale) minus payments applied minus credit notes; paymentPapersDue, money applied that has no CFDI de
 *   pago yet (positive: a CFDI P is missing).
 */
export type Balances = {
  paidCents: number;
  refundedCents: number;
  refundedByRoute: Record<RefundRoute, number>;
  refundDueCents: number;
  /** refunded + refundDue: what went back or was promised back, whatever the route. */
  givenBackCents: number;
  keptCents: number;
  invoicedCents: number;
  creditedCents: number;
  inGlobal: boolean;
  inGlobalCents: number;
  globalCreditedCents: number;
  globalTaxDueCents: number;
  taxDueCents: number;
  creditSaleCents: number;
  creditPaidCents: number;
  receivableCents: number;
  paymentPapersDueCents: number;
};

export function balancesFrom(rows: readonly Pick<LedgerRow, 'kind' | 'amountCents' | 'method' | 'detail'>[]) {
  const sum = (kind: LedgerKind, pick: (row: (typeof rows)[number]) => boolean = () => true) =>
    rows.filter((r) => r.kind === kind && pick(r)).reduce((total, r) => total + r.amountCents, 0);
  const refundedByRoute = { card: 0, payout: 0, transfer: 0 } satisfies Record<RefundRoute, number>;
  for (const row of rows) {
    if (row.kind === 'refund') refundedByRoute[(row.method as RefundRoute) ?? 'card'] += row.amountCents;
  }
  const onGlobal = (r: (typeof rows)[number]) => r.detail?.global != null;
  const creditSaleCents = sum('credit_sale');
  const creditPaidCents = sum('credit_payment');
  const paidCents = sum('charge') + creditPaidCents;
  const refundedCents = sum('refund');
  const refundDueCents = Math.max(0, sum('refund_due') - refundedCents - sum('refund_failed'));
  const givenBackCents = refundedCents + refundDueCents;
  const keptCents = paidCents - givenBackCents;
  const invoicedCents = sum('invoice') - sum('invoice_cancelled');
  const creditedCents =
    sum('credit_note', (r) => !onGlobal(r)) - sum('credit_note_cancelled', (r) => !onGlobal(r));
  const inGlobalCents = sum('global_in') - sum('global_out');
  const inGlobal = inGlobalCents > 0;
  const globalCreditedCents = sum('credit_note', onGlobal) - sum('credit_note_cancelled', onGlobal);
  const globalTaxDueCents = inGlobal ? inGlobalCents - globalCreditedCents - Math.max(0, keptCents) : 0;
  // What the institution still owes: the invoice PPD once issued (its total is the sale), else the sale itself.
  const owedOn = invoicedCents > 0 ? invoicedCents : creditSaleCents;
  const receivableCents = creditSaleCents > 0 ? Math.max(0, owedOn - creditPaidCents - creditedCents) : 0;
  const taxDueCents = invoicedCents > 0 ? invoicedCents - creditedCents - keptCents - receivableCents : 0;
  const paymentPapersDueCents = creditPaidCents - sum('payment_cfdi');
  return {
    paidCents,
    refundedCents,
    refundedByRoute,
    refundDueCents,
    givenBackCents,
    keptCents,
    invoicedCents,
    creditedCents,
    inGlobal,
    inGlobalCents,
    globalCreditedCents,
    globalTaxDueCents,
    taxDueCents,
    creditSaleCents,
    creditPaidCents,
    receivableCents,
    paymentPapersDueCents,
  } satisfies Balances;
}

export async function balancesOf(db: Db, orderNumber: number): Promise<Balances> {
  return balancesFrom(await ledgerOf(db, orderNumber));
}
