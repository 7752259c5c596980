import { eq } from 'drizzle-orm';
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
import { creditPayments, mailOutbox, paymentAlerts } from '../db/schema.ts';
import { createInvoicingContext } from '../invoices/context.ts';
import { PacError } from '../invoices/pac/types.ts';
import { followUpPaymentCfdis, paymentCfdiDeadline, sendReminders } from './collections.ts';
import { issuePaymentCfdi } from './payment-cfdi.ts';
import { recordPayment } from './payments.ts';

let t: CheckoutTestApp;
let staff: Shopper;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createCheckoutApp();
  staff = await createStaff(t);
});
afterAll(async () => {
  await t.close();
});

async function invoicedOrder(index: number) {
  const institution = await createInstitution(t, { limitCents: 10_000_000 });
  const buyer = await createShopper(t);
  await joinAndBuyFor(t, buyer, institution.id);
  const product = await productWithStock(t, 10, index);
  const { number } = (await placeOnCredit(t, buyer, [{ code: product.code, quantity: 1 }])).json() as {
    number: number;
  };
  const invoice = await shipAndInvoiceOnCredit(t, staff, number);
  return { institution, buyer, number, invoice };
}

const remindersTo = async (email: string) =>
  (await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email))).filter((m) =>
    m.kind.startsWith('credit-reminder'),
  );

describe('collections', () => {
  it('reminds before and after the due date, once each, in Spanish — and never once the invoice is paid', async () => {
    const { institution, invoice } = await invoicedOrder(0);
    const due = invoice.dueAt!.getTime();
    const at = (ms: number) => createInvoicingContext(t.app.config, t.db, { now: () => new Date(ms) });
    expect(await sendReminders(at(due - 10 * DAY))).toBe(0);
    await sendReminders(at(due - 4 * DAY));
    await sendReminders(at(due - 3 * DAY));
    let mails = await remindersTo(institution.billingEmail);
    expect(mails.map((m) => m.kind)).toEqual(['credit-reminder-before']);
    expect(mails[0]!.subject).toMatch(/^Recordatorio: la factura F\d+ vence el /);
    await sendReminders(at(due + 4 * DAY));
    mails = await remindersTo(institution.billingEmail);
    expect(mails.map((m) => m.kind)).toEqual(['credit-reminder-before', 'credit-reminder-after']);
    expect(mails[1]!.text).toContain('no puede hacer nuevos pedidos a crédito');

    // Another invoice, paid before its reminders: none goes.
    const paid = await invoicedOrder(1);
    const ctx = createInvoicingContext(t.app.config, t.db);
    const { paymentId } = await recordPayment(
      ctx,
      { userId: staff.id, label: 'personal' },
      {
        institutionId: paid.institution.id,
        receivedOn: new Date().toISOString().slice(0, 10),
        amountCents: paid.invoice.totalCents,
        bankReference: 'SPEI PAGADA 1',
        allocations: [{ invoiceId: paid.invoice.id, amountCents: paid.invoice.totalCents }],
      },
    );
    expect(await issuePaymentCfdi(ctx, paymentId)).toBe('issued');
    await sendReminders(at(paid.invoice.dueAt!.getTime() - 2 * DAY));
    await sendReminders(at(paid.invoice.dueAt!.getTime() + 5 * DAY));
    expect(await remindersTo(paid.institution.billingEmail)).toHaveLength(0);
  });

  it('a CFDI de pago the PAC will not stamp is retried, and alerted once the 5th of the next month comes', async () => {
    const { institution, number, invoice } = await invoicedOrder(2);
    const receivedOn = '2026-10-30';
    const refusing = {
      ...createInvoicingContext(t.app.config, t.db, { now: () => new Date('2026-11-02T18:00:00Z') }),
    };
    refusing.pac = {
      ...refusing.pac,
      stamp: async () => {
        throw new PacError('El PAC no responde', 'timeout', true);
      },
    };
    const { paymentId } = await recordPayment(
      refusing,
      { userId: staff.id, label: 'personal' },
      {
        institutionId: institution.id,
        receivedOn,
        amountCents: invoice.totalCents,
        bankReference: 'SPEI OCTUBRE 1',
        allocations: [{ invoiceId: invoice.id, amountCents: invoice.totalCents }],
      },
    );
    expect(await issuePaymentCfdi(refusing, paymentId)).toBe('failed');
    expect(paymentCfdiDeadline(receivedOn)).toBe('2026-11-05');
    expect((await followUpPaymentCfdis(refusing)).late).toBe(0);
    const late = { ...refusing, now: () => new Date('2026-11-05T18:00:00Z') };
    expect((await followUpPaymentCfdis(late)).late).toBe(1);
    const alerts = await t.db.select().from(paymentAlerts).where(eq(paymentAlerts.orderNumber, number));
    expect(alerts.map((a) => a.message).join('\n')).toContain('vence el 2026-11-05');
    // The PAC back: the next round issues it.
    const working = createInvoicingContext(t.app.config, t.db, {
      now: () => new Date('2026-11-05T19:00:00Z'),
    });
    expect((await followUpPaymentCfdis(working)).issued).toBe(1);
    const [row] = await t.db.select().from(creditPayments).where(eq(creditPayments.id, paymentId));
    expect(row!.cfdiStatus).toBe('issued');
  });

  it('the staff receivables view totals the aging and exports a CSV an accountant can open', async () => {
    const { institution, invoice } = await invoicedOrder(3);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/credit/receivables',
      headers: { cookie: staff.cookie },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const row = body.rows.find((r: { institutionId: number }) => r.institutionId === institution.id);
    expect(row).toMatchObject({ balanceCents: invoice.totalCents, aging: { d0_30: invoice.totalCents } });
    expect(body.totals.d0_30).toBeGreaterThanOrEqual(invoice.totalCents);
    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/admin/credit/receivables.csv',
      headers: { cookie: staff.cookie },
    });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toContain('Institución,RFC,Factura,UUID,Pedido');
    expect(csv.body).toContain(`${institution.razonSocial},${institution.rfc},F`);
    const shopper = await createShopper(t);
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/admin/credit/receivables',
      headers: { cookie: shopper.cookie },
    });
    expect(refused.statusCode).toBe(403);
  });
});
