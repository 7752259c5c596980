import { and, eq, isNotNull } from 'drizzle-orm';
import { mexicoCityDate, mexicoLongDate } from '../../shared/mexico-time.ts';
import { formatMoney } from '../../shared/money.ts';
import { shop } from '../../shared/shop.ts';
import {
  creditPaymentAllocations,
  creditPayments,
  creditReminders,
  institutions,
  invoices,
  orders,
  users,
} from '../db/schema.ts';
import type { InvoicingContext } from '../invoices/context.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { balancesFrom, ledgerOf } from '../orders/ledger.ts';
import { lockOrder } from '../orders/lock.ts';
import { raisePaymentAlert } from '../orders/payment-events.ts';
import { issuePendingPaymentCfdis } from './payment-cfdi.ts';

/**
 * Collections (decision 060), the 'cobranza' job's round:
 * - reminder mails of an invoice PPD with a balance, in Spanish: `reminderDaysBefore` days before its due date and
 *   `reminderDaysAfter` days after it (config/shop.json → credit), each once (credit_reminders), written with its
 *   mail in one transaction under the order's lock after reading the balance there — a paid invoice gets none;
 * - CFDI de pago still pending: sent to the PAC again; one of a payment received in an earlier month still not
 *   issued by the 5th of the month after is an alert for staff (the SAT's deadline, regla 2.7.1.35).
 */
const DAY = 86_400_000;

function reminderMail(
  kind: 'before' | 'after',
  to: string,
  inst: { razonSocial: string },
  invoice: {
    serie: string | null;
    folio: number | null;
    id: number;
    uuid: string | null;
    dueAt: Date;
    orderNumber: number;
  },
  balanceCents: number,
  publicUrl: string,
) {
  const folio =
    invoice.serie && invoice.folio !== null ? `${invoice.serie}${invoice.folio}` : `#${invoice.id}`;
  const due = mexicoLongDate(invoice.dueAt);
  const before = kind === 'before';
  return {
    kind: `credit-reminder-${kind}`,
    to,
    subject: before
      ? `Recordatorio: la factura ${folio} vence el ${due}`
      : `Factura ${folio} vencida: saldo de ${formatMoney(balanceCents)}`,
    dedupeKey: `credit-reminder:${invoice.id}:${kind}:${to}`,
    ...renderMail(
      {
        title: before ? 'Su factura está por vencer' : 'Su factura está vencida',
        preheader: `Factura ${folio} · saldo ${formatMoney(balanceCents)}`,
        greeting: `${inst.razonSocial}:`,
        blocks: [
          {
            kind: 'paragraph',
            text: before
              ? `Le recordamos que la factura ${folio} del pedido #${invoice.orderNumber} vence el ${due} y tiene un saldo de ${formatMoney(balanceCents)}.`
              : `La factura ${folio} del pedido #${invoice.orderNumber} venció el ${due} y tiene un saldo de ${formatMoney(balanceCents)}. Mientras tenga facturas vencidas, su cuenta no puede hacer nuevos pedidos a crédito (sí con tarjeta o transferencia).`,
          },
          {
            kind: 'rows',
            rows: [
              ['Factura', folio],
              ['Folio fiscal (UUID)', invoice.uuid ?? ''],
              ['Vencimiento', due],
              ['Saldo', formatMoney(balanceCents)],
            ],
          },
          {
            kind: 'paragraph',
            text: `Pague por transferencia indicando el número de factura. Por cada pago le enviaremos su CFDI de pago. Si ya pagó, ignore este mensaje: registraremos su pago en cuanto lo veamos en nuestra cuenta.`,
          },
          { kind: 'button', label: 'Ver estado de cuenta', url: `${publicUrl}/estado-de-cuenta` },
        ],
      },
      publicUrl,
    ),
  };
}

/** Sends the reminders due now; answers how many mails were queued. */
export async function sendReminders(ctx: InvoicingContext): Promise<number> {
  const now = ctx.now();
  const rows = await ctx.db
    .select({ invoice: invoices, institution: institutions, buyer: users })
    .from(invoices)
    .innerJoin(orders, eq(orders.number, invoices.orderNumber))
    .innerJoin(institutions, eq(institutions.id, orders.institutionId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(
      and(
        eq(invoices.kind, 'I'),
        eq(invoices.status, 'issued'),
        eq(invoices.metodoPago, 'PPD'),
        isNotNull(invoices.dueAt),
      ),
    );
  let sent = 0;
  for (const { invoice, institution, buyer } of rows) {
    const dueAt = invoice.dueAt!;
    const kind =
      now.getTime() >= dueAt.getTime() + shop.credit.reminderDaysAfter * DAY
        ? 'after'
        : now.getTime() >= dueAt.getTime() - shop.credit.reminderDaysBefore * DAY && now < dueAt
          ? 'before'
          : null;
    if (!kind) continue;
    const recipients = [...new Set([institution.billingEmail || buyer.email, buyer.email])];
    const queued = await ctx.db.transaction(async (tx) => {
      await lockOrder(tx, invoice.orderNumber);
      // Paid (or credited) in full: no reminder, ever.
      const { receivableCents } = balancesFrom(await ledgerOf(tx, invoice.orderNumber));
      if (receivableCents <= 0) return 0;
      const [claimed] = await tx
        .insert(creditReminders)
        .values({ invoiceId: invoice.id, kind })
        .onConflictDoNothing()
        .returning({ invoiceId: creditReminders.invoiceId });
      if (!claimed) return 0;
      for (const to of recipients)
        await enqueueMail(
          tx,
          reminderMail(kind, to, institution, { ...invoice, dueAt }, receivableCents, ctx.publicUrl),
        );
      return recipients.length;
    });
    sent += queued;
  }
  return sent;
}

/** The 5th of the month after `receivedOn` (AAAA-MM-DD), Mexico City. */
export function paymentCfdiDeadline(receivedOn: string): string {
  const [y, m] = receivedOn.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  return `${next}-05`;
}

/** Pending CFDI de pago: issued now if the PAC takes them; an alert for those past their deadline. */
export async function followUpPaymentCfdis(ctx: InvoicingContext): Promise<{ issued: number; late: number }> {
  const issued = await issuePendingPaymentCfdis(ctx);
  const today = mexicoCityDate(ctx.now());
  const pending = await ctx.db
    .select({ payment: creditPayments, orderNumber: creditPaymentAllocations.orderNumber })
    .from(creditPayments)
    .innerJoin(creditPaymentAllocations, eq(creditPaymentAllocations.paymentId, creditPayments.id))
    .where(eq(creditPayments.cfdiStatus, 'pending'));
  const late = new Map<number, number>();
  for (const { payment, orderNumber } of pending) {
    if (today >= paymentCfdiDeadline(payment.receivedOn) && !late.has(payment.id))
      late.set(payment.id, orderNumber);
  }
  for (const [paymentId, orderNumber] of late) {
    const [payment] = pending.filter((p) => p.payment.id === paymentId).map((p) => p.payment);
    await ctx.db.transaction((tx) =>
      raisePaymentAlert(tx, {
        orderNumber,
        kind: 'tax_paper',
        message: `El CFDI de pago del pago ${payment!.bankReference} (${formatMoney(payment!.amountCents)}, recibido el ${payment!.receivedOn}) no se ha podido timbrar y el plazo del SAT vence el ${paymentCfdiDeadline(payment!.receivedOn)}: ${payment!.lastError ?? 'sin respuesta del PAC'}.`,
        chargeId: null,
        dedupeKey: `payment-cfdi-late:${paymentId}`,
      }),
    );
  }
  return { issued, late: late.size };
}
