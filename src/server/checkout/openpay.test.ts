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
import { createStaff } from '../../../tests/server/support/staff.ts';
import { formatMoney } from '../../shared/money.ts';
import { createInvoicingContext } from '../invoices/context.ts';
import { followTheMoneyRound } from '../invoices/follow-money.ts';

/**
 * The checkout against a local replica of Openpay's API (issue 14, Payments; issue 23, stock held hostage):
 * a charge counts only if it is ours, 3-D Secure after an anti-fraud decline, our errors told apart from the
 * card's, and every event after the payment honoured.
 */
const replica = new OpenpayReplica();
const hook = { OPENPAY_WEBHOOK_USER: 'openpay', OPENPAY_WEBHOOK_PASSWORD: 'secreto-del-webhook' };
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
      CHECKOUT_MAX_RESERVED_UNITS: '8',
      CHECKOUT_HOLD_MINUTES: '20',
      CHECKOUT_3DS_HOLD_MINUTES: '5',
      ...hook,
    },
  });
});
afterAll(async () => {
  await t.close();
  await replica.stop();
});

const order = async (number: number) =>
  (
    await t.db.execute<{ status: string; payment_state: string | null; total_cents: number }>(
      sql`select status, payment_state, total_cents from orders where number = ${number}`,
    )
  ).rows[0]!;
const paymentRows = async (number: number) =>
  (
    await t.db.execute<{
      status: string;
      charge_id: string | null;
      order_ref: string | null;
      refunded_cents: number;
      method: string | null;
      card_type: string | null;
    }>(
      sql`select status, charge_id, order_ref, refunded_cents, method, card_type from payments
        where order_number = ${number} order by id`,
    )
  ).rows;
const alerts = async (number: number) =>
  (
    await t.db.execute<{ kind: string; message: string }>(
      sql`select kind, message from payment_alerts where order_number = ${number} order by id`,
    )
  ).rows;
const buy = (shopper: Shopper, code: string, quantity: number, card = '4111111111111111') =>
  placeOrderRequest(t, shopper, {
    items: [{ code, quantity }],
    cardToken: replica.addToken(card),
    deviceSessionId: 'kR1MiQhz2otdIuUlQkbEyitIqVMiI16f',
  });
const webhook = (payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/payments/openpay/webhook',
    headers: { authorization: basic },
    payload: payload as Record<string, unknown>,
  });
const chargesOf = (number: number) =>
  [...replica.charges.values()].filter(
    (c) => c.order_id === String(number) || c.order_id?.startsWith(`${number}-`),
  );
const invoiceState = async (shopper: Shopper, number: number) =>
  (
    await t.app.inject({ url: `/api/orders/${number}/invoice`, headers: { cookie: shopper.cookie } })
  ).json() as { canRequest: boolean; blockedReason: string | null };

