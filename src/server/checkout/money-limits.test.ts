import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
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
import { pdfText } from '../../../tests/server/support/pdf-text.ts';
import { CHARGE_LIMITS, chargeLimitMessage } from '../../shared/charge-limits.ts';
import { MAX_LINE_QUANTITY } from '../../shared/limits.ts';
import { formatMoney } from '../../shared/money.ts';
import { MAX_PRICE_CENTS } from '../../shared/schemas/admin.ts';
import { shippingCentsForWeight } from '../cart/quote.ts';
import { invoices, orderLines, orders, payments, products, sandboxCharges } from '../db/schema.ts';

/**
 * Issue 22, "large orders → 500": amounts in centavos overflowed the 32-bit columns above $21,474,836.47, and
 * nothing bounded an order. Money is 64-bit end to end, and two business limits from config/shop.json (the
 * maximum per card charge, the most units per line) refuse with the same Spanish 4xx in the quote and the order.
 */

let t: CheckoutTestApp;
let shopper: Shopper;
let expensive: { code: string };
beforeAll(async () => {
  // The money rules, not the per-shopper hold cap (issue 23), are what this file tests: that cap is lifted.
  t = await createCheckoutApp({ env: { CHECKOUT_MAX_RESERVED_UNITS: String(MAX_LINE_QUANTITY * 10) } });
  shopper = await createShopper(t);
  expensive = await productWithStock(t, 1_000_000, 0);
  await t.db
    .update(products)
    .set({ priceCents: MAX_PRICE_CENTS, weightKg: 1 })
    .where(eq(products.code, expensive.code));
});
afterAll(() => t.close());

const quote = (items: { code: string; quantity: number }[]) =>
  t.app.inject({ method: 'POST', url: '/api/cart/quote', payload: { items } });
const order = async (items: { code: string; quantity: number }[]) =>
  placeOrderRequest(t, shopper, {
    items,
    cardToken: await sandboxToken(t, '4111111111111111'),
    deviceSessionId: 'money-tests',
  });

describe('above every way of payment’s maximum: the same 409 naming the widest limit in the quote and the order', () => {
  it.each([5, 215, 9999])('an expensive product × %i', async (quantity) => {
    const items = [{ code: expensive.code, quantity }];
    const total = MAX_PRICE_CENTS * quantity + shippingCentsForWeight(quantity);
    const expected = {
      code: 'charge_limit',
      message: `El total de su compra (${formatMoney(total)}) supera el máximo de cualquier forma de pago en línea (hasta ${formatMoney(CHARGE_LIMITS.spei)} por transferencia SPEI). Divídala en varios pedidos o contáctenos para una cotización.`,
    };
    const quoted = await quote(items);
    expect(quoted.statusCode).toBe(409);
    expect(quoted.json().error).toEqual(expected);
    const placed = await order(items);
    expect(placed.statusCode).toBe(409);
    expect(placed.json().error).toEqual(expected);
    const [row] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(eq(orders.userId, shopper.id));
    expect(row!.n).toBe(0);
  });

  it('more units in a line than the cap: the same 400 in the quote and the order', async () => {
    const items = [{ code: expensive.code, quantity: MAX_LINE_QUANTITY + 1 }];
    const quoted = await quote(items);
    const placed = await order(items);
    expect(quoted.statusCode).toBe(400);
    expect(placed.statusCode).toBe(400);
    expect(quoted.json().error.message).toBe(`La cantidad no puede ser mayor que ${MAX_LINE_QUANTITY}`);
    expect(placed.json().error.message).toBe(quoted.json().error.message);
  });
});

