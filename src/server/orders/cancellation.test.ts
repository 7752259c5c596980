import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertInvoiceRow } from '../../../tests/server/support/invoice-orders.ts';
import {
  auditRows,
  type CheckoutTestApp,
  createCheckoutApp,
  createStaff,
  outbox,
  paidOrderOfNew,
  type Shopper,
  stockOf,
} from '../../../tests/server/support/staff.ts';
import { sweepOnce } from '../checkout/sweeper.ts';
import type { Db } from '../db/client.ts';
import { useLeaseDurations } from '../db/lease.ts';
import { orders, payments } from '../db/schema.ts';
import { JOBS } from '../jobs.ts';
import { GatewayUnavailableError } from '../payments/gateway.ts';
import { SandboxGateway } from '../payments/sandbox.ts';

/**
 * A sandbox gateway whose next refund goes through at the bank and then never comes back: the process that
 * asked for it "dies" there, between the refund and the transaction that would finish the cancellation.
 */
class DiesAfterRefund extends SandboxGateway {
  private armed: { refunded: () => void; dead: Promise<void> } | null = null;
  /** The bank does not answer at all (refunds and charge look-ups time out). */
  down = false;

  override async getCharge(chargeId: string) {
    if (this.down) throw new GatewayUnavailableError('sin respuesta');
    return super.getCharge(chargeId);
  }

  arm(): { refunded: Promise<void>; release: () => void } {
    let refunded!: () => void;
    let release!: () => void;
    const happened = new Promise<void>((r) => {
      refunded = r;
    });
    const dead = new Promise<void>((r) => {
      release = r;
    });
    this.armed = { refunded, dead };
    return { refunded: happened, release };
  }

  override async refund(chargeId: string, options: { description: string; amountCents?: number }) {
    if (this.down) throw new GatewayUnavailableError('sin respuesta');
    const charge = await super.refund(chargeId, options);
    const armed = this.armed;
    if (!armed) return charge;
    this.armed = null;
    armed.refunded();
    await armed.dead;
    throw new Error('el proceso terminó después del reembolso');
  }
}

let t: CheckoutTestApp;
let gateway: DiesAfterRefund;
let staff: Shopper;
let restoreLeases: () => void;
beforeAll(async () => {
  // A 1 s lease renewed every 200 ms: a dead holder's claim runs out in a second, not ten.
  restoreLeases = useLeaseDurations({ seconds: 1, heartbeatMs: 200 });
  t = await createCheckoutApp({
    gateway: (db: Db) => {
      gateway = new DiesAfterRefund(db);
      return gateway;
    },
  });
  staff = await createStaff(t);
});
afterAll(async () => {
  await t.close();
  restoreLeases();
});

const post = (who: Shopper, url: string, payload: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { cookie: who.cookie }, payload });
const ctx = () => ({ db: t.db, gateway, publicUrl: 'http://tienda.test', log: t.app.log });

const orderRow = async (number: number) =>
  (await t.db.select().from(orders).where(eq(orders.number, number)))[0]!;
const chargeStatus = async (number: number) =>
  (
    await t.db.execute<{ status: string }>(
      sql`select status from sandbox_charges where order_id like ${`${number}-%`}`,
    )
  ).rows[0]!.status;

describe('cancelling an order whose invoice is being stamped: the shopper and staff are refused by the same rule', () => {
  // A valid invoice no longer stops a cancellation (issue 33: the CFDI is cancelled with motivo 03 once the money is
  // back, src/server/invoices/money-papers.test.ts); one being stamped right now still does, as the order's lock makes
  // issuing and cancelling exclusive.
  it('an invoice pending: both answer 409, nothing refunded, nothing changed', async () => {
    const { shopper, product, number } = await paidOrderOfNew(t, 1);
    await insertInvoiceRow(t.db, { orderNumber: number, userId: shopper.id, status: 'pending' });

    const byShopper = await post(shopper, `/api/orders/${number}/cancel`);
    expect(byShopper.statusCode).toBe(409);
    expect(byShopper.json().error).toEqual({
      code: 'invoiced',
      message: 'La factura del pedido se está generando; intente cancelar en un momento',
    });
    const byStaff = await post(staff, `/api/admin/orders/${number}/cancel`, {
      reason: 'El cliente lo pidió',
    });
    expect(byStaff.statusCode).toBe(409);
    expect(byStaff.json().error).toEqual({
      code: 'not_cancellable',
      message: 'La factura del pedido se está generando; intente cancelar en un momento',
    });

    expect(await orderRow(number)).toMatchObject({
      status: 'paid',
      cancelledAt: null,
      cancelRequest: null,
    });
    expect(await chargeStatus(number)).toBe('completed');
    expect(await stockOf(t, product.code)).toEqual({ stock: 8, ledger: 8 });
    expect((await outbox(t, 'order-cancelled')).filter((m) => m.to === shopper.email)).toEqual([]);
  });
});