describe('a charge is believed only if it is ours', () => {
  it('an old completed 10.00 MXN charge with the same order number (shared merchant, reset database) does not pay a new order', async () => {
    const { rows } = await t.db.execute<{ next: number }>(
      sql`select (case when is_called then last_value + 1 else last_value end)::int as next from order_number_seq`,
    );
    const next = Number(rows[0]!.next);
    const old = replica.addForeignCharge(String(next), 10.0);
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 20, 0);
    const res = await buy(shopper, p.code, 3);
    expect(res.statusCode).toBe(201);
    const { number } = res.json() as { number: number };
    expect(number).toBe(next);
    const { total_cents } = (
      await t.db.execute<{ total_cents: number }>(
        sql`select total_cents from orders where number = ${number}`,
      )
    ).rows[0]!;
    expect(Number(total_cents)).toBeGreaterThan(1000);
    // Paid by a NEW charge of the order's amount — never by the old one found after a 1006.
    const [payment] = (
      await t.db.execute<{ charge_id: string }>(
        sql`select charge_id from payments where order_number = ${number}`,
      )
    ).rows;
    expect(payment!.charge_id).not.toBe(old);
    const charge = replica.charges.get(payment!.charge_id)!;
    expect(Math.round(charge.amount * 100)).toBe(Number(total_cents));
    expect(charge.status).toBe('completed');
    // …sent with our own reference, unique across databases.
    expect(charge.order_id).toBe((await paymentRows(number))[0]!.order_ref);
    expect(charge.order_id).toMatch(new RegExp(`^${number}-[a-z0-9]{8}$`));
  });

  it('a 1006 whose charge is somebody else’s (another amount) is a loud error for staff, never paid', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 20, 1);
    replica.collideNextOrderId(10.0);
    const res = await buy(shopper, p.code, 4);
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('payment_error');
    expect(res.json().error.message).toMatch(/^No pudimos procesar el pago en este momento/);
    const { number } = (
      await t.db.execute<{ number: number }>(
        sql`select number from orders where user_id = ${shopper.id} order by number desc limit 1`,
      )
    ).rows[0]!;
    const o = await order(Number(number));
    expect(o.status).not.toBe('paid');
    expect(o.status).toBe('cancelled');
    expect(o.payment_state).toBeNull();
    expect((await paymentRows(Number(number)))[0]!.status).toBe('error');
    expect(await stockOf(t, p.code)).toEqual({ stock: 20, ledger: 20 });
    const raised = await alerts(Number(number));
    expect(raised).toHaveLength(1);
    expect(raised[0]!.message).toContain('no es de este pedido');
    expect((await invoiceState(shopper, Number(number))).canRequest).toBe(false);
  });
});

describe('3-D Secure when the bank asks for it', () => {
  it('an anti-fraud decline (3005) is retried once with use_3d_secure; redirect_url only then; a shorter hold', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 5, 2);
    const before = replica.requests.length;
    const res = await buy(shopper, p.code, 1, '4000000000000044');
    expect(res.statusCode).toBe(200);
    const { number, redirectUrl } = res.json() as { number: number; redirectUrl: string };
    expect(redirectUrl).toMatch(/\/charges\/tr[a-z0-9]+\/redirect\/$/);
    const posts = replica.requests
      .slice(before)
      .filter((r) => r.method === 'POST' && r.path.endsWith('/charges'))
      .map((r) => r.body as Record<string, unknown>);
    expect(posts).toHaveLength(2);
    expect(posts[0]).not.toHaveProperty('use_3d_secure');
    expect(posts[0]).not.toHaveProperty('redirect_url');
    expect(posts[1]).toMatchObject({
      use_3d_secure: true,
      redirect_url: 'http://tienda.test/api/payments/return',
      source_id: posts[0]!.source_id,
    });
    expect(posts[1]!.order_id).not.toBe(posts[0]!.order_id);
    const { rows } = await t.db.execute<{ minutes: number }>(
      sql`select extract(epoch from reserved_until - now()) / 60 as minutes from orders where number = ${number}`,
    );
    expect(Number(rows[0]!.minutes)).toBeLessThanOrEqual(5);
    expect(Number(rows[0]!.minutes)).toBeGreaterThan(3);

    const pending = chargesOf(number).find((c) => c.status === 'charge_pending')!;
    replica.complete3ds(pending.id, true);
    const back = await t.app.inject(`/api/payments/return?id=${pending.id}`);
    expect(back.headers.location).toBe(`/resumen/${number}`);
    expect((await order(number)).status).toBe('paid');
  });
});

