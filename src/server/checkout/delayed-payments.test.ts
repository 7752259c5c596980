import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  placeOrderRequest,
  productWithStock,
  type Shopper,
  sandboxToken,
  stockOf,
} from '../../../tests/server/support/checkout.ts';
import { createStaff } from '../../../tests/server/support/staff.ts';
import { isBusinessDay } from '../../shared/business-days.ts';
import { clabeCheckDigit } from '../../shared/clabe.ts';
import { mexicoCityDate, mexicoWallClock } from '../../shared/mexico-time.ts';
import { delayedPaymentDeadline } from '../../shared/payment-methods.ts';
import { shop } from '../../shared/shop.ts';
import type { OrderContext } from '../orders/context.ts';
import type { SandboxGateway } from '../payments/sandbox.ts';
import { reconcileAwaiting } from './settle.ts';
import { sweepOnce } from './sweeper.ts';

/**
 * Issue 21 on the offline gateway: SPEI and cash-at-store orders hold their stock until their deadline, give the
 * buyer the instructions (page and mail), are paid exactly once by the webhook or the reconciliation, expire once
 * at the deadline, and a payment that arrives after the expiry is recorded for staff without touching stock.
 */
const basic = `Basic ${Buffer.from('openpay:secreto-del-webhook').toString('base64')}`;
let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp({
    env: {
      OPENPAY_WEBHOOK_USER: 'openpay',
      OPENPAY_WEBHOOK_PASSWORD: 'secreto-del-webhook',
      CHECKOUT_MAX_PENDING_ORDERS: '200',
      CHECKOUT_MAX_RESERVED_UNITS: '5000',
      // These tests hold most of a product's stock on purpose; the share cap has its own test (abandon.test.ts).
      CHECKOUT_MAX_UNPAID_SHARE_PERCENT: '100',
    },
  });
});
afterAll(() => t.close());

const gateway = () => t.app.paymentGateway as SandboxGateway;
const ctx = (): OrderContext => ({
  db: t.db,
  gateway: t.app.paymentGateway,
  publicUrl: 'http://tienda.test',
  log: t.app.log,
});

type OrderRow = {
  status: string;
  payment_method: string;
  payment_due_at: Date | string | null;
  reserved_until: Date | string | null;
  paid_at: Date | string | null;
  late_payment_at: Date | string | null;
  cancel_reason: string | null;
};
const orderRow = async (number: number) =>
  (
    await t.db.execute<OrderRow>(
      sql`select status, payment_method, payment_due_at, reserved_until, paid_at, late_payment_at, cancel_reason
          from orders where number = ${number}`,
    )
  ).rows[0]!;
const paymentOf = async (number: number) =>
  (
    await t.db.execute<{
      status: string;
      charge_id: string | null;
      method: string | null;
      order_ref: string;
    }>(
      sql`select status, charge_id, method, order_ref from payments where order_number = ${number} order by id desc limit 1`,
    )
  ).rows[0]!;
const mails = async (kind: string, number: number) =>
  (
    await t.db.execute<{ subject: string; text: string }>(
      sql`select subject, text from mail_outbox where kind = ${kind} and dedupe_key like ${`%:${number}`}`,
    )
  ).rows;
const alerts = async (number: number) =>
  (
    await t.db.execute<{ kind: string; message: string }>(
      sql`select kind, message from payment_alerts where order_number = ${number} order by id`,
    )
  ).rows;
const movements = async (number: number) =>
  (
    await t.db.execute<{ reason: string; delta: number }>(
      sql`select reason, delta::int as delta from stock_movements where order_number = ${number} order by id`,
    )
  ).rows;

async function placeDelayed(shopper: Shopper, code: string, quantity: number, method: 'spei' | 'cash') {
  const res = await placeOrderRequest(t, shopper, { items: [{ code, quantity }], paymentMethod: method });
  expect(res.statusCode, res.body).toBe(202);
  const body = res.json() as { number: number; awaitingPayment: boolean };
  expect(body.awaitingPayment).toBe(true);
  return body.number;
}

