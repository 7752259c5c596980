import { describe, expect, it } from 'vitest';
import { balancesFrom, type LedgerRow } from './ledger.ts';

type Row = Pick<LedgerRow, 'kind' | 'amountCents' | 'method' | 'detail'>;
const row = (
  kind: Row['kind'],
  amountCents: number,
  method: string | null = null,
  detail: Row['detail'] = null,
): Row => ({
  kind,
  amountCents,
  method,
  detail,
});

describe('balances from the ledger', () => {
  it('a card order refunded in two parts: paid, refunded by route, kept, nothing due', () => {
    const b = balancesFrom([
      row('charge', 100_000, 'card'),
      row('refund_due', 30_000, 'card'),
      row('refund', 30_000, 'card'),
      row('refund_due', 20_000, 'card'),
      row('refund', 20_000, 'card'),
    ]);
    expect(b).toMatchObject({
      paidCents: 100_000,
      refundedCents: 50_000,
      refundDueCents: 0,
      keptCents: 50_000,
    });
    expect(b.refundedByRoute).toEqual({ card: 50_000, payout: 0, transfer: 0 });
  });

  it('a SPEI order cancelled: the money is owed until paid out, and kept is zero meanwhile', () => {
    const owed = balancesFrom([row('charge', 57_700, 'spei'), row('refund_due', 57_700, 'payout')]);
    expect(owed).toMatchObject({ paidCents: 57_700, refundedCents: 0, refundDueCents: 57_700, keptCents: 0 });
    const paid = balancesFrom([
      row('charge', 57_700, 'spei'),
      row('refund_due', 57_700, 'payout'),
      row('refund', 57_700, 'transfer'),
    ]);
    expect(paid).toMatchObject({ refundedCents: 57_700, refundDueCents: 0, keptCents: 0 });
    expect(paid.refundedByRoute.transfer).toBe(57_700);
  });

  it('a refused card refund withdraws its promise', () => {
    const b = balancesFrom([
      row('charge', 10_000, 'card'),
      row('refund_due', 10_000, 'card'),
      row('refund_failed', 10_000, 'card'),
    ]);
    expect(b).toMatchObject({ refundDueCents: 0, keptCents: 10_000 });
  });

  it('tax due: a refund on an invoiced order without its credit note', () => {
    const without = balancesFrom([
      row('charge', 100_000, 'card'),
      row('invoice', 100_000),
      row('refund_due', 25_000, 'card'),
      row('refund', 25_000, 'card'),
    ]);
    expect(without.taxDueCents).toBe(25_000);
    const withNote = balancesFrom([
      row('charge', 100_000, 'card'),
      row('invoice', 100_000),
      row('refund_due', 25_000, 'card'),
      row('refund', 25_000, 'card'),
      row('credit_note', 25_000),
    ]);
    expect(withNote).toMatchObject({ creditedCents: 25_000, taxDueCents: 0 });
  });

  it('a global: included, then an egreso on the global takes the refunded sale back', () => {
    const b = balancesFrom([
      row('charge', 40_000, 'cash'),
      row('global_in', 40_000),
      row('refund_due', 40_000, 'payout'),
      row('credit_note', 40_000, null, { global: 'UUID-G' }),
    ]);
    expect(b.inGlobal).toBe(true);
    expect(b.globalCreditedCents).toBe(40_000);
    expect(b.creditedCents).toBe(0);
  });

  it('a sale on credit (decision 060): the invoice PPD owes its total until paid; each payment asks for its CFDI de pago', () => {
    const sale = [row('credit_sale', 116_000, 'credit')];
    expect(balancesFrom(sale)).toMatchObject({ receivableCents: 116_000, paidCents: 0, taxDueCents: 0 });
    const invoiced = [...sale, row('invoice', 116_000)];
    // Invoiced before the money: nothing is «owed» to the papers, the institution owes the invoice.
    expect(balancesFrom(invoiced)).toMatchObject({ receivableCents: 116_000, taxDueCents: 0 });
    const partly = [...invoiced, row('credit_payment', 50_000, 'spei')];
    expect(balancesFrom(partly)).toMatchObject({
      paidCents: 50_000,
      receivableCents: 66_000,
      paymentPapersDueCents: 50_000,
      taxDueCents: 0,
    });
    const papered = [...partly, row('payment_cfdi', 50_000), row('credit_note', 16_000)];
    expect(balancesFrom(papered)).toMatchObject({
      receivableCents: 50_000,
      paymentPapersDueCents: 0,
      taxDueCents: 0,
    });
    const settled = [...papered, row('credit_payment', 50_000, 'spei'), row('payment_cfdi', 50_000)];
    expect(balancesFrom(settled)).toMatchObject({
      receivableCents: 0,
      paymentPapersDueCents: 0,
      taxDueCents: 0,
    });
  });
});
