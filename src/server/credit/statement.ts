import { and, eq, inArray } from 'drizzle-orm';
import { AGING_BUCKETS, type AgingKey, agingBucket, creditOnHold } from '../../shared/credit.ts';
import { mexicoCityDate } from '../../shared/mexico-time.ts';
import type { Statement } from '../../shared/schemas/credit.ts';
import type { Db } from '../db/client.ts';
import { creditPaymentAllocations, institutions, invoices, orders } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { creditLineOf } from './line.ts';
import { paymentsOf } from './payments.ts';

/**
 * The estado de cuenta of an institution (issue 34, decision 060): its invoices PPD with a balance, its payments
 * with their CFDI de pago, its credit notes, the balance and its aging. Aging is by the invoice's age (days since
 * it was issued: 0–30, 31–60, 61–90, more than 90), the accountant's «antigüedad de saldos»; each invoice also
 * carries its due date and days past it. The balance of an invoice is its total minus the payments applied to it
 * minus its live credit notes — the ledger's receivable (orders/ledger.ts).
 */
const DAY = 86_400_000;

export const emptyAging = (): Record<AgingKey, number> => ({ d0_30: 0, d31_60: 0, d61_90: 0, d90_plus: 0 });

const serieFolio = (row: { serie: string | null; folio: number | null; id: number }) =>
  row.serie && row.folio !== null ? `${row.serie}${row.folio}` : `#${row.id}`;

/** Days between two instants by Mexico City calendar days. */
const daysBetween = (from: Date, to: Date) =>
  Math.round(
    (Date.parse(`${mexicoCityDate(to)}T00:00:00Z`) - Date.parse(`${mexicoCityDate(from)}T00:00:00Z`)) / DAY,
  );

export async function creditInvoicesOf(db: Db, institutionId: number, asOf: Date) {
  const rows = await db
    .select({ invoice: invoices, purchaseOrder: orders.purchaseOrder })
    .from(invoices)
    .innerJoin(orders, eq(orders.number, invoices.orderNumber))
    .where(
      and(
        eq(orders.institutionId, institutionId),
        eq(invoices.kind, 'I'),
        eq(invoices.status, 'issued'),
        eq(invoices.metodoPago, 'PPD'),
      ),
    )
    .orderBy(invoices.issuedAt);
  const ids = rows.map((r) => r.invoice.id);
  const uuids = rows.map((r) => r.invoice.uuid ?? '');
  const paid =
    ids.length === 0
      ? []
      : await db
          .select({
            invoiceId: creditPaymentAllocations.invoiceId,
            cents: creditPaymentAllocations.amountCents,
          })
          .from(creditPaymentAllocations)
          .where(inArray(creditPaymentAllocations.invoiceId, ids));
  const notes =
    uuids.length === 0
      ? []
      : await db
          .select()
          .from(invoices)
          .where(
            and(eq(invoices.kind, 'E'), eq(invoices.status, 'issued'), inArray(invoices.relatedUuid, uuids)),
          );
  const invoicesView = rows.map(({ invoice, purchaseOrder }) => {
    const paidCents = paid.filter((p) => p.invoiceId === invoice.id).reduce((s, p) => s + p.cents, 0);
    const creditedCents = notes
      .filter((n) => n.relatedUuid === invoice.uuid)
      .reduce((s, n) => s + n.totalCents, 0);
    const issuedAt = invoice.issuedAt ?? invoice.createdAt;
    const dueAt = invoice.dueAt ?? issuedAt;
    return {
      invoiceId: invoice.id,
      orderNumber: invoice.orderNumber,
      serieFolio: serieFolio(invoice),
      uuid: invoice.uuid ?? '',
      issuedAt: issuedAt.toISOString(),
      dueAt: dueAt.toISOString(),
      totalCents: invoice.totalCents,
      paidCents,
      creditedCents,
      balanceCents: Math.max(0, invoice.totalCents - paidCents - creditedCents),
      daysPastDue: Math.max(0, daysBetween(dueAt, asOf)),
      ageDays: Math.max(0, daysBetween(issuedAt, asOf)),
      purchaseOrder,
    };
  });
  const creditNotes = notes.map((n) => ({
    uuid: n.uuid ?? '',
    serieFolio: serieFolio(n),
    issuedAt: (n.issuedAt ?? n.createdAt).toISOString(),
    totalCents: n.totalCents,
    relatedSerieFolio: invoicesView.find((i) => i.uuid === n.relatedUuid)?.serieFolio ?? '',
  }));
  return { invoices: invoicesView, creditNotes };
}

export function agingOf(open: { balanceCents: number; ageDays: number }[]) {
  const aging = emptyAging();
  for (const i of open) aging[agingBucket(i.ageDays)] += i.balanceCents;
  return aging;
}

export async function statementOf(db: Db, institutionId: number, asOf: Date): Promise<Statement> {
  const [inst] = await db.select().from(institutions).where(eq(institutions.id, institutionId));
  if (!inst) throw notFound('Institución no encontrada');
  const line = await creditLineOf(db, institutionId, asOf);
  const { invoices: all, creditNotes } = await creditInvoicesOf(db, institutionId, asOf);
  const open = all.filter((i) => i.balanceCents > 0);
  const payments = await paymentsOf({ db }, institutionId);
  return {
    institution: { id: inst.id, razonSocial: inst.razonSocial, rfc: inst.rfc },
    asOf: asOf.toISOString(),
    limitCents: line?.limitCents ?? null,
    days: line?.days ?? null,
    balanceCents: line?.openCents ?? open.reduce((s, i) => s + i.balanceCents, 0),
    availableCents: line?.availableCents ?? null,
    onHold: line?.onHold ?? false,
    holdReason: line?.onHold ? creditOnHold(line.overdueCount, line.overdueCents) : null,
    aging: agingOf(open),
    openInvoices: open.map(({ ageDays: _age, ...rest }) => rest),
    payments: payments.map((p) => ({
      id: p.id,
      receivedOn: p.receivedOn,
      amountCents: p.amountCents,
      bankReference: p.bankReference,
      cfdiStatus: p.cfdiStatus,
      uuid: p.uuid,
      serieFolio: p.serie && p.folio !== null ? `${p.serie}${p.folio}` : null,
      invoices: p.invoices,
    })),
    creditNotes,
  };
}

export const AGING_LABELS = AGING_BUCKETS;