const chargeOf = async (number: number) => (await paymentOf(number)).charge_id!;
const webhook = (payload: unknown, authorization = basic) =>
  t.app.inject({
    method: 'POST',
    url: '/api/payments/openpay/webhook',
    headers: { authorization },
    payload: payload as Record<string, unknown>,
  });
const succeeded = (chargeId: string) => ({
  type: 'charge.succeeded',
  event_date: new Date().toISOString(),
  transaction: { id: chargeId },
});
/** The deadline passes: the order's (and the charge's) due date is moved into the past. */
async function passDeadline(number: number) {
  await t.db.execute(
    sql`update orders set payment_due_at = now() - interval '1 second', reserved_until = now() - interval '1 second'
        where number = ${number}`,
  );
}

describe('SPEI and cash at a store: the order holds its stock until the payment reference’s deadline', () => {
  it('SPEI: 202, stock held 48 h (the charge’s due_date), CLABE/bank/reference on the page, in the history and by mail', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 0);
    const before = Date.now();
    const number = await placeDelayed(shopper, p.code, 3, 'spei');
    expect(await stockOf(t, p.code)).toEqual({ stock: 7, ledger: 7 });

    const row = await orderRow(number);
    expect(row.status).toBe('pending_payment');
    expect(row.payment_method).toBe('spei');
    const due = new Date(row.payment_due_at!).getTime();
    // At least 48 h, ending at the close (23:59:59, Mexico City) of a business day — never at night's 03:14.
    expect(due - before).toBeGreaterThanOrEqual(shop.paymentMethods.speiHours * 3_600_000);
    expect(due).toBeGreaterThanOrEqual(delayedPaymentDeadline('spei', new Date(before)).getTime());
    expect(due).toBeLessThanOrEqual(delayedPaymentDeadline('spei', new Date()).getTime());
    expect(mexicoWallClock(new Date(due)).slice(11)).toBe('23:59:59');
    expect(isBusinessDay(mexicoCityDate(new Date(due)))).toBe(true);
    expect(new Date(row.reserved_until!).getTime()).toBe(due);
    // The simulator's charge carries the same due date, as Openpay's due_date.
    const charge = await gateway().getCharge(await chargeOf(number));
    expect(charge.status).toBe('in_progress');
    expect(charge.method).toBe('spei');
    expect(new Date(charge.dueDate!).getTime()).toBe(due);

    const detail = (
      await t.app.inject({ url: `/api/orders/${number}`, headers: { cookie: shopper.cookie } })
    ).json() as {
      statusLabel: string;
      totalCents: number;
      payment: {
        method: string;
        deadline: string;
        instructions: { type: string; bank: string; clabe: string; reference: string; amountCents: number };
      };
    };
    expect(detail.statusLabel).toBe('Pendiente de pago');
    expect(detail.payment.method).toBe('spei');
    expect(new Date(detail.payment.deadline).getTime()).toBe(due);
    const i = detail.payment.instructions;
    expect(i.type).toBe('spei');
    expect(i.bank).toBe('STP');
    expect(i.clabe).toMatch(/^646180\d{12}$/);
    expect(clabeCheckDigit(i.clabe.slice(0, 17))).toBe(Number(i.clabe[17]));
    expect(i.reference).toMatch(/^\d{7}$/);
    expect(i.amountCents).toBe(detail.totalCents);

    const history = (
      await t.app.inject({ url: '/api/orders', headers: { cookie: shopper.cookie } })
    ).json() as { orders: { number: number; statusLabel: string; paymentDeadline: string | null }[] };
    const listed = history.orders.find((o) => o.number === number)!;
    expect(listed.statusLabel).toBe('Pendiente de pago');
    expect(new Date(listed.paymentDeadline!).getTime()).toBe(due);

    const [mail] = await mails('order-payment-instructions', number);
    expect(mail!.subject).toBe(`Instrucciones de pago del pedido #${number}`);
    expect(mail!.text).toContain(i.clabe);
    expect(mail!.text).toContain(i.reference);
    expect(mail!.text).toContain('STP');
  });

  it('cash: a Paynet reference and its Code 128 barcode (served as SVG), 72 h to pay', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 5, 1);
    const number = await placeDelayed(shopper, p.code, 1, 'cash');
    const row = await orderRow(number);
    expect(row.payment_method).toBe('cash');
    const hours = (new Date(row.payment_due_at!).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(shop.paymentMethods.storeHours - 0.1);
    expect(mexicoWallClock(new Date(row.payment_due_at!)).slice(11)).toBe('23:59:59');
    expect(isBusinessDay(mexicoCityDate(new Date(row.payment_due_at!)))).toBe(true);
    const detail = (
      await t.app.inject({ url: `/api/orders/${number}`, headers: { cookie: shopper.cookie } })
    ).json() as { payment: { instructions: { type: string; reference: string; barcodeUrl: string } } };
    const i = detail.payment.instructions;
    expect(i.type).toBe('cash');
    expect(i.reference).toMatch(/^000020TR[A-Z0-9]+$/);
    const barcode = await t.app.inject({ url: i.barcodeUrl });
    expect(barcode.statusCode).toBe(200);
    expect(barcode.headers['content-type']).toContain('image/svg+xml');
    expect(barcode.body).toContain('<svg');
    const [mail] = await mails('order-payment-instructions', number);
    expect(mail!.text).toContain(i.reference);
    expect(mail!.text).toContain('Paynet');
  });

  it('refuses bad input with a Spanish 400 and changes nothing', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 4, 2);
    for (const body of [
      { items: [{ code: p.code, quantity: 1 }], paymentMethod: 'bitcoin' },
      { items: [{ code: p.code, quantity: 1 }], paymentMethod: 'spei', msiMonths: 6 },
      { items: [{ code: p.code, quantity: 1 }], paymentMethod: 'card' },
      { items: [{ code: p.code, quantity: 1 }], paymentMethod: 'cash', msiMonths: 5 },
    ]) {
      const res = await placeOrderRequest(t, shopper, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect((res.json() as { error: { message: string } }).error.message).toMatch(
        /forma de pago|meses sin intereses|tarjeta|dispositivo/i,
      );
    }
    expect(await stockOf(t, p.code)).toEqual({ stock: 4, ledger: 4 });
  });

  it('a new card purchase does not release the buyer’s SPEI order still awaiting payment', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 6, 3);
    const spei = await placeDelayed(shopper, p.code, 2, 'spei');
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: p.code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'dispositivo-de-prueba',
    });
    expect(res.statusCode).toBe(201);
    expect((await orderRow(spei)).status).toBe('pending_payment');
    expect(await stockOf(t, p.code)).toEqual({ stock: 3, ledger: 3 });
  });
});