describe('a cancellation interrupted between the refund and the commit is finished by the sweeper', () => {
  /** Starts a cancellation that dies after the refund; answers once the refund happened at the bank. */
  async function dieAfterRefund(who: Shopper, url: string, payload: Record<string, unknown> = {}) {
    const crash = gateway.arm();
    const request = post(who, url, payload);
    await crash.refunded;
    return async () => {
      crash.release();
      return request;
    };
  }

  /**
   * The sweeper's round once the claim's lease ran out (a dead process renews nothing; this one is only stuck, so
   * its heartbeat may renew the lease between our write and the round: then the next round takes it).
   */
  async function sweepLater(number: number) {
    for (let round = 0; round < 5 && (await orderRow(number)).status !== 'cancelled'; round++) {
      await t.db
        .update(orders)
        .set({ cancelLeaseUntil: sql`now() - interval '1 second'` })
        .where(eq(orders.number, number));
      await sweepOnce(ctx());
    }
  }

  it('staff: the staff member’s reason, the audit row in their name, stock back once, one mail', async () => {
    const { shopper, product, number } = await paidOrderOfNew(t, 2, 3);
    expect((await post(staff, `/api/admin/orders/${number}/prepare`)).statusCode).toBe(200);
    const reason = 'El cliente pidió otro modelo por teléfono';
    const end = await dieAfterRefund(staff, `/api/admin/orders/${number}/cancel`, { reason });

    // The request is gone after the refund: the order is still claimed, the money already back.
    expect(await orderRow(number)).toMatchObject({ status: 'preparing', cancelReason: null });
    expect(await chargeStatus(number)).toBe('refunded');

    await sweepLater(number);
    const order = await orderRow(number);
    expect(order).toMatchObject({ status: 'cancelled', cancelReason: reason });
    const [payment] = await t.db.select().from(payments).where(eq(payments.orderNumber, number));
    expect(payment).toMatchObject({ status: 'refunded', refundedCents: order.totalCents });
    expect(await stockOf(t, product.code)).toEqual({ stock: 10, ledger: 10 });
    expect((await outbox(t, 'order-cancelled')).filter((m) => m.to === shopper.email)).toHaveLength(1);
    const audit = await auditRows(t, 'order', String(number));
    expect(audit.map((a) => a.action)).toEqual(['order.prepare', 'order.cancel']);
    expect(audit[1]).toMatchObject({
      actor_user_id: staff.id,
      actor_label: staff.email,
      before: { status: 'preparing' },
      after: { status: 'cancelled', reason, refundedCents: order.totalCents, finishedBy: 'sweeper' },
    });

    // The stuck request, when it comes back, confirms the refund with the gateway and finishes nothing twice.
    expect((await end()).statusCode).toBe(200);
    await sweepOnce(ctx());
    expect(await stockOf(t, product.code)).toEqual({ stock: 10, ledger: 10 });
    expect(await auditRows(t, 'order', String(number))).toHaveLength(2);
    expect(await orderRow(number)).toMatchObject({ status: 'cancelled', cancelReason: reason });
  });

  it('shopper: “Cancelado por el cliente”, no staff audit row', async () => {
    const { shopper, product, number } = await paidOrderOfNew(t, 3, 2);
    const end = await dieAfterRefund(shopper, `/api/orders/${number}/cancel`);
    await sweepLater(number);
    expect(await orderRow(number)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'Cancelado por el cliente',
    });
    expect(await stockOf(t, product.code)).toEqual({ stock: 10, ledger: 10 });
    expect(await auditRows(t, 'order', String(number))).toEqual([]);
    expect((await end()).statusCode).toBe(200);
    expect(await stockOf(t, product.code)).toEqual({ stock: 10, ledger: 10 });
  });
});