describe('money columns hold 64-bit amounts', () => {
  it('an order, its line, payment, charge and invoice above $21,474,836.47 read back exactly', async () => {
    const big = 2 ** 31 * 1000 + 7; // $21,474,836,480.07, far above the 32-bit columns
    const number = 990_001;
    await t.db.insert(orders).values({
      number,
      userId: shopper.id,
      status: 'paid',
      subtotalCents: big,
      shippingCents: big,
      ivaCents: big,
      totalCents: big,
      address: {} as never,
      idempotencyKey: 'big-money',
      requestHash: 'x',
    });
    await t.db.insert(orderLines).values({
      orderNumber: number,
      lineNo: 1,
      productCode: expensive.code,
      description: 'x',
      unitPriceCents: big,
      quantity: 1,
    });
    await t.db.insert(payments).values({
      orderNumber: number,
      gateway: 'sandbox',
      status: 'completed',
      amountCents: big,
      refundedCents: big,
    });
    await t.db.insert(sandboxCharges).values({
      id: 'tr-big',
      orderId: String(number),
      tokenId: 'k',
      amountCents: big,
      refundedCents: big,
      status: 'completed',
      description: 'x',
      maskedNumber: '411111XXXXXX1111',
    });
    await t.db.insert(invoices).values({
      orderNumber: number,
      userId: shopper.id,
      status: 'cancelled',
      pac: 'sandbox',
      rfc: 'XAXX010101000',
      nombreFiscal: 'X',
      regimenFiscal: '616',
      usoCfdi: 'S01',
      formaPago: '04',
      cp: '44100',
      subtotalCents: big,
      ivaCents: big,
      totalCents: big,
    });
    const [o] = await t.db.select().from(orders).where(eq(orders.number, number));
    const [l] = await t.db.select().from(orderLines).where(eq(orderLines.orderNumber, number));
    const [p] = await t.db.select().from(payments).where(eq(payments.orderNumber, number));
    const [c] = await t.db.select().from(sandboxCharges).where(eq(sandboxCharges.id, 'tr-big'));
    const [i] = await t.db.select().from(invoices).where(eq(invoices.orderNumber, number));
    expect([o!.subtotalCents, o!.shippingCents, o!.ivaCents, o!.totalCents]).toEqual([big, big, big, big]);
    expect([l!.unitPriceCents, p!.amountCents, p!.refundedCents, c!.amountCents, c!.refundedCents]).toEqual([
      big,
      big,
      big,
      big,
      big,
    ]);
    expect([i!.subtotalCents, i!.ivaCents, i!.totalCents]).toEqual([big, big, big]);
  });
});