describe('the payment is confirmed once: webhook, replays, reconciliation', () => {
  it('“Simular pago recibido” fires charge.succeeded: paid once, one mail; 10 replays change nothing', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 8, 4);
    const number = await placeDelayed(shopper, p.code, 2, 'spei');
    const chargeId = await chargeOf(number);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/charges/${chargeId}/pay`,
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ orderNumber: number, status: 'completed' });
    for (let i = 0; i < 10; i++) expect((await webhook(succeeded(chargeId))).statusCode).toBe(200);

    const row = await orderRow(number);
    expect(row.status).toBe('paid');
    expect(row.paid_at).not.toBeNull();
    expect(await paymentOf(number)).toMatchObject({
      status: 'completed',
      method: 'spei',
      charge_id: chargeId,
    });
    const paidMails = await mails('order-paid', number);
    expect(paidMails).toHaveLength(1);
    expect(paidMails[0]!.text).toContain('Transferencia SPEI');
    expect(await movements(number)).toEqual([{ reason: 'order_reserve', delta: -2 }]);
    expect(await stockOf(t, p.code)).toEqual({ stock: 6, ledger: 6 });
    // Paying twice is impossible at the gateway too.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/charges/${chargeId}/pay`,
      headers: { accept: 'application/json' },
    });
    expect(again.statusCode).toBe(409);
  });

  it('wrong webhook credentials: 401 and nothing changes; an unknown charge is acknowledged and ignored', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 3, 5);
    const number = await placeDelayed(shopper, p.code, 1, 'cash');
    const chargeId = await chargeOf(number);
    await t.db.execute(sql`update sandbox_charges set status = 'completed' where id = ${chargeId}`);
    const wrong = `Basic ${Buffer.from('openpay:otra-clave').toString('base64')}`;
    const refused = await webhook(succeeded(chargeId), wrong);
    expect(refused.statusCode).toBe(401);
    expect((await orderRow(number)).status).toBe('pending_payment');
    const unknown = await webhook(succeeded('trnoexiste000000000'));
    expect(unknown.statusCode).toBe(200);
    expect((await orderRow(number)).status).toBe('pending_payment');
    // Events in any order: a charge.cancelled delivered late about a charge now completed changes nothing wrong.
    await webhook({ type: 'charge.cancelled', transaction: { id: chargeId } });
    expect((await orderRow(number)).status).toBe('paid');
  });

  it('a payment for a different amount never pays the order: staff are alerted, the order keeps waiting', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 3, 6);
    const number = await placeDelayed(shopper, p.code, 1, 'spei');
    const chargeId = await chargeOf(number);
    await t.db.execute(
      sql`update sandbox_charges set status = 'completed', amount_cents = amount_cents - 100 where id = ${chargeId}`,
    );
    expect((await webhook(succeeded(chargeId))).statusCode).toBe(200);
    const row = await orderRow(number);
    expect(row.status).toBe('pending_payment');
    expect(row.paid_at).toBeNull();
    const [alert] = await alerts(number);
    expect(alert!.kind).toBe('payment_error');
    expect(alert!.message).toContain('no corresponde al pedido');
    expect(await stockOf(t, p.code)).toEqual({ stock: 2, ledger: 2 });
  });

  it('a lost webhook: the reconciliation asks the gateway and pays the order once', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 3, 7);
    const number = await placeDelayed(shopper, p.code, 1, 'cash');
    const paid = await gateway().simulatePayment(await chargeOf(number));
    expect(paid?.status).toBe('completed');
    expect(await reconcileAwaiting(ctx(), { everyMs: 0, batch: 500 })).toBeGreaterThanOrEqual(1);
    expect((await orderRow(number)).status).toBe('paid');
    await reconcileAwaiting(ctx(), { everyMs: 0, batch: 500 });
    expect(await mails('order-paid', number)).toHaveLength(1);
  });
});