describe('errors told apart', () => {
  it.each([
    [3012, 'Requiere autorización del banco'],
    [3010, 'El banco restringió la tarjeta'],
    [2004, 'Tarjeta declinada: el número de tarjeta no es válido'],
  ])('Openpay %s is the card’s: 402 "%s", order payment_failed', async (code, message) => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 5, 3);
    replica.nextChargeErrors.push({ http: 402, code, description: 'declined', category: 'gateway' });
    const res = await buy(shopper, p.code, 1);
    expect(res.statusCode).toBe(402);
    expect(res.json().error).toEqual({ code: 'payment_declined', message });
  });

  it.each([
    [401, 1002, 'The api key or merchant id are invalid'],
    [400, 1001, 'amount must be greater than 0'],
    [412, 4001, 'The merchant account has insufficient funds'],
  ])(
    'Openpay %s/%s is ours: 503, logged for staff, the order released, not blamed on the card',
    async (http, code, description) => {
      const shopper = await createShopper(t);
      const p = await productWithStock(t, 5, 4);
      replica.nextChargeErrors.push({ http, code, description });
      const res = await buy(shopper, p.code, 2);
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('payment_error');
      expect(res.json().error.message).toBe(
        'No pudimos procesar el pago en este momento. No se hizo ningún cargo a su tarjeta; intente de nuevo en unos minutos.',
      );
      const list = (await t.app.inject({ url: '/api/orders', headers: { cookie: shopper.cookie } })).json();
      expect(list.orders[0].status).toBe('cancelled');
      expect(list.orders[0].status).not.toBe('payment_failed');
      expect(await stockOf(t, p.code)).toEqual({ stock: 5, ledger: 5 });
      expect((await paymentRows(list.orders[0].number))[0]).toMatchObject({
        status: 'error',
      });
      expect((await alerts(list.orders[0].number))[0]!.message).toContain(String(code));
    },
  );
});

