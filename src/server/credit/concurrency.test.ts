import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  productWithStock,
  type Shopper,
} from '../../../tests/server/support/checkout.ts';
import {
  createInstitution,
  joinAndBuyFor,
  placeOnCredit,
  shipAndInvoiceOnCredit,
} from '../../../tests/server/support/credit.ts';
import { createStaff } from '../../../tests/server/support/staff.ts';
import { creditPaymentAllocations } from '../db/schema.ts';
import { balancesOf } from '../orders/ledger.ts';

// PostgreSQL itself: the requests below run on separate connections at the same time.
let t: CheckoutTestApp;
let staff: Shopper;

beforeAll(async () => {
  t = await createCheckoutApp({ postgres: true });
  staff = await createStaff(t);
});
afterAll(async () => {
  await t.close();
});

describe('concurrent requests on one credit line (PostgreSQL)', () => {
  it('two orders at once cannot both spend the same available credit', async () => {
    const product = await productWithStock(t, 50, 0);
    const institution = await createInstitution(t, { limitCents: null, days: null });
    const buyers = [await createShopper(t), await createShopper(t)];
    for (const b of buyers) await joinAndBuyFor(t, b, institution.id);
    const items = [{ code: product.code, quantity: 2 }];
    const quote = await t.app.inject({ method: 'POST', url: '/api/cart/quote', payload: { items } });
    const total = (quote.json() as { totalCents: number }).totalCents;
    // Room for one such order and a half.
    await t.db.execute(
      sql`update institutions set credit_limit_cents = ${Math.floor(total * 1.5)}, credit_days = 30 where id = ${institution.id}`,
    );
    const answers = await Promise.all(buyers.map((b) => placeOnCredit(t, b, items)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().error.message).toContain('excede por');
  });

  it('two payments recorded at once against one invoice cannot overpay it', async () => {
    const product = await productWithStock(t, 50, 1);
    const institution = await createInstitution(t, { limitCents: 50_000_000 });
    const buyer = await createShopper(t);
    await joinAndBuyFor(t, buyer, institution.id);
    const placed = await placeOnCredit(t, buyer, [{ code: product.code, quantity: 3 }]);
    const { number } = placed.json() as { number: number };
    const invoice = await shipAndInvoiceOnCredit(t, staff, number);
    const part = Math.ceil(invoice!.totalCents * 0.6);
    const pay = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/credit/payments',
        headers: { cookie: staff.cookie },
        payload: {
          institutionId: institution.id,
          receivedOn: new Date().toISOString().slice(0, 10),
          amountCents: part,
          bankReference: `SPEI PARALELO ${i}`,
          allocations: [{ invoiceId: invoice!.id, amountCents: part }],
        },
      });
    const answers = await Promise.all([pay(1), pay(2), pay(3)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
    const rows = await t.db
      .select()
      .from(creditPaymentAllocations)
      .where(eq(creditPaymentAllocations.invoiceId, invoice!.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ numParcialidad: 1, amountCents: part });
    expect((await balancesOf(t.db, number)).receivableCents).toBe(invoice!.totalCents - part);
  });
});
