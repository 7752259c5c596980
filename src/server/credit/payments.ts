import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { mexicoCityDate } from '../../shared/mexico-time.ts';
import { formatMoney } from '../../shared/money.ts';
import type { RecordPayment } from '../../shared/schemas/credit.ts';
import type { Actor } from '../audit/log.ts';
import { creditPaymentAllocations, creditPayments, institutions, invoices, orders } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import type { InvoicingContext } from '../invoices/context.ts';
import { takeFolio } from '../invoices/folios.ts';
import { ivaShare } from '../invoices/pagos.ts';
import { balancesFrom, ledgerOf, recordMovement, staffLedgerActor } from '../orders/ledger.ts';
import { lockOrder } from '../orders/lock.ts';

/**
 * A transfer an institution made, recorded by staff (issue 34, decision 060): the day it arrived, its amount, the
 * bank reference and the invoices PPD it pays — in part or in full. One transaction takes the orders' locks (as
 * every writer of their ledgers does), then each invoice's row lock, reads each invoice's balance there and refuses
 * an allocation beyond it: two payments recorded at once against one invoice cannot overpay it (the second reads
 * the first's). It writes the payment, its allocations with their parcialidad, saldo anterior and insoluto and IVA
 * share, and a 'credit_payment' movement per order; the CFDI de pago is issued right after (payment-cfdi.ts).
 */

export const PAYMENT_REFERENCE_TAKEN = (reference: string) =>
  `El pago con la referencia ${reference} ya está registrado para esta institución.`;

const serieFolio = (row: { serie: string | null; folio: number | null; id: number }) =>
  row.serie && row.folio !== null ? `${row.serie}${row.folio}` : `#${row.id}`;

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

