import { and, eq, inArray, isNotNull, notExists } from 'drizzle-orm';
import { shop } from '../../shared/shop.ts';
import type { SessionUser } from '../auth/session.ts';
import type { Db } from '../db/client.ts';
import { institutions, invoices, orders, users } from '../db/schema.ts';
import type { InvoicingContext } from '../invoices/context.ts';
import { issueNew } from '../invoices/issue.ts';

/**
 * The invoice PPD of a sale on credit (decision 060): MetodoPago PPD, FormaPago 99, CondicionesDePago 'Crédito a N
 * días', the institution as receptor (its razón social, RFC, régimen, CP and uso CFDI on file), due N days after
 * it is issued. Issued at the first shipment by default, or when the order is confirmed (config/shop.json → credit.invoiceAt),
 * by the 'facturas-a-credito' job — so a crash or a PAC outage only delays it — through the same issueNew (folio,
 * seal, the sealed XML kept before the PAC, recovery) as every other invoice. Mailed to the institution's
 * billing e-mail (cuentas por pagar), else to the buyer.
 */
const READY = {
  shipment: ['partially_shipped', 'shipped', 'delivered'],
  order: ['on_credit', 'preparing', 'partially_shipped', 'shipped', 'delivered'],
} as const;

/** Orders on credit ready to be invoiced that have no invoice yet. */
export async function creditOrdersToInvoice(ctx: Pick<InvoicingContext, 'db'>, limit = 20) {
  const rows = await ctx.db
    .select({ number: orders.number })
    .from(orders)
    .where(
      and(
        eq(orders.paymentMethod, 'credit'),
        isNotNull(orders.institutionId),
        inArray(orders.status, [...READY[shop.credit.invoiceAt]]),
        notExists(
          ctx.db
            .select({ id: invoices.id })
            .from(invoices)
            .where(and(eq(invoices.orderNumber, orders.number), eq(invoices.kind, 'I'))),
        ),
      ),
    )
    .orderBy(orders.number)
    .limit(limit);
  return rows.map((r) => r.number);
}

/** Issues the invoice PPD of one order on credit; the UUID, or null when it is not one (or already invoiced). */
export async function issueCreditInvoice(ctx: InvoicingContext, number: number): Promise<string | null> {
  const [row] = await ctx.db
    .select({ order: orders, institution: institutions, buyer: users })
    .from(orders)
    .innerJoin(institutions, eq(institutions.id, orders.institutionId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(and(eq(orders.number, number), eq(orders.paymentMethod, 'credit')));
  if (!row) return null;
  const { order, institution, buyer } = row;
  const to: SessionUser = {
    id: buyer.id,
    email: institution.billingEmail || buyer.email,
    role: 'customer',
    nombre: institution.razonSocial,
    apellidoPat: '',
    apellidoMat: '',
    telefono: buyer.telefono,
  };
  return issueNew(
    ctx,
    to,
    order,
    {
      rfc: institution.rfc,
      nombreFiscal: institution.razonSocial,
      regimenFiscal: institution.regimenFiscal,
      usoCfdi: institution.usoCfdi,
      cp: institution.cp,
      rfcConfirmado: true,
    },
    undefined,
    { days: institution.creditDays ?? 30 },
  );
}

/** The job's round: every order on credit ready and not invoiced; one failing does not stop the others. */
export async function issueCreditInvoicesRound(ctx: InvoicingContext): Promise<number> {
  let issued = 0;
  for (const number of await creditOrdersToInvoice(ctx)) {
    try {
      if (await issueCreditInvoice(ctx, number)) issued += 1;
    } catch (error) {
      ctx.log?.error({ order: number, err: error }, 'no se emitió la factura PPD del pedido a crédito');
    }
  }
  return issued;
}

/**
 * Right after staff ship an order (admin's ship route): an order on credit gets its invoice PPD at once instead of
 * at the job's next round. Never throws — the job issues whatever this could not.
 */
export async function invoiceShippedOnCredit(
  db: Db,
  context: () => InvoicingContext,
  number: number,
): Promise<void> {
  let ctx: InvoicingContext | undefined;
  try {
    const [row] = await db
      .select({ method: orders.paymentMethod })
      .from(orders)
      .where(eq(orders.number, number));
    if (row?.method !== 'credit') return;
    ctx = context();
    if ((await creditOrdersToInvoice(ctx, 200)).includes(number)) await issueCreditInvoice(ctx, number);
  } catch (error) {
    ctx?.log?.error({ order: number, err: error }, 'la factura PPD se emitirá en la siguiente ronda');
  }
}