describe('the CFDI of an order paid later: FormaPago from the payment, MetodoPago PUE', () => {
  const form = {
    nombreFiscal: 'Laboratorios Químicos del Bajío',
    rfc: 'LQB150101AB3',
    regimenFiscal: '601',
    usoCfdi: 'G03',
    formaPago: '04',
    cp: '44100',
  };
  for (const [method, formaPago] of [
    ['spei', '03'],
    ['cash', '01'],
  ] as const) {
    it(`${method}: invoiced after the payment with FormaPago ${formaPago} (whatever the form says), PUE`, async () => {
      const shopper = await createShopper(t);
      const p = await productWithStock(t, 3, method === 'spei' ? 0 : 1);
      const number = await placeDelayed(shopper, p.code, 1, method);
      const early = await t.app.inject({
        method: 'POST',
        url: `/api/orders/${number}/invoice`,
        headers: { cookie: shopper.cookie },
        payload: form,
      });
      expect(early.statusCode).toBe(409);
      await t.app.inject({
        method: 'POST',
        url: `/api/payments/sandbox/charges/${await chargeOf(number)}/pay`,
        headers: { accept: 'application/json' },
      });
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/orders/${number}/invoice`,
        headers: { cookie: shopper.cookie },
        payload: form,
      });
      expect(res.statusCode, res.body).toBe(201);
      const xml = (
        await t.app.inject({ url: `/api/orders/${number}/invoice.xml`, headers: { cookie: shopper.cookie } })
      ).body;
      expect(xml).toContain(`FormaPago="${formaPago}"`);
      expect(xml).toContain('MetodoPago="PUE"');
    });
  }
});

describe('expiry and payments after it', () => {
  it('the sweeper cancels the unpaid order once at its deadline, gives the stock back and mails the buyer', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 5, 8);
    const number = await placeDelayed(shopper, p.code, 4, 'spei');
    expect(await stockOf(t, p.code)).toEqual({ stock: 1, ledger: 1 });
    await sweepOnce(ctx());
    expect((await orderRow(number)).status).toBe('pending_payment');
    await passDeadline(number);
    await sweepOnce(ctx());
    await sweepOnce(ctx());
    const row = await orderRow(number);
    expect(row.status).toBe('cancelled');
    expect(row.cancel_reason).toMatch(/Venció el plazo para pagar/);
    expect(await stockOf(t, p.code)).toEqual({ stock: 5, ledger: 5 });
    expect(await movements(number)).toEqual([
      { reason: 'order_reserve', delta: -4 },
      { reason: 'order_release', delta: 4 },
    ]);
    expect((await paymentOf(number)).status).toBe('expired');
    const expired = await mails('order-payment-expired', number);
    expect(expired).toHaveLength(1);
    expect(expired[0]!.subject).toBe(`Pedido #${number} cancelado por falta de pago`);
    const detail = (
      await t.app.inject({ url: `/api/orders/${number}`, headers: { cookie: shopper.cookie } })
    ).json() as { statusLabel: string; payment: { instructions: unknown } };
    expect(detail.statusLabel).toBe('Cancelado');
    expect(detail.payment.instructions).toBeNull();
  });

  it('“Simular vencimiento” (charge.cancelled) expires the order the same way', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 2, 9);
    const number = await placeDelayed(shopper, p.code, 2, 'cash');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/charges/${await chargeOf(number)}/expire`,
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await orderRow(number)).status).toBe('cancelled');
    expect(await stockOf(t, p.code)).toEqual({ stock: 2, ledger: 2 });
    expect(await mails('order-payment-expired', number)).toHaveLength(1);
  });

  it('a payment after the expiry is recorded and queued for staff; the stock someone else bought is not re-reserved', async () => {
    const shopper = await createShopper(t);
    const other = await createShopper(t);
    const p = await productWithStock(t, 2, 10);
    const number = await placeDelayed(shopper, p.code, 2, 'spei');
    await passDeadline(number);
    await sweepOnce(ctx());
    expect((await orderRow(number)).status).toBe('cancelled');
    // Someone else buys the released units.
    const bought = await placeOrderRequest(t, other, {
      items: [{ code: p.code, quantity: 2 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'dispositivo-de-prueba',
    });
    expect(bought.statusCode).toBe(201);
    const chargeId = await chargeOf(number);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/payments/sandbox/charges/${chargeId}/pay-late`,
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(200);
    for (let i = 0; i < 3; i++) await webhook(succeeded(chargeId));
    const row = await orderRow(number);
    expect(row.status).toBe('cancelled');
    expect(row.paid_at).toBeNull();
    expect(row.late_payment_at).not.toBeNull();
    expect(await paymentOf(number)).toMatchObject({ status: 'completed', charge_id: chargeId });
    const late = (await alerts(number)).filter((a) => a.kind === 'late_payment');
    expect(late).toHaveLength(1);
    expect(late[0]!.message).toMatch(/fuera de plazo/);
    expect(await stockOf(t, p.code)).toEqual({ stock: 0, ledger: 0 });
    expect(await mails('order-paid', number)).toHaveLength(0);
  });

  it('the back office lists the payments awaited (deadline) and the late-payment queue; shoppers get 403', async () => {
    const staff = await createStaff(t);
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 3, 2);
    const awaiting = await placeDelayed(shopper, p.code, 1, 'cash');
    const res = await t.app.inject({ url: '/api/admin/payments/delayed', headers: { cookie: staff.cookie } });
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      awaiting: { number: number; methodLabel: string; deadline: string }[];
      late: { number: number; latePaymentAt: string; chargeId: string | null }[];
    };
    const row = body.awaiting.find((r) => r.number === awaiting)!;
    expect(row.methodLabel).toBe('Efectivo en tienda');
    expect(new Date(row.deadline).getTime()).toBe(
      new Date((await orderRow(awaiting)).payment_due_at!).getTime(),
    );
    const deadlines = body.awaiting.map((r) => r.deadline);
    expect(deadlines).toEqual([...deadlines].sort());
    const lateNumbers = (
      await t.db.execute<{ number: number }>(sql`select number from orders where late_payment_at is not null`)
    ).rows.map((r) => r.number);
    expect(lateNumbers.length).toBeGreaterThan(0);
    expect(body.late.map((r) => r.number).sort()).toEqual(lateNumbers.sort());
    expect(body.late.every((r) => r.chargeId)).toBe(true);
    const shopperRes = await t.app.inject({
      url: '/api/admin/payments/delayed',
      headers: { cookie: shopper.cookie },
    });
    expect(shopperRes.statusCode).toBe(403);
  });

  it('race ×50: the payment’s webhook and the sweeper’s expiry in parallel → exactly one outcome, ledger balanced', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 100, 11);
    const outcomes = { paid: 0, late: 0 };
    for (let i = 0; i < 50; i++) {
      const number = await placeDelayed(shopper, p.code, 1, i % 2 === 0 ? 'spei' : 'cash');
      const chargeId = await chargeOf(number);
      await passDeadline(number);
      const pay = async () => {
        await gateway().simulatePayment(chargeId, { late: true });
        const res = await webhook(succeeded(chargeId));
        expect(res.statusCode).toBe(200);
      };
      // Both start together; every third round the sweeper's expiry is already under way when the money lands.
      if (i % 3 === 2) {
        const sweeping = sweepOnce(ctx());
        await new Promise((r) => setImmediate(r));
        await Promise.all([sweeping, pay()]);
      } else {
        await Promise.all([pay(), sweepOnce(ctx())]);
      }
      // Whatever lost the race, a later delivery or round settles nothing more.
      await webhook(succeeded(chargeId));
      await sweepOnce(ctx());
      const row = await orderRow(number);
      const moves = await movements(number);
      if (row.status === 'paid') {
        outcomes.paid += 1;
        expect(row.late_payment_at).toBeNull();
        expect(moves).toEqual([{ reason: 'order_reserve', delta: -1 }]);
        expect(await mails('order-paid', number)).toHaveLength(1);
        expect(await mails('order-payment-expired', number)).toHaveLength(0);
      } else {
        outcomes.late += 1;
        expect(row.status).toBe('cancelled');
        expect(row.paid_at).toBeNull();
        expect(row.late_payment_at).not.toBeNull();
        expect(moves).toEqual([
          { reason: 'order_reserve', delta: -1 },
          { reason: 'order_release', delta: 1 },
        ]);
        expect(await mails('order-paid', number)).toHaveLength(0);
        expect(await mails('order-payment-expired', number)).toHaveLength(1);
        expect((await alerts(number)).filter((a) => a.kind === 'late_payment')).toHaveLength(1);
      }
    }
    const { stock, ledger } = await stockOf(t, p.code);
    expect(stock).toBe(ledger);
    expect(stock).toBe(100 - outcomes.paid);
    expect(outcomes.paid + outcomes.late).toBe(50);
    console.log(
      `carrera webhook/vencimiento ×50: pagados ${outcomes.paid}, pago fuera de plazo ${outcomes.late}`,
    );
  }, 240_000);
});

describe('meses sin intereses in the sandbox: its debit test cards are refused (decision 048)', () => {
  it('the token tells the card type, and 6 months on a debit card are refused before the order', async () => {
    const shopper = await createShopper(t);
    const token = await t.app.inject({
      method: 'POST',
      url: '/api/payments/sandbox/tokens',
      payload: {
        holder_name: 'María López',
        card_number: '4000000000000077',
        expiration_month: '12',
        expiration_year: String((new Date().getFullYear() + 3) % 100),
        cvv2: '123',
      },
    });
    expect(token.json().card.type).toBe('debit');
    const p = await productWithStock(t, 30, 5);
    const quantity = Math.ceil(shop.paymentMethods.msi.minCents / p.priceCents) + 1;
    const res = await placeOrderRequest(t, shopper, {
      items: [{ code: p.code, quantity }],
      cardToken: token.json().id,
      deviceSessionId: 'sandbox-msi',
      msiMonths: 6,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('msi_debit_card');
    expect(res.json().error.message).toMatch(/solo se pueden pagar con tarjeta de crédito/);
    expect(await stockOf(t, p.code)).toEqual({ stock: 30, ledger: 30 });
  });
});