export async function recordPayment(
  ctx: Pick<InvoicingContext, 'db' | 'now'>,
  actor: Actor,
  input: RecordPayment,
): Promise<{ paymentId: number }> {
  const applied = input.allocations.reduce((s, a) => s + a.amountCents, 0);
  if (applied !== input.amountCents) {
    const message = `Lo aplicado a facturas (${formatMoney(applied)}) no es el importe del pago (${formatMoney(input.amountCents)}).`;
    throw badRequest(message, { allocations: message });
  }
  const ids = input.allocations.map((a) => a.invoiceId);
  if (new Set(ids).size !== ids.length) throw badRequest('Una factura aparece más de una vez en el pago');
  if (input.receivedOn > mexicoCityDate(ctx.now())) {
    const message = 'La fecha del pago no puede ser posterior a hoy';
    throw badRequest(message, { receivedOn: message });
  }
  const [institution] = await ctx.db
    .select({ id: institutions.id })
    .from(institutions)
    .where(eq(institutions.id, input.institutionId));
  if (!institution) throw notFound('Institución no encontrada');

  try {
    return await ctx.db.transaction(async (tx) => {
      const found = await tx
        .select({ invoice: invoices, institutionId: orders.institutionId })
        .from(invoices)
        .innerJoin(orders, eq(orders.number, invoices.orderNumber))
        .where(inArray(invoices.id, ids));
      for (const id of ids) {
        const row = found.find((f) => f.invoice.id === id);
        if (
          !row ||
          row.institutionId !== input.institutionId ||
          row.invoice.kind !== 'I' ||
          row.invoice.status !== 'issued' ||
          row.invoice.metodoPago !== 'PPD'
        )
          throw conflict(
            `La factura ${row ? serieFolio(row.invoice) : `#${id}`} no es una factura a crédito vigente de esta institución`,
            'not_a_credit_invoice',
          );
      }
      // Orders first (in number order), then their invoices: the locks every ledger writer takes, in one order.
      const numbers = [...new Set(found.map((f) => f.invoice.orderNumber))].sort((a, b) => a - b);
      for (const number of numbers) await lockOrder(tx, number);
      await tx
        .select({ id: invoices.id })
        .from(invoices)
        .where(inArray(invoices.id, ids))
        .orderBy(asc(invoices.id))
        .for('update');

      const [payment] = await tx
        .insert(creditPayments)
        .values({
          institutionId: input.institutionId,
          receivedOn: input.receivedOn,
          amountCents: input.amountCents,
          bankReference: input.bankReference,
          formaPago: '03',
          recordedBy: actor.userId,
        })
        .returning({ id: creditPayments.id });
      const paymentId = payment!.id;

      for (const allocation of input.allocations) {
        const { invoice } = found.find((f) => f.invoice.id === allocation.invoiceId)!;
        const balances = balancesFrom(await ledgerOf(tx, invoice.orderNumber));
        const balance = balances.receivableCents;
        if (allocation.amountCents > balance) {
          throw conflict(
            balance === 0
              ? `La factura ${serieFolio(invoice)} ya está pagada.`
              : `La factura ${serieFolio(invoice)} tiene un saldo de ${formatMoney(balance)}: el importe aplicado (${formatMoney(allocation.amountCents)}) lo excede por ${formatMoney(allocation.amountCents - balance)}.`,
            'overpayment',
          );
        }
        const [prior] = await tx
          .select({ count: sql<number>`count(*)::int` })
          .from(creditPaymentAllocations)
          .where(eq(creditPaymentAllocations.invoiceId, invoice.id));
        const share = ivaShare(invoice, balances.creditPaidCents, allocation.amountCents);
        await tx.insert(creditPaymentAllocations).values({
          paymentId,
          invoiceId: invoice.id,
          orderNumber: invoice.orderNumber,
          amountCents: allocation.amountCents,
          numParcialidad: Number(prior?.count ?? 0) + 1,
          balanceBeforeCents: balance,
          balanceAfterCents: balance - allocation.amountCents,
          ...share,
        });
        await recordMovement(tx, invoice.orderNumber, staffLedgerActor(actor), {
          kind: 'credit_payment',
          amountCents: allocation.amountCents,
          method: 'spei',
          reference: `pago-${paymentId}`,
          detail: { payment: paymentId, invoice: invoice.uuid, bankReference: input.bankReference },
        });
      }
      // The CFDI de pago's folio is taken with the payment: a payment never shares or skips one.
      const folio = await takeFolio(tx, 'P');
      await tx.update(creditPayments).set(folio).where(eq(creditPayments.id, paymentId));
      return { paymentId };
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(PAYMENT_REFERENCE_TAKEN(input.bankReference), 'payment_exists');
    throw error;
  }
}

/** Payments of an institution with what each paid (the statement, the receivables view). */
export async function paymentsOf(ctx: Pick<InvoicingContext, 'db'>, institutionId: number) {
  const rows = await ctx.db
    .select()
    .from(creditPayments)
    .where(eq(creditPayments.institutionId, institutionId))
    .orderBy(asc(creditPayments.receivedOn), asc(creditPayments.id));
  const parts =
    rows.length === 0
      ? []
      : await ctx.db
          .select({
            paymentId: creditPaymentAllocations.paymentId,
            amountCents: creditPaymentAllocations.amountCents,
            numParcialidad: creditPaymentAllocations.numParcialidad,
            serie: invoices.serie,
            folio: invoices.folio,
            id: invoices.id,
          })
          .from(creditPaymentAllocations)
          .innerJoin(invoices, eq(invoices.id, creditPaymentAllocations.invoiceId))
          .where(
            and(
              inArray(
                creditPaymentAllocations.paymentId,
                rows.map((r) => r.id),
              ),
            ),
          );
  return rows.map((r) => ({
    ...r,
    invoices: parts
      .filter((p) => p.paymentId === r.id)
      .map((p) => ({
        serieFolio: serieFolio(p),
        amountCents: p.amountCents,
        numParcialidad: p.numParcialidad,
      })),
  }));
}