describe('every Openpay event honoured', () => {
  async function paid(index: number, card = '4111111111111111') {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, index);
    const res = await buy(shopper, p.code, 2, card);
    expect(res.statusCode).toBe(201);
    const { number } = res.json() as { number: number };
    const charge = chargesOf(number).find((c) => c.status === 'completed')!;
    return { shopper, p, number, charge };
  }

  it('a refund made in Openpay’s dashboard: refunded, cancelled with the stock back, staff alerted, no invoice', async () => {
    const { shopper, p, number, charge } = await paid(5);
    expect(await stockOf(t, p.code)).toEqual({ stock: 8, ledger: 8 });
    const event = replica.dashboard(charge.id, 'charge.refunded');
    for (let i = 0; i < 2; i++) expect((await webhook(event)).statusCode).toBe(200);
    const { rows } = await t.db.execute<{ status: string }>(
      sql`select status from orders where number = ${number}`,
    );
    expect(rows[0]!.status).not.toBe('paid');
    expect(await order(number)).toMatchObject({ status: 'cancelled', payment_state: 'refunded' });
    expect((await paymentRows(number))[0]).toMatchObject({ status: 'refunded' });
    expect(Number((await paymentRows(number))[0]!.refunded_cents)).toBe(
      Number((await order(number)).total_cents),
    );
    expect(await stockOf(t, p.code)).toEqual({ stock: 10, ledger: 10 });
    const raised = await alerts(number);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ kind: 'refunded' });
    expect((await invoiceState(shopper, number)).canRequest).toBe(false);
    // Staff see it on the back office's order.
    const staff = await createStaff(t);
    const detail = (
      await t.app.inject({ url: `/api/admin/orders/${number}`, headers: { cookie: staff.cookie } })
    ).json();
    expect(detail.paymentState).toBe('refunded');
    expect(detail.paymentAlerts).toHaveLength(1);
    expect(detail.paymentAlerts[0].message).toContain('reembolsado o cancelado en Openpay');
  });

  const invoice = async (shopper: Shopper, number: number) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/invoice`,
      headers: { cookie: shopper.cookie },
      payload: {
        nombreFiscal: 'Laboratorios Químicos del Bajío',
        rfc: 'LQB150101AB3',
        regimenFiscal: '601',
        usoCfdi: 'G03',
        cp: '44100',
      },
    });
    expect(res.statusCode).toBe(201);
    return res.json().invoice.uuid as string;
  };
  const creditNotes = async (number: number) =>
    (
      await t.db.execute<{ status: string; total_cents: number; related_uuid: string }>(
        sql`select status, total_cents::int as total_cents, related_uuid from invoices
            where order_number = ${number} and kind = 'E' order by id`,
      )
    ).rows;
  const invoiceRow = async (uuid: string) =>
    (
      await t.db.execute<{ status: string; cancel_motivo: string | null; cancel_status: string | null }>(
        sql`select status, cancel_motivo, cancel_status from invoices where uuid = ${uuid}`,
      )
    ).rows[0]!;

  it('a refund in the dashboard of an invoiced order: the sale did not happen, its invoice is cancelled with motivo 03', async () => {
    const { shopper, number, charge } = await paid(8);
    const uuid = await invoice(shopper, number);
    await webhook(replica.dashboard(charge.id, 'charge.refunded'));
    expect(await order(number)).toMatchObject({ status: 'cancelled', payment_state: 'refunded' });
    expect((await alerts(number))[0]!.message).toContain(
      'La venta no se llevó a cabo: su factura vigente se cancelará ante el SAT con motivo 03',
    );

    // The paper follows the money at once (decision 045): no round needed.
    const ctx = createInvoicingContext(t.app.config, t.db);
    expect(await invoiceRow(uuid)).toMatchObject({ status: 'cancelled', cancel_motivo: '03' });
    const state = (
      await t.app.inject({ url: `/api/orders/${number}/invoice`, headers: { cookie: shopper.cookie } })
    ).json();
    expect(state).toMatchObject({ state: 'cancelled', uuid, canRequest: false });
    const pdf = await t.app.inject({
      url: `/api/orders/${number}/invoice.pdf`,
      headers: { cookie: shopper.cookie },
    });
    expect(pdf.statusCode).toBe(200);
    expect((await alerts(number)).map((a) => a.kind)).toEqual(['refunded', 'tax_paper']);
    expect((await alerts(number))[1]!.message).toBe(
      `La venta no se llevó a cabo (pedido cancelado y reembolsado): la factura ${uuid} se canceló ante el SAT con motivo 03.`,
    );
    // The shopper is told the real motivo, and not invited to request another invoice.
    const mail = (
      await t.db.execute<{ text: string }>(
        sql`select text from mail_outbox where dedupe_key = ${`invoice-cancelled:${uuid}`}`,
      )
    ).rows[0]!.text;
    expect(mail).toContain('(motivo 03: no se llevó a cabo la operación)');
    expect(mail).toContain(
      'El pedido se canceló y su pago fue reembolsado, por lo que la venta no se realizó.',
    );
    expect(mail).not.toContain('Solicitar factura');
    // Once: the next round finds nothing to do for it.
    await followTheMoneyRound(ctx);
    expect(await alerts(number)).toHaveLength(2);
    expect((await creditNotes(number)).length).toBe(0);
  });

  it('past the SAT deadline the invoice of an undone sale stays valid and a credit note for the total is issued', async () => {
    const { shopper, number, charge } = await paid(9);
    const uuid = await invoice(shopper, number);
    // The PAC was down when the refund arrived: the paper is left to the invoices' round, which runs past the
    // SAT's cancellation deadline.
    const impl = t.app.taxPapers.impl;
    t.app.taxPapers.impl = null;
    await webhook(replica.dashboard(charge.id, 'charge.refunded'));
    t.app.taxPapers.impl = impl;
    const nextYear = new Date().getUTCFullYear() + 1;
    const late = createInvoicingContext(t.app.config, t.db, {
      now: () => new Date(`${nextYear}-04-02T12:00:00-06:00`),
    });
    expect((await followTheMoneyRound(late)).credit_note).toBeGreaterThanOrEqual(1);
    expect(await invoiceRow(uuid)).toMatchObject({ status: 'issued', cancel_motivo: null });
    const total = Number((await order(number)).total_cents);
    expect(await creditNotes(number)).toEqual([{ status: 'issued', total_cents: total, related_uuid: uuid }]);
    const messages = (await alerts(number)).map((a) => a.message);
    expect(
      messages.some((m) =>
        m.startsWith(
          `No se puede cancelar la factura ${uuid} con motivo 03: El plazo para cancelar esta factura terminó el 31 de marzo de ${nextYear}`,
        ),
      ),
    ).toBe(true);
    expect(messages.some((m) => m.includes('Se emitió la nota de crédito'))).toBe(true);
    // Once: another round issues nothing more.
    await followTheMoneyRound(late);
    expect(await creditNotes(number)).toHaveLength(1);
  });

  it('a refund after shipping of an invoiced order is a return: the invoice stays, a credit note for what went back', async () => {
    const { shopper, number, charge } = await paid(4);
    const uuid = await invoice(shopper, number);
    await t.db.execute(sql`update orders set status = 'shipped' where number = ${number}`);
    await webhook(replica.dashboard(charge.id, 'charge.refunded'));
    expect(await order(number)).toMatchObject({ status: 'shipped', payment_state: 'refunded' });
    expect((await alerts(number))[0]!.message).toContain(
      'El pedido tiene una factura vigente: se emite una nota de crédito por lo devuelto',
    );
    await followTheMoneyRound(createInvoicingContext(t.app.config, t.db));
    expect(await invoiceRow(uuid)).toMatchObject({ status: 'issued', cancel_motivo: null });
    // A return: the invoice stays and the money that went back has its credit note, once.
    const total = Number((await order(number)).total_cents);
    expect(await creditNotes(number)).toEqual([{ status: 'issued', total_cents: total, related_uuid: uuid }]);
  });

  it('the refund of our own cancellation in flight (claimed, not finished) is left to the cancellation', async () => {
    const { number, charge } = await paid(3);
    await t.db.execute(sql`update orders set cancelled_at = now() where number = ${number}`);
    await webhook(replica.dashboard(charge.id, 'charge.refunded'));
    expect(await order(number)).toMatchObject({ status: 'paid', payment_state: 'paid' });
    expect((await paymentRows(number))[0]!.status).toBe('completed');
    expect(await alerts(number)).toEqual([]);
  });

  it('a refund after shipping: the order stays shipped, the payment refunded, no invoice, staff alerted', async () => {
    const { shopper, p, number, charge } = await paid(6);
    await t.db.execute(sql`update orders set status = 'shipped' where number = ${number}`);
    expect((await invoiceState(shopper, number)).canRequest).toBe(true);
    await webhook(replica.dashboard(charge.id, 'charge.refunded'));
    expect(await order(number)).toMatchObject({ status: 'shipped', payment_state: 'refunded' });
    expect(await stockOf(t, p.code)).toEqual({ stock: 8, ledger: 8 });
    expect(await invoiceState(shopper, number)).toMatchObject({
      canRequest: false,
      blockedReason: 'El pago de este pedido fue reembolsado; no se puede facturar',
    });
    expect((await alerts(number))[0]!.message).toContain('ya había salido del almacén');
  });

  it('chargeback opened (in dispute), then won (paid again); another one lost (cancelled, stock back)', async () => {
    const won = await paid(7);
    await webhook(replica.dashboard(won.charge.id, 'chargeback.created'));
    expect(await order(won.number)).toMatchObject({ status: 'paid', payment_state: 'in_dispute' });
    expect((await invoiceState(won.shopper, won.number)).canRequest).toBe(false);
    await webhook(replica.dashboard(won.charge.id, 'chargeback.rejected'));
    expect(await order(won.number)).toMatchObject({ status: 'paid', payment_state: 'paid' });
    expect((await alerts(won.number)).map((a) => a.kind)).toEqual(['in_dispute', 'paid']);

    const lost = await paid(8);
    await webhook(replica.dashboard(lost.charge.id, 'chargeback.created'));
    await webhook(replica.dashboard(lost.charge.id, 'chargeback.accepted'));
    expect(await order(lost.number)).toMatchObject({ status: 'cancelled', payment_state: 'lost' });
    expect(await stockOf(t, lost.p.code)).toEqual({ stock: 10, ledger: 10 });
    expect((await alerts(lost.number)).map((a) => a.kind)).toEqual(['in_dispute', 'lost']);
  });

  it('a partial refund in the dashboard: partially refunded, still paid and invoiceable, staff alerted', async () => {
    const { shopper, number, charge } = await paid(1);
    await webhook(replica.dashboard(charge.id, 'charge.refunded', 1.5));
    expect(await order(number)).toMatchObject({ status: 'paid', payment_state: 'partially_refunded' });
    expect(Number((await paymentRows(number))[0]!.refunded_cents)).toBe(150);
    expect((await invoiceState(shopper, number)).canRequest).toBe(true);
    expect((await alerts(number)).map((a) => a.kind)).toEqual(['partially_refunded']);
    expect((await alerts(number))[0]!.message).toBe('Se hizo un reembolso parcial en Openpay.');
  });

  it('a partial refund of an invoiced order: the invoice stays valid, a credit note of the amount follows', async () => {
    const { shopper, number, charge } = await paid(2);
    const uuid = await invoice(shopper, number);
    const part = Math.floor(Number((await order(number)).total_cents) / 2);
    await webhook(replica.dashboard(charge.id, 'charge.refunded', part / 100));
    expect(await order(number)).toMatchObject({ status: 'paid', payment_state: 'partially_refunded' });
    expect((await alerts(number))[0]!.message).toBe(
      `Se hizo un reembolso parcial en Openpay. El pedido tiene una factura vigente: se emite una nota de crédito por lo reembolsado (${formatMoney(part)} MXN en total).`,
    );
    await followTheMoneyRound(createInvoicingContext(t.app.config, t.db));
    expect(await invoiceRow(uuid)).toMatchObject({ status: 'issued', cancel_motivo: null });
    expect(await creditNotes(number)).toEqual([{ status: 'issued', total_cents: part, related_uuid: uuid }]);
  });

  it('charge.rescored.to.decline and charge.cancelled on a paid order: refunded, staff alerted', async () => {
    const rescored = await paid(9);
    await webhook(replica.dashboard(rescored.charge.id, 'charge.rescored.to.decline'));
    expect(await order(rescored.number)).toMatchObject({ status: 'cancelled', payment_state: 'refunded' });
    expect(await alerts(rescored.number)).toHaveLength(1);
    const cancelled = await paid(10);
    await webhook(replica.dashboard(cancelled.charge.id, 'charge.cancelled'));
    expect(await order(cancelled.number)).toMatchObject({ status: 'cancelled', payment_state: 'refunded' });
  });

  it('records how the order was paid for the CFDI: method card, card type debit/credit from Openpay', async () => {
    const debit = await paid(11, '5555555555554444');
    expect((await paymentRows(debit.number))[0]).toMatchObject({ method: 'card', card_type: 'debit' });
    const credit = await paid(0);
    expect((await paymentRows(credit.number))[0]).toMatchObject({ method: 'card', card_type: 'credit' });
  });
});

describe('stock held hostage (issue 23)', () => {
  it('a new attempt releases the shopper’s pending order at once; units held per shopper are capped', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 4);
    const first = await buy(shopper, p.code, 3, '4000000000000044');
    expect(first.statusCode).toBe(200);
    expect(await stockOf(t, p.code)).toEqual({ stock: 7, ledger: 7 });
    const second = await buy(shopper, p.code, 2, '4000000000000044');
    expect(second.statusCode).toBe(200);
    expect((await order((first.json() as { number: number }).number)).status).toBe('payment_failed');
    expect(await stockOf(t, p.code)).toEqual({ stock: 8, ledger: 8 });

    // Concurrent attempts of one shopper: never more than CHECKOUT_MAX_PENDING_ORDERS (2) unpaid at once.
    const p2 = await productWithStock(t, 20, 5);
    const burst = await Promise.all(
      Array.from({ length: 5 }, () => buy(shopper, p2.code, 1, '4000000000000044')),
    );
    expect(burst.every((r) => [200, 402, 409].includes(r.statusCode))).toBe(true);
    const { rows } = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from orders where user_id = ${shopper.id} and status = 'pending_payment'`,
    );
    expect(Number(rows[0]!.n)).toBeLessThanOrEqual(2);
    expect(Number(rows[0]!.n)).toBeGreaterThanOrEqual(1);

    const tooMany = await buy(shopper, p.code, 9);
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().error).toEqual({
      code: 'too_many_units',
      message:
        'Mientras se confirma el pago se pueden apartar hasta 8 piezas por cliente. Para pedidos mayores, contáctenos.',
    });
  });
});