describe('fuzz: carts up to the limits never answer 500, and every amount is exact', () => {
  let codes: string[] = [];
  beforeAll(async () => {
    codes = [];
    for (let i = 1; i <= 4; i++) codes.push((await productWithStock(t, 10_000_000, i)).code);
  });

  it('quote and order agree with centavo arithmetic, or refuse with the limit that applies', async () => {
    const line = fc.record({
      index: fc.integer({ min: 0, max: 3 }),
      priceCents: fc.oneof(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: MAX_PRICE_CENTS }),
        fc.constant(MAX_PRICE_CENTS),
      ),
      quantity: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: MAX_LINE_QUANTITY })),
      grams: fc.integer({ min: 0, max: 50_000 }),
    });
    const cart = fc.uniqueArray(line, { minLength: 1, maxLength: 4, selector: (l) => l.index });
    await fc.assert(
      fc.asyncProperty(cart, async (lines) => {
        for (const l of lines) {
          await t.db
            .update(products)
            .set({ priceCents: l.priceCents, weightKg: l.grams / 1000 })
            .where(eq(products.code, codes[l.index]!));
        }
        const items = lines.map((l) => ({ code: codes[l.index]!, quantity: l.quantity }));
        const subtotal = lines.reduce((s, l) => s + l.priceCents * l.quantity, 0);
        const grams = lines.reduce((s, l) => s + l.grams * l.quantity, 0);
        const total = subtotal + shippingCentsForWeight(grams / 1000);
        expect(Number.isSafeInteger(total)).toBe(true);

        const quoted = await quote(items);
        const placed = await order(items);
        // The quote refuses only what no way of payment can pay; the card order, what is above the card's maximum.
        const refusal = chargeLimitMessage(total);
        const cardRefusal = chargeLimitMessage(total, 'card');
        if (refusal) {
          expect(quoted.statusCode).toBe(409);
          expect(quoted.json().error).toEqual({ code: 'charge_limit', message: refusal });
        } else {
          expect(quoted.statusCode).toBe(200);
        }
        if (cardRefusal) {
          expect(placed.statusCode).toBe(409);
          expect(placed.json().error).toEqual({ code: 'charge_limit', message: cardRefusal });
          return;
        }
        expect(quoted.statusCode).toBe(200);
        expect(quoted.json()).toMatchObject({ subtotalCents: subtotal, totalCents: total });
        expect(placed.statusCode).toBe(201);
        const number = placed.json().number as number;
        const [o] = await t.db.select().from(orders).where(eq(orders.number, number));
        expect(o).toMatchObject({ status: 'paid', subtotalCents: subtotal, totalCents: total });
        const [p] = await t.db.select().from(payments).where(eq(payments.orderNumber, number));
        expect(p).toMatchObject({ status: 'completed', amountCents: total });
        const sum = await t.db
          .select({ s: sql<string>`sum(${orderLines.unitPriceCents} * ${orderLines.quantity})` })
          .from(orderLines)
          .where(eq(orderLines.orderNumber, number));
        expect(Number(sum[0]!.s)).toBe(subtotal);
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});

describe('one maximum per way of payment (decision 048)', () => {
  // $600,000.00 a unit, 1 kg: two units are above the card's maximum and within SPEI's.
  let dear: { code: string };
  // $12,000.00: above the store-cash maximum, within the card's.
  let middling: { code: string };
  beforeAll(async () => {
    dear = await productWithStock(t, 100, 5);
    middling = await productWithStock(t, 100, 6);
    await t.db
      .update(products)
      .set({ priceCents: 60_000_000, weightKg: 1 })
      .where(eq(products.code, dear.code));
    await t.db
      .update(products)
      .set({ priceCents: 1_200_000, weightKg: 1 })
      .where(eq(products.code, middling.code));
  });

  const ordersOf = async (userId: number) =>
    (await t.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(eq(orders.userId, userId)))[0]!
      .n;

  it('a cart above the card’s maximum is quoted, refused by card naming the card, and paid by SPEI', async () => {
    const buyer = await createShopper(t);
    const items = [{ code: dear.code, quantity: 2 }];
    const total = 120_000_000 + shippingCentsForWeight(2);
    const quoted = await quote(items);
    expect(quoted.statusCode, quoted.body).toBe(200);
    expect(quoted.json()).toMatchObject({ totalCents: total, paymentMethods: ['spei'] });

    const byCard = {
      code: 'charge_limit',
      message: `El total de su compra (${formatMoney(total)}) supera el máximo de ${formatMoney(CHARGE_LIMITS.card)} por cargo con tarjeta. Puede pagarla con Transferencia SPEI, o dividirla en varios pedidos.`,
    };
    const quotedCard = await t.app.inject({
      method: 'POST',
      url: '/api/cart/quote',
      payload: { items, paymentMethod: 'card' },
    });
    expect(quotedCard.statusCode).toBe(409);
    expect(quotedCard.json().error).toEqual(byCard);
    const card = await placeOrderRequest(t, buyer, {
      items,
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'limits',
    });
    expect(card.statusCode).toBe(409);
    expect(card.json().error).toEqual(byCard);
    expect(await ordersOf(buyer.id)).toBe(0);

    const spei = await placeOrderRequest(t, buyer, { items, paymentMethod: 'spei' });
    expect(spei.statusCode, spei.body).toBe(202);
    const [o] = await t.db.select().from(orders).where(eq(orders.number, spei.json().number));
    expect(o).toMatchObject({ paymentMethod: 'spei', totalCents: total, status: 'pending_payment' });
  });

  it('cash at a store above its maximum is refused naming the store, before any reference exists', async () => {
    const buyer = await createShopper(t);
    const items = [{ code: middling.code, quantity: 1 }];
    const total = 1_200_000 + shippingCentsForWeight(1);
    const expected = {
      code: 'charge_limit',
      message: `El total de su compra (${formatMoney(total)}) supera el máximo de ${formatMoney(CHARGE_LIMITS.cash)} para pago en efectivo en tienda. Puede pagarla con Tarjeta de crédito o débito o Transferencia SPEI, o dividirla en varios pedidos.`,
    };
    const quoted = await t.app.inject({
      method: 'POST',
      url: '/api/cart/quote',
      payload: { items, paymentMethod: 'cash' },
    });
    expect(quoted.json().error).toEqual(expected);
    const placed = await placeOrderRequest(t, buyer, { items, paymentMethod: 'cash' });
    expect(placed.statusCode).toBe(409);
    expect(placed.json().error).toEqual(expected);
    expect(await ordersOf(buyer.id)).toBe(0);
    expect(await t.db.select().from(sandboxCharges).where(eq(sandboxCharges.amountCents, total))).toEqual([]);
  });

  it('a quotation above the card’s maximum is issued and its page and PDF say which methods can pay it', async () => {
    const buyer = await createShopper(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/quotations',
      headers: { cookie: buyer.cookie },
      payload: { items: [{ code: dear.code, quantity: 2 }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const note = 'Por su importe, solo puede pagarse con Transferencia SPEI.';
    expect(res.json().paymentNote).toBe(note);
    const pdf = await t.app.inject({
      url: `/api/quotations/${res.json().folio}/pdf`,
      headers: { cookie: buyer.cookie },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdfText(pdf.rawPayload)).toContain(note);
  });
});