describe('a process killed mid-cancellation (issue 22): "Cancelación en proceso" at once, no invoice, cancelled in seconds', () => {
  const form = {
    nombreFiscal: 'Laboratorios Químicos del Bajío',
    rfc: 'LQB150101AB3',
    regimenFiscal: '601',
    usoCfdi: 'G03',
    formaPago: '04',
    cp: '44100',
  };

  it.each([
    ['after the refund', true],
    ['before the refund', false],
  ])(
    'killed %s',
    async (_when, refunded) => {
      const { shopper, product, number } = await paidOrderOfNew(t, refunded ? 6 : 7, 2);
      const [charge] = (
        await t.db.execute<{ id: string }>(
          sql`select c.id from sandbox_charges c join payments p on p.order_ref = c.order_id where p.order_number = ${number}`,
        )
      ).rows;
      if (refunded) await gateway.refund(charge!.id, { description: 'x' });
      // What the killed process left: the claim committed with its lease, then nothing (no heartbeat, no finish).
      await t.db
        .update(orders)
        .set({
          cancelledAt: sql`now()`,
          cancelRequest: { by: 'shopper', reason: 'Cancelado por el cliente', actor: null },
          cancelLeaseUntil: sql`now() + interval '1 hour'`,
        })
        .where(eq(orders.number, number));

      const get = (url: string) => t.app.inject({ url, headers: { cookie: shopper.cookie } });
      const detail = (await get(`/api/orders/${number}`)).json();
      expect(detail).toMatchObject({
        status: 'paid',
        statusLabel: 'Cancelación en proceso',
        canCancel: false,
        canInvoice: false,
      });
      const listed = (await get('/api/orders'))
        .json()
        .orders.find((o: { number: number }) => o.number === number);
      expect(listed).toMatchObject({
        statusLabel: 'Cancelación en proceso',
        canCancel: false,
        canInvoice: false,
      });
      const invoice = await post(shopper, `/api/orders/${number}/invoice`, form);
      expect(invoice.statusCode).toBe(409);
      expect(invoice.json().error).toEqual({
        code: 'invoice_not_allowed',
        message: 'Cancelación en proceso: el pedido no se puede facturar',
      });
      const again = await post(shopper, `/api/orders/${number}/cancel`);
      expect(again.statusCode).toBe(409);
      expect(again.json().error.message).toBe('La cancelación del pedido ya está en proceso');

      // The app's cancellations job leaves a claim alone while its lease lasts…
      expect(await t.app.jobs.runOnce(JOBS.cancellations)).toBe('done');
      expect(await orderRow(number)).toMatchObject({ status: 'paid', cancelReason: null });
      // …and finishes it in its first round once the lease has run out (nobody renewed it).
      await t.db.update(orders).set({ cancelLeaseUntil: sql`now()` }).where(eq(orders.number, number));
      expect(await t.app.jobs.runOnce(JOBS.cancellations)).toBe('done');
      const order = await orderRow(number);
      expect(order).toMatchObject({
        status: 'cancelled',
        cancelReason: 'Cancelado por el cliente',
        cancelLeaseUntil: null,
      });
      expect(await chargeStatus(number)).toBe('refunded');
      const [payment] = await t.db.select().from(payments).where(eq(payments.orderNumber, number));
      expect(payment).toMatchObject({ status: 'refunded', refundedCents: order.totalCents });
      expect(await stockOf(t, product.code)).toEqual({ stock: 10, ledger: 10 });
      expect((await get(`/api/orders/${number}`)).json()).toMatchObject({
        statusLabel: 'Cancelado',
        canInvoice: false,
      });
      expect((await post(shopper, `/api/orders/${number}/invoice`, form)).statusCode).toBe(409);
      const issued = await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from invoices where order_number = ${number}`,
      );
      expect(issued.rows[0]!.n).toBe(0);
    },
    40_000,
  );
});

describe('the bank does not answer the refund', () => {
  it('the claim stays ("Cancelación en proceso"), and the sweeper refunds and finishes once the bank is back', async () => {
    const { shopper, product, number } = await paidOrderOfNew(t, 8, 2);
    gateway.down = true;
    const res = await post(shopper, `/api/orders/${number}/cancel`);
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toEqual({
      code: 'refund_pending',
      message:
        'El banco no respondió a tiempo. Su cancelación sigue en proceso y la terminaremos en unos momentos.',
    });
    // Whether the refund happened is unknown: the claim is not released (the order is not invoiceable meanwhile).
    expect(await orderRow(number)).toMatchObject({ status: 'paid', cancelReason: null });
    expect((await orderRow(number)).cancelledAt).not.toBeNull();
    const shown = await t.app.inject({ url: `/api/orders/${number}`, headers: { cookie: shopper.cookie } });
    expect(shown.json()).toMatchObject({ statusLabel: 'Cancelación en proceso', canInvoice: false });
    gateway.down = false;
    // The cancellations job, round after round, finishes it once the dead request's lease (1 s here) runs out.
    const started = Date.now();
    let order = await orderRow(number);
    while (order.status !== 'cancelled' && Date.now() - started < 25_000) {
      await t.app.jobs.runOnce(JOBS.cancellations);
      order = await orderRow(number);
      if (order.status !== 'cancelled') await new Promise((r) => setTimeout(r, 100));
    }
    expect(order).toMatchObject({ status: 'cancelled', cancelReason: 'Cancelado por el cliente' });
    expect(await chargeStatus(number)).toBe('refunded');
    expect(await stockOf(t, product.code)).toEqual({ stock: 10, ledger: 10 });
  }, 40_000);
});
