import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenpayReplica } from '../../../tests/server/replicas/openpay.ts';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  placeOrderRequest,
  productWithStock,
  type Shopper,
  stockOf,
} from '../../../tests/server/support/checkout.ts';
import { shop } from '../../shared/shop.ts';

/**
 * Issue 21 against the local replica of Openpay's API: the SPEI ('Cargo en banco', method bank_account) and
 * store ('Cargo en tienda', method store) charges field by field as Openpay documents them, the webhook that
 * confirms or cancels them, Openpay down when the charge is created, and meses sin intereses (payment_plan).
 */
const replica = new OpenpayReplica();
const basic = `Basic ${Buffer.from('openpay:secreto-del-webhook').toString('base64')}`;
let t: CheckoutTestApp;

beforeAll(async () => {
  await replica.start();
  t = await createCheckoutApp({
    env: {
      PAYMENT_GATEWAY: 'openpay',
      OPENPAY_MERCHANT_ID: replica.merchantId,
      OPENPAY_PRIVATE_KEY: replica.privateKey,
      OPENPAY_PUBLIC_KEY: replica.publicKey,
      OPENPAY_API_URL: replica.url,
      OPENPAY_WEBHOOK_USER: 'openpay',
      OPENPAY_WEBHOOK_PASSWORD: 'secreto-del-webhook',
      CHECKOUT_MAX_PENDING_ORDERS: '50',
      // These tests hold most of a product's stock on purpose; the share cap has its own test (abandon.test.ts).
      CHECKOUT_MAX_UNPAID_SHARE_PERCENT: '100',
    },
  });
});
afterAll(async () => {
  await t.close();
  await replica.stop();
});

const orderRow = async (number: number) =>
  (
    await t.db.execute<{
      status: string;
      total_cents: number;
      payment_due_at: Date | string | null;
      msi_months: number | null;
      cancel_reason: string | null;
    }>(
      sql`select status, total_cents::int as total_cents, payment_due_at, msi_months, cancel_reason
          from orders where number = ${number}`,
    )
  ).rows[0]!;
const orderRefOf = async (number: number) =>
  (
    await t.db.execute<{ order_ref: string }>(
      sql`select order_ref from payments where order_number = ${number} order by id desc limit 1`,
    )
  ).rows[0]!.order_ref;
const chargeRequests = () =>
  replica.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/charges'));
const webhook = (payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/payments/openpay/webhook',
    headers: { authorization: basic },
    payload: payload as Record<string, unknown>,
  });
const chargeOf = (orderRef: string) => [...replica.charges.values()].find((c) => c.order_id === orderRef)!;

async function place(shopper: Shopper, code: string, quantity: number, method: 'spei' | 'cash') {
  return placeOrderRequest(t, shopper, { items: [{ code, quantity }], paymentMethod: method });
}

