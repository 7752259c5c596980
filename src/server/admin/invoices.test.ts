import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrder, createTestShopper } from '../../../tests/server/support/invoice-orders.ts';
import {
  auditRows,
  type CheckoutTestApp,
  createCheckoutApp,
  createStaff,
  outbox,
  type Shopper,
} from '../../../tests/server/support/staff.ts';

let t: CheckoutTestApp;
let staff: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp();
  staff = await createStaff(t);
});
afterAll(() => t.close());

const form = {
  nombreFiscal: 'Laboratorios Químicos del Bajío',
  rfc: 'LQB150101AB3',
  regimenFiscal: '601',
  usoCfdi: 'G03',
  formaPago: '04',
  cp: '44100',
};

describe('invoices in the back office', () => {
  it('lists an issued invoice, downloads it, cancels it through the invoices service and audits it; the order stays cancellable', async () => {
    const shopper = await createTestShopper(t.db, 'Ana');
    const number = await createTestOrder(t.db, shopper.id);
    const issued = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/invoice`,
      payload: form,
      cookies: shopper.cookie,
    });
    expect(issued.statusCode).toBe(201);

    const staffGet = (url: string) => t.app.inject({ url, headers: { cookie: staff.cookie } });
    const list = (await staffGet('/api/admin/invoices?q=LQB150101')).json();
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      orderNumber: number,
      status: 'issued',
      statusLabel: 'Vigente',
      rfc: 'LQB150101AB3',
    });
    const orders = (await staffGet(`/api/admin/orders?q=LQB150101AB3`)).json();
    expect(orders.items.map((o: { number: number }) => o.number)).toEqual([number]);

    const xml = await staffGet(`/api/admin/invoices/${number}/invoice.xml`);
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain('cfdi:Comprobante');
    const pdf = await staffGet(`/api/admin/invoices/${number}/invoice.pdf`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    // A valid invoice no longer blocks the order's cancellation (issue 33: the CFDI follows the refund).
    const open = (await staffGet(`/api/admin/orders/${number}`)).json();
    expect(open.actions).toMatchObject({ cancel: true, cancelBlockedReason: null });

    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/admin/invoices/${number}/cancel`,
      headers: { cookie: staff.cookie },
      payload: {},
    });
    expect(cancel.statusCode).toBe(200);
    const [row] = (
      await t.db.execute<{ status: string }>(sql`select status from invoices where order_number = ${number}`)
    ).rows;
    expect(row!.status).toBe('cancelled');
    // The owner, not the staff member, gets the cancellation mail.
    expect((await outbox(t, 'invoice-cancelled')).map((m) => m.to)).toEqual([shopper.email]);
    expect((await auditRows(t, 'invoice', String(number))).map((a) => a.action)).toEqual(['invoice.cancel']);
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/admin/invoices/${number}/cancel`,
      headers: { cookie: staff.cookie },
      payload: {},
    });
    // A repeated cancellation answers the state reached as success (issue 16), and is not audited twice.
    expect(again.statusCode).toBe(200);
    expect((await auditRows(t, 'invoice', String(number))).length).toBe(1);
    expect((await outbox(t, 'invoice-cancelled')).length).toBe(1);
  });
});
