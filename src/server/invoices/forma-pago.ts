/**
 * c_FormaPago of an invoice from the payment that really paid the order, never from what the shopper says
 * (issue 14). The invoice is PUE (paid in one go before it is issued), so 99 'Por definir' is not allowed
 * (SAT, Anexo 20 Guía de llenado: 99 only with MetodoPago PPD). See docs/decisions/015.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** What invoicing needs to know of the charge; both come from the gateway (Openpay: `method`, `card.type`). */
export type PaidWith = { method: string | null; cardType: string | null };

export const FORMA_PAGO_TEXT: Record<string, string> = {
  '01': 'Efectivo',
  '03': 'Transferencia electrónica de fondos',
  '04': 'Tarjeta de crédito',
  '28': 'Tarjeta de débito',
  '99': 'Por definir',
};

/**
 * Card charges: credit → 04, debit and prepaid → 28 (a prepaid card spends the holder's own funds);
 * SPEI (Openpay method 'bank_account') → 03; cash at a store (method 'store') → 01.
 * A card whose type the gateway did not tell (rows older than the payments' card_type column, a gateway
 * that does not say) → 04: see decision 015 for why 04 and not 28 or 99.
 */
export function formaPagoFor(payment: PaidWith | undefined): string {
  const method = payment?.method?.toLowerCase() ?? 'card';
  if (method === 'bank_account' || method === 'spei') return '03';
  if (method === 'store' || method === 'cash') return '01';
  const type = payment?.cardType?.toLowerCase();
  if (type === 'debit' || type === 'prepaid') return '28';
  return '04';
}

/**
 * The completed charge of the order as invoicing sees it: `method` and `card_type` (migration 0010), read as a
 * whole row (to_jsonb) so that a payment without them (older rows) reads as unknown.
 */
export async function paidWith(db: Db, orderNumber: number): Promise<PaidWith | undefined> {
  const { rows } = await db.execute<{ row: Record<string, unknown> }>(
    sql`select to_jsonb(p) as row from payments p
        where p.order_number = ${orderNumber} and p.status in ('completed', 'refunded')
        order by p.id desc limit 1`,
  );
  const row = rows[0]?.row;
  if (!row) return undefined;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
  return { method: text(row.method), cardType: text(row.card_type) };
}