describe('Openpay bank_account and store charges, field by field', () => {
  it('SPEI: POST /charges {method bank_account, amount in pesos, MXN, description, order_id, due_date, customer}; no card fields', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 5, 0);
    const sent = chargeRequests().length;
    const res = await place(shopper, p.code, 2, 'spei');
    expect(res.statusCode, res.body).toBe(202);
    const { number } = res.json() as { number: number };
    const row = await orderRow(number);
    const ref = await orderRefOf(number);
    const requests = chargeRequests().slice(sent);
    expect(requests).toHaveLength(1);
    const body = requests[0]!.body as Record<string, unknown>;
    expect(requests[0]!.authorization).toBe(
      `Basic ${Buffer.from(`${replica.privateKey}:`).toString('base64')}`,
    );
    expect(body.method).toBe('bank_account');
    expect(body.amount).toBe(row.total_cents / 100);
    expect(body.currency).toBe('MXN');
    expect(body.description).toBe(`Pedido ${number} — ${shop.tradeName}`);
    expect(body.order_id).toBe(ref);
    // due_date: ISO 8601 in UTC (Openpay's example 2014-08-01T00:50:00Z) = the order's deadline, to the second.
    expect(body.due_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(
      Math.abs(Date.parse(String(body.due_date)) - new Date(row.payment_due_at!).getTime()),
    ).toBeLessThan(1000);
    expect(body.customer).toMatchObject({ name: expect.any(String), email: shopper.email });
    expect(Object.keys(body.customer as object).sort()).toEqual([
      'email',
      'last_name',
      'name',
      'phone_number',
    ]);
    for (const cardField of [
      'source_id',
      'device_session_id',
      'use_3d_secure',
      'redirect_url',
      'payment_plan',
    ]) {
      expect(body).not.toHaveProperty(cardField);
    }
    // The answer's payment_method (bank_transfer: bank, clabe, name) is what the buyer reads.
    const charge = chargeOf(ref);
    const pm = charge.payment_method as { bank: string; clabe: string; name: string };
    const detail = (
      await t.app.inject({ url: `/api/orders/${number}`, headers: { cookie: shopper.cookie } })
    ).json() as { payment: { instructions: Record<string, unknown> } };
    expect(detail.payment.instructions).toMatchObject({
      type: 'spei',
      bank: pm.bank,
      clabe: pm.clabe,
      reference: pm.name,
      amountCents: row.total_cents,
    });
  });

  it('store: method store with the customer; the Paynet reference and barcode_url reach the buyer', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 5, 1);
    const sent = chargeRequests().length;
    const res = await place(shopper, p.code, 1, 'cash');
    expect(res.statusCode, res.body).toBe(202);
    const { number } = res.json() as { number: number };
    const body = chargeRequests().slice(sent)[0]!.body as Record<string, unknown>;
    expect(body.method).toBe('store');
    expect(body).toHaveProperty('customer');
    expect(body).toHaveProperty('due_date');
    const charge = chargeOf(await orderRefOf(number));
    const pm = charge.payment_method as { reference: string; barcode_url: string };
    const detail = (
      await t.app.inject({ url: `/api/orders/${number}`, headers: { cookie: shopper.cookie } })
    ).json() as { payment: { instructions: Record<string, unknown> } };
    expect(detail.payment.instructions).toMatchObject({
      type: 'cash',
      reference: pm.reference,
      barcodeUrl: pm.barcode_url,
    });
  });

  it('the webhook charge.succeeded pays it (the charge fetched again from Openpay); charge.cancelled expires another', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 6, 2);
    const paidRes = await place(shopper, p.code, 1, 'spei');
    const expiredRes = await place(shopper, p.code, 2, 'cash');
    const paid = (paidRes.json() as { number: number }).number;
    const expired = (expiredRes.json() as { number: number }).number;
    const event = replica.payDelayed(chargeOf(await orderRefOf(paid)).id);
    // Openpay retries until it gets a 2xx: ten deliveries.
    for (let i = 0; i < 10; i++) expect((await webhook(event)).statusCode).toBe(200);
    expect((await orderRow(paid)).status).toBe('paid');
    const method = (
      await t.db.execute<{ method: string }>(
        sql`select method from payments where order_number = ${paid} and status = 'completed'`,
      )
    ).rows;
    expect(method).toEqual([{ method: 'spei' }]);

    expect((await webhook(replica.expireDelayed(chargeOf(await orderRefOf(expired)).id))).statusCode).toBe(
      200,
    );
    const row = await orderRow(expired);
    expect(row.status).toBe('cancelled');
    expect(row.cancel_reason).toMatch(/Venció el plazo/);
    expect(await stockOf(t, p.code)).toEqual({ stock: 5, ledger: 5 });
  });

  it('Openpay down when the charge is created: the order is released at once, the buyer told, nothing to pay', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 4, 3);
    const charges = replica.charges.size;
    // Every request fails: the look-up by order_id and the charge itself.
    replica.failNext(503, 503, 503, 503, 503, 503);
    const res = await place(shopper, p.code, 2, 'spei');
    replica.clearFailures();
    expect(res.statusCode).toBe(503);
    expect((res.json() as { error: { message: string } }).error.message).toMatch(
      /No pudimos generar la referencia de pago.*no se hizo ningún cargo/,
    );
    expect(replica.charges.size).toBe(charges);
    const [row] = (
      await t.db.execute<{ number: number; status: string }>(
        sql`select number, status from orders where user_id = ${shopper.id} order by number desc limit 1`,
      )
    ).rows;
    expect(row!.status).toBe('cancelled');
    expect(await stockOf(t, p.code)).toEqual({ stock: 4, ledger: 4 });
    const instructions = (
      await t.db.execute(
        sql`select 1 from mail_outbox where dedupe_key = ${`order-instructions:${row!.number}`}`,
      )
    ).rows;
    expect(instructions).toHaveLength(0);
  });

  it('Openpay refuses the request (1001): the same, and the error is ours, never the buyer’s', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 4, 4);
    replica.nextChargeErrors.push({ http: 400, code: 1001, description: 'due_date is invalid' });
    const res = await place(shopper, p.code, 1, 'cash');
    expect(res.statusCode).toBe(503);
    expect(await stockOf(t, p.code)).toEqual({ stock: 4, ledger: 4 });
  });
});

