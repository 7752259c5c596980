import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  placeOrderRequest,
  productWithStock,
  type Shopper,
  sandboxToken,
} from '../../../tests/server/support/checkout.ts';
import { addMember, buyFor, createInstitution } from '../../../tests/server/support/institution-members.ts';
import { auditRows, createStaff } from '../../../tests/server/support/staff.ts';
import { addDays, mexicoCityToday } from '../../shared/mexico-time.ts';
import type { CartQuote } from '../../shared/schemas/cart.ts';
import type { QuotationDetail } from '../../shared/schemas/quotations.ts';
import type { DecisionResponse, RequisitionDetail } from '../../shared/schemas/requisitions.ts';
import { institutionPrices, orderLines, orders, priceBreaks } from '../db/schema.ts';

// An institution's contract prices replace list and volume prices in the cart, quotations, requisitions and orders.
let t: CheckoutTestApp;
let staff: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp({ env: { CHECKOUT_MAX_PENDING_ORDERS: '50' } });
  staff = await createStaff(t);
});
afterAll(() => t.close());

const today = () => mexicoCityToday();
const put = (who: Shopper, id: number, prices: object[]) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/admin/institutions/${id}/contract-prices`,
    headers: { cookie: who.cookie },
    payload: { prices },
  });
const quote = async (who: Shopper, items: object[]) =>
  (
    await t.app.inject({
      method: 'POST',
      url: '/api/cart/quote',
      headers: { cookie: who.cookie },
      payload: { items },
    })
  ).json<CartQuote>();

describe('precios de contrato', () => {
  it('staff sets the list; bad rows change nothing; shoppers cannot', async () => {
    const id = await createInstitution(t);
    const p = await productWithStock(t, 40, 0);
    const row = { code: p.code, priceCents: 1000, validFrom: today(), validTo: addDays(today(), 30) };
    const buyer = await createShopper(t);
    expect((await put(buyer, id, [row])).statusCode).toBe(403);
    expect((await put(staff, id, [row, { ...row, code: 'NO-EXISTE-1' }])).statusCode).toBe(400);
    expect((await put(staff, id, [{ ...row, validTo: addDays(today(), -1) }])).statusCode).toBe(400);
    expect((await put(staff, id, [row, row])).statusCode).toBe(400);
    expect(
      await t.db.select().from(institutionPrices).where(eq(institutionPrices.institutionId, id)),
    ).toEqual([]);
    const ok = await put(staff, id, [row]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().prices).toEqual([
      {
        code: p.code,
        name: p.name,
        listPriceCents: p.priceCents,
        priceCents: 1000,
        validFrom: row.validFrom,
        validTo: row.validTo,
      },
    ]);
    expect((await auditRows(t, 'institution', String(id))).map((a) => a.action)).toEqual([
      'institution.contract_prices',
    ]);
  });

  it('the cart is priced at the contract for the institution, at list and volume for the person, and after it ends', async () => {
    const id = await createInstitution(t);
    const p = await productWithStock(t, 40, 1);
    const other = await productWithStock(t, 40, 2);
    await t.db
      .insert(priceBreaks)
      .values({ productCode: p.code, minQuantity: 5, priceCents: p.priceCents - 100 });
    const contract = Math.max(1, p.priceCents - 777);
    await put(staff, id, [
      { code: p.code, priceCents: contract, validFrom: today(), validTo: today() },
      // Ended yesterday: not applied.
      { code: other.code, priceCents: 1, validFrom: addDays(today(), -30), validTo: addDays(today(), -1) },
    ]);
    const member = await createShopper(t);
    await addMember(t, id, member, 'comprador');
    const items = [
      { code: p.code, quantity: 6 },
      { code: other.code, quantity: 1 },
    ];
    const forInstitution = await quote(member, items);
    expect(forInstitution.lines.map((l) => [l.unitPriceCents, l.contract ?? false, l.nextBreak])).toEqual([
      [contract, true, null],
      [other.priceCents, false, null],
    ]);
    expect(forInstitution.subtotalCents).toBe(contract * 6 + other.priceCents);
    await buyFor(t, member, null);
    const forPerson = await quote(member, items);
    expect(forPerson.lines[0]!.unitPriceCents).toBe(p.priceCents - 100);
  });

  it('quotations, requisitions and a direct order of the institution are at the contract price', async () => {
    const id = await createInstitution(t);
    const p = await productWithStock(t, 40, 3);
    const contract = Math.max(1, p.priceCents - 1234);
    await put(staff, id, [
      { code: p.code, priceCents: contract, validFrom: today(), validTo: addDays(today(), 5) },
    ]);
    const solicitante = await createShopper(t);
    const aprobador = await createShopper(t);
    const comprador = await createShopper(t);
    await addMember(t, id, solicitante, 'solicitante');
    await addMember(t, id, aprobador, 'aprobador');
    await addMember(t, id, comprador, 'comprador');

    const q = await t.app.inject({
      method: 'POST',
      url: '/api/quotations',
      headers: { cookie: solicitante.cookie },
      payload: { items: [{ code: p.code, quantity: 2 }] },
    });
    expect(q.json<QuotationDetail>().lines[0]!.unitPriceCents).toBe(contract);

    const r = (
      await t.app.inject({
        method: 'POST',
        url: '/api/requisitions',
        headers: { cookie: solicitante.cookie },
        payload: { items: [{ code: p.code, quantity: 3 }] },
      })
    ).json<RequisitionDetail>();
    expect(r.lines[0]!.unitPriceCents).toBe(contract);
    await t.app.inject({
      method: 'POST',
      url: `/api/requisitions/${r.id}/approve`,
      headers: { cookie: aprobador.cookie },
      payload: {},
    });
    const placed = (
      await t.app.inject({
        method: 'POST',
        url: `/api/requisitions/${r.id}/place`,
        headers: { cookie: comprador.cookie },
        payload: {},
      })
    ).json<DecisionResponse>();
    const [line] = await t.db
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderNumber, placed.placed!.orderNumber));
    expect(line!.unitPriceCents).toBe(contract);

    // A solicitante cannot place the institution's order at checkout: they send it for approval.
    const refused = await placeOrderRequest(t, solicitante, {
      items: [{ code: p.code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'contract-prices',
    });
    expect(refused.statusCode).toBe(403);
    // The comprador's own checkout, by card, buying for the institution.
    const res = await placeOrderRequest(t, comprador, {
      items: [{ code: p.code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'contract-prices',
    });
    expect(res.statusCode, res.body).toBe(201);
    const number = res.json<{ number: number }>().number;
    const [o] = await t.db.select().from(orders).where(eq(orders.number, number));
    expect(o).toMatchObject({ institutionId: id, subtotalCents: contract });
  });
});