describe('meses sin intereses: payment_plan.payments on card charges above the configured total', () => {
  it('6 months on a large order: payment_plan {payments: 6} sent, the order records it; refused below the minimum', async () => {
    const shopper = await createShopper(t);
    const big = await productWithStock(t, 50, 5);
    const quantity = Math.ceil(shop.paymentMethods.msi.minCents / big.priceCents) + 1;
    const sent = chargeRequests().length;
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: big.code, quantity }],
      cardToken: replica.addToken('4111111111111111'),
      deviceSessionId: 'kR1MiQhz2otdIuUlQkbEyitIqVMiI16f',
      msiMonths: 6,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { number } = res.json() as { number: number };
    const body = chargeRequests().slice(sent)[0]!.body as Record<string, unknown>;
    expect(body.method).toBe('card');
    expect(body.payment_plan).toEqual({ payments: 6 });
    expect((await orderRow(number)).msi_months).toBe(6);
    const detail = (
      await t.app.inject({ url: `/api/orders/${number}`, headers: { cookie: shopper.cookie } })
    ).json() as { payment: { method: string; msiMonths: number | null } };
    expect(detail.payment).toMatchObject({ method: 'card', msiMonths: 6 });
    const [mail] = (
      await t.db.execute<{ text: string }>(
        sql`select text from mail_outbox where dedupe_key = ${`order-paid:${number}`}`,
      )
    ).rows;
    expect(mail!.text).toContain('6 meses sin intereses');
    // The CFDI of a purchase on meses sin intereses is still paid in one go for the shop: PUE, 04 (credit card).
    const invoice = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/invoice`,
      headers: { cookie: shopper.cookie },
      payload: {
        nombreFiscal: 'Laboratorios Químicos del Bajío',
        rfc: 'LQB150101AB3',
        regimenFiscal: '601',
        usoCfdi: 'G03',
        formaPago: '04',
        cp: '44100',
      },
    });
    expect(invoice.statusCode, invoice.body).toBe(201);
    const xml = (
      await t.app.inject({ url: `/api/orders/${number}/invoice.xml`, headers: { cookie: shopper.cookie } })
    ).body;
    expect(xml).toContain('FormaPago="04"');
    expect(xml).toContain('MetodoPago="PUE"');

    // One piece of the cheapest product is below the minimum: refused before anything is charged.
    const small = await productWithStock(t, 5, 6);
    expect(small.priceCents).toBeLessThan(shop.paymentMethods.msi.minCents);
    const before = chargeRequests().length;
    const refused = await placeOrderRequest(t, shopper, {
      items: [{ code: small.code, quantity: 1 }],
      cardToken: replica.addToken('4111111111111111'),
      deviceSessionId: 'kR1MiQhz2otdIuUlQkbEyitIqVMiI16f',
      msiMonths: 3,
    });
    expect(refused.statusCode).toBe(409);
    expect((refused.json() as { error: { code: string } }).error.code).toBe('msi_unavailable');
    expect(chargeRequests().length).toBe(before);
    expect(await stockOf(t, small.code)).toEqual({ stock: 5, ledger: 5 });
  });
});

describe('meses sin intereses only on credit cards (decision 048)', () => {
  const debitMessage =
    'Los meses sin intereses solo se pueden pagar con tarjeta de crédito, y esta es una tarjeta de débito. Elija «Una sola exhibición» o use una tarjeta de crédito; no se hizo ningún cargo.';

  it('a debit card’s token with 3 months is refused before any order or charge', async () => {
    const shopper = await createShopper(t);
    const big = await productWithStock(t, 20, 7);
    const quantity = Math.ceil(shop.paymentMethods.msi.minCents / big.priceCents) + 1;
    const before = chargeRequests().length;
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: big.code, quantity }],
      cardToken: replica.addToken('5555555555554444'),
      deviceSessionId: 'kR1MiQhz2otdIuUlQkbEyitIqVMiI16f',
      msiMonths: 3,
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toEqual({ code: 'msi_debit_card', message: debitMessage });
    expect(chargeRequests().length).toBe(before);
    expect(await stockOf(t, big.code)).toEqual({ stock: 20, ledger: 20 });
    const [row] = (
      await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from orders where user_id = ${shopper.id}`,
      )
    ).rows;
    expect(row!.n).toBe(0);
  });

  it('when the token cannot be read, Openpay’s refusal of the MSI charge (3006) is told as such', async () => {
    const shopper = await createShopper(t);
    const big = await productWithStock(t, 20, 8);
    const quantity = Math.ceil(shop.paymentMethods.msi.minCents / big.priceCents) + 1;
    const token = replica.addToken('5555555555554444');
    replica.failNext(503); // GET /tokens/{id} answers 503: the card type is unknown, the charge decides
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: big.code, quantity }],
      cardToken: token,
      deviceSessionId: 'kR1MiQhz2otdIuUlQkbEyitIqVMiI16f',
      msiMonths: 3,
    });
    expect(res.json().error.message, res.body).toBe(debitMessage);
    const charge = chargeRequests().at(-1)!.body as Record<string, unknown>;
    expect(charge.payment_plan).toEqual({ payments: 3 });
    expect(await stockOf(t, big.code)).toEqual({ stock: 20, ledger: 20 });
  });

  it('a credit card’s token keeps its 3 months', async () => {
    const shopper = await createShopper(t);
    const big = await productWithStock(t, 20, 9);
    const quantity = Math.ceil(shop.paymentMethods.msi.minCents / big.priceCents) + 1;
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: big.code, quantity }],
      cardToken: replica.addToken('4111111111111111'),
      deviceSessionId: 'kR1MiQhz2otdIuUlQkbEyitIqVMiI16f',
      msiMonths: 3,
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});
