import { createVerify, X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCfdiPagoXml } from '../../../tests/server/support/cfdi-xsd.ts';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  productWithStock,
  type Shopper,
  stockOf,
} from '../../../tests/server/support/checkout.ts';
import {
  createInstitution,
  joinAndBuyFor,
  orderRow,
  placeOnCredit,
  shipAndInvoiceOnCredit,
} from '../../../tests/server/support/credit.ts';
import { pdfText } from '../../../tests/server/support/pdf-text.ts';
import { createStaff } from '../../../tests/server/support/staff.ts';
import { creditPayments, invoices, mailOutbox, orderLedger } from '../db/schema.ts';
import { createInvoicingContext } from '../invoices/context.ts';
import { readAttribute } from '../invoices/pac/tfd.ts';
import { type ComprobantePago, cadenaOriginalPago } from '../invoices/pagos.ts';
import { JOBS } from '../jobs.ts';
import { balancesOf } from '../orders/ledger.ts';

let t: CheckoutTestApp;
let staff: Shopper;

beforeAll(async () => {
  t = await createCheckoutApp();
  staff = await createStaff(t);
});
afterAll(async () => {
  await t.close();
});

/** A buyer of a new institution with this credit line, and a product with stock. */
async function setUp(limitCents: number | null, index: number, options: { days?: number } = {}) {
  const institution = await createInstitution(t, {
    limitCents,
    days: limitCents === null ? null : (options.days ?? 30),
  });
  const buyer = await createShopper(t);
  await joinAndBuyFor(t, buyer, institution.id);
  const product = await productWithStock(t, 20, index);
  return { institution, buyer, product };
}

/** The order's total as checkout computes it (server prices + shipping), asked of the quote endpoint. */
async function totalOf(buyer: Shopper, items: { code: string; quantity: number }[]) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/cart/quote',
    headers: { cookie: buyer.cookie },
    payload: { items },
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { totalCents: number }).totalCents;
}

const shipAndInvoice = (number: number) => shipAndInvoiceOnCredit(t, staff, number);

function recordPayment(body: object) {
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/credit/payments',
    headers: { cookie: staff.cookie },
    payload: body,
  });
}

describe('the credit line at checkout', () => {
  it('refuses an order one centavo over the available credit, saying by how much; at the limit it is confirmed without payment, stock taken', async () => {
    const { institution, buyer, product } = await setUp(null, 0);
    const items = [{ code: product.code, quantity: 2 }];
    const total = await totalOf(buyer, items);
    await t.db.execute(
      `update institutions set credit_limit_cents = ${total - 1}, credit_days = 30 where id = ${institution.id}`,
    );
    const offer = await t.app.inject({
      method: 'GET',
      url: `/api/credit/offer?totalCents=${total}`,
      headers: { cookie: buyer.cookie },
    });
    expect(offer.json()).toMatchObject({ offered: false });
    expect(offer.json().reason).toContain('excede por $0.01');

    const refused = await placeOnCredit(t, buyer, items);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain('excede por $0.01');
    expect((await stockOf(t, product.code)).stock).toBe(20);

    await t.db.execute(`update institutions set credit_limit_cents = ${total} where id = ${institution.id}`);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/credit/offer?totalCents=${total}`,
          headers: { cookie: buyer.cookie },
        })
      ).json(),
    ).toMatchObject({ offered: true, label: 'A crédito (30 días)', availableCents: total });
    const placed = await placeOnCredit(t, buyer, items);
    expect(placed.statusCode, placed.body).toBe(201);
    const { number } = placed.json() as { number: number };
    expect(await orderRow(t, number)).toEqual({
      status: 'on_credit',
      payment_method: 'credit',
      institution_id: institution.id,
    });
    expect((await stockOf(t, product.code)).stock).toBe(18);
    const b = await balancesOf(t.db, number);
    expect(b).toMatchObject({ paidCents: 0, creditSaleCents: total, receivableCents: total, taxDueCents: 0 });
    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, buyer.email));
    expect(mails.map((m) => m.text).join('\n')).toContain(`Confirmamos su pedido #${number} a crédito`);

    // The line is used up: the next order, whatever its size, is refused by its whole total.
    const again = await placeOnCredit(t, buyer, [{ code: product.code, quantity: 1 }]);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toContain('crédito disponible de la institución ($0.00)');
  });

  it('is not offered to a member whose role may not buy on credit, nor to a person buying for themself', async () => {
    const { institution, product } = await setUp(1_000_000, 1);
    const requester = await createShopper(t);
    await joinAndBuyFor(t, requester, institution.id, 'solicitante');
    const res = await placeOnCredit(t, requester, [{ code: product.code, quantity: 1 }]);
    // Refused before anything is read: a solicitante sends the cart for approval (decision 058).
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toContain('(Solicitante) no permite colocar pedidos');
    const alone = await createShopper(t);
    const mine = await placeOnCredit(t, alone, [{ code: product.code, quantity: 1 }]);
    expect(mine.statusCode).toBe(409);
    expect(mine.json().error.message).toContain('Elija en el encabezado la institución');
  });
});

describe('staff and the line', () => {
  it('grant, change and withdraw a credit line (limit and days together), and refuse a payment dated on no real day', async () => {
    const { institution, buyer } = await setUp(null, 7);
    const put = (payload: object) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/credit/institutions/${institution.id}/line`,
        headers: { cookie: staff.cookie },
        payload,
      });
    const half = await put({ limitCents: 100_000, days: null });
    expect(half.statusCode).toBe(400);
    expect(half.json().error.message).toContain('Indique el límite y el plazo juntos');
    const granted = await put({ limitCents: 2_500_000, days: 60 });
    expect(granted.statusCode).toBe(200);
    expect(granted.json().message).toBe(
      `Línea de crédito de ${institution.razonSocial}: $25,000.00 a 60 días`,
    );
    const offer = await t.app.inject({
      method: 'GET',
      url: '/api/credit/offer?totalCents=100000',
      headers: { cookie: buyer.cookie },
    });
    expect(offer.json()).toMatchObject({
      offered: true,
      label: 'A crédito (60 días)',
      availableCents: 2_500_000,
    });
    expect((await put({ limitCents: null, days: null })).statusCode).toBe(200);
    const none = await t.app.inject({
      method: 'GET',
      url: '/api/credit/offer?totalCents=100000',
      headers: { cookie: buyer.cookie },
    });
    expect(none.json()).toMatchObject({ offered: false });
    expect(none.json().reason).toContain('no tiene línea de crédito');

    const badDay = await recordPayment({
      institutionId: institution.id,
      receivedOn: '2026-02-30',
      amountCents: 100,
      bankReference: 'SPEI FEBRERO 30',
      allocations: [{ invoiceId: 1, amountCents: 100 }],
    });
    expect(badDay.statusCode).toBe(400);
    expect(badDay.body).toContain('La fecha del pago no es una fecha válida');
  });
});

describe('cancelling an order on credit', () => {
  it('is refused with a clear message and changes nothing (the debt is adjusted by collections, decision 060)', async () => {
    const { buyer, product } = await setUp(1_000_000, 6);
    const { number } = (await placeOnCredit(t, buyer, [{ code: product.code, quantity: 1 }])).json() as {
      number: number;
    };
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${number}/cancel`,
      headers: { cookie: staff.cookie },
      payload: { reason: 'El cliente ya no lo necesita' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toContain('Un pedido a crédito no se cancela desde aquí todavía');
    expect((await orderRow(t, number)).status).toBe('on_credit');
    expect((await stockOf(t, product.code)).stock).toBe(19);
  });
});

describe('the invoice PPD, the hold and the CFDI de pago', () => {
  it('invoices at shipment PPD / FormaPago 99 with the institution as receptor; an overdue invoice puts the account on hold', async () => {
    const { institution, buyer, product } = await setUp(5_000_000, 2);
    const placed = await placeOnCredit(t, buyer, [{ code: product.code, quantity: 1 }]);
    const { number } = placed.json() as { number: number };
    // Not invoiced while it waits to ship (config: at shipment).
    await t.app.jobs.runOnce(JOBS.creditInvoices);
    expect(await t.db.select().from(invoices).where(eq(invoices.orderNumber, number))).toHaveLength(0);
    const invoice = await shipAndInvoice(number);
    expect(invoice.metodoPago).toBe('PPD');
    expect(invoice.formaPago).toBe('99');
    expect(invoice.rfc).toBe(institution.rfc);
    expect(readAttribute(invoice.xml!, 'cfdi:Comprobante', 'MetodoPago')).toBe('PPD');
    expect(readAttribute(invoice.xml!, 'cfdi:Comprobante', 'FormaPago')).toBe('99');
    expect(readAttribute(invoice.xml!, 'cfdi:Comprobante', 'CondicionesDePago')).toBe('Crédito a 30 días');
    expect(Math.round((invoice.dueAt!.getTime() - invoice.issuedAt!.getTime()) / 86_400_000)).toBe(30);
    const b = await balancesOf(t.db, number);
    expect(b).toMatchObject({
      invoicedCents: invoice.totalCents,
      receivableCents: invoice.totalCents,
      taxDueCents: 0,
    });

    // Past its due date with a balance: new credit orders are refused, the reason says why.
    await t.db
      .update(invoices)
      .set({ dueAt: new Date(Date.now() - 86_400_000) })
      .where(eq(invoices.id, invoice.id));
    const held = await placeOnCredit(t, buyer, [{ code: product.code, quantity: 1 }]);
    expect(held.statusCode).toBe(409);
    expect(held.json().error.message).toContain(
      'La cuenta de crédito está suspendida: tiene una factura vencida',
    );
    const statement = await t.app.inject({
      method: 'GET',
      url: '/api/credit/statement',
      headers: { cookie: buyer.cookie },
    });
    expect(statement.json()).toMatchObject({ onHold: true });
    const heldPdf = await t.app.inject({
      method: 'GET',
      url: '/api/credit/statement.pdf',
      headers: { cookie: buyer.cookie },
    });
    expect(pdfText(heldPdf.rawPayload)).toContain('La cuenta de crédito está suspendida');
    if (process.env.CREDIT_PDF_DIR)
      writeFileSync(`${process.env.CREDIT_PDF_DIR}/estado-de-cuenta-vencido.pdf`, heldPdf.rawPayload);

    // Paid: the hold lifts at once.
    const paid = await recordPayment({
      institutionId: institution.id,
      receivedOn: new Date().toISOString().slice(0, 10),
      amountCents: invoice.totalCents,
      bankReference: `SPEI-HOLD-${number}`,
      allocations: [{ invoiceId: invoice.id, amountCents: invoice.totalCents }],
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const after = await placeOnCredit(t, buyer, [{ code: product.code, quantity: 1 }]);
    expect(after.statusCode, after.body).toBe(201);
  });

  it('one payment for two invoices and two partial payments of one: valid Pagos 2.0, sealed, saldo insoluto 0.00 exactly, and every peso has its paper', async () => {
    const { institution, buyer, product } = await setUp(50_000_000, 3);
    const numbers: number[] = [];
    for (const quantity of [1, 3]) {
      const res = await placeOnCredit(t, buyer, [{ code: product.code, quantity }]);
      expect(res.statusCode, res.body).toBe(201);
      numbers.push((res.json() as { number: number }).number);
    }
    const [a, b] = [await shipAndInvoice(numbers[0]!), await shipAndInvoice(numbers[1]!)];
    const day = new Date().toISOString().slice(0, 10);

    // One transfer pays A in full and B in part (parcialidad 1); a second one pays the rest of B (parcialidad 2).
    const firstPart = Math.floor(b.totalCents / 3);
    const one = await recordPayment({
      institutionId: institution.id,
      receivedOn: day,
      amountCents: a.totalCents + firstPart,
      bankReference: 'SPEI 0026112000000001',
      allocations: [
        { invoiceId: a.id, amountCents: a.totalCents },
        { invoiceId: b.id, amountCents: firstPart },
      ],
    });
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json().cfdi).toBe('issued');
    const rest = b.totalCents - firstPart;
    // More than what is left is refused, saying by how much.
    const over = await recordPayment({
      institutionId: institution.id,
      receivedOn: day,
      amountCents: rest + 1,
      bankReference: 'SPEI 0026112000000099',
      allocations: [{ invoiceId: b.id, amountCents: rest + 1 }],
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().error.message).toContain('lo excede por $0.01');
    const two = await recordPayment({
      institutionId: institution.id,
      receivedOn: day,
      amountCents: rest,
      bankReference: 'SPEI 0026112000000002',
      allocations: [{ invoiceId: b.id, amountCents: rest }],
    });
    expect(two.statusCode, two.body).toBe(201);
    // The same bank reference twice is one payment.
    const dup = await recordPayment({
      institutionId: institution.id,
      receivedOn: day,
      amountCents: 100,
      bankReference: 'SPEI 0026112000000002',
      allocations: [{ invoiceId: b.id, amountCents: 100 }],
    });
    expect(dup.statusCode).toBe(409);

    const payments = await t.db
      .select()
      .from(creditPayments)
      .where(eq(creditPayments.institutionId, institution.id))
      .orderBy(creditPayments.id);
    expect(payments.map((p) => p.cfdiStatus)).toEqual(['issued', 'issued']);
    for (const p of payments) {
      expect(await validateCfdiPagoXml(p.xml!)).toEqual({ valid: true, errors: [] });
      const comprobante = (p.sealed as { comprobante: ComprobantePago }).comprobante;
      const cadena = cadenaOriginalPago(comprobante);
      const cert = new X509Certificate(
        Buffer.from(readAttribute(p.xml!, 'cfdi:Comprobante', 'Certificado')!, 'base64'),
      );
      expect(
        createVerify('RSA-SHA256')
          .update(Buffer.from(cadena, 'utf8'))
          .verify(cert.publicKey, readAttribute(p.xml!, 'cfdi:Comprobante', 'Sello')!, 'base64'),
      ).toBe(true);
    }
    const [x1, x2] = [payments[0]!.xml!, payments[1]!.xml!];
    expect(x1).toContain(`IdDocumento="${a.uuid}"`);
    expect(x1).toContain(
      `NumParcialidad="1" ImpSaldoAnt="${(a.totalCents / 100).toFixed(2)}" ImpPagado="${(a.totalCents / 100).toFixed(2)}" ImpSaldoInsoluto="0.00"`,
    );
    expect(x1).toContain(`IdDocumento="${b.uuid}"`);
    expect(x2).toContain(
      `NumParcialidad="2" ImpSaldoAnt="${(rest / 100).toFixed(2)}" ImpPagado="${(rest / 100).toFixed(2)}" ImpSaldoInsoluto="0.00"`,
    );
    expect(readAttribute(x1, 'cfdi:Receptor', 'UsoCFDI')).toBe('CP01');
    expect(readAttribute(x1, 'pago20:Pago ', 'NumOperacion')).toBe('SPEI 0026112000000001');
    // The parcialidades' IVA adds up to invoice B's, to the centavo.
    const ivaOf = (xml: string, uuid: string) => {
      const at = xml.indexOf(`IdDocumento="${uuid}"`);
      const traslado = xml.slice(at, xml.indexOf('</pago20:DoctoRelacionado>', at));
      return Math.round(Number(readAttribute(traslado, 'pago20:TrasladoDR', 'ImporteDR')) * 100);
    };
    expect(ivaOf(x1, b.uuid!) + ivaOf(x2, b.uuid!)).toBe(b.ivaCents);

    for (const number of numbers) {
      const balances = await balancesOf(t.db, number);
      expect(balances).toMatchObject({ receivableCents: 0, paymentPapersDueCents: 0, taxDueCents: 0 });
    }
    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'payment-cfdi-issued'));
    expect(mails.filter((m) => m.to === institution.billingEmail)).toHaveLength(2);

    // The institution downloads its CFDI de pago; another institution's buyer cannot.
    const xml = await t.app.inject({
      method: 'GET',
      url: `/api/credit/payments/${payments[0]!.id}/cfdi.xml`,
      headers: { cookie: buyer.cookie },
    });
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toBe(x1);
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/credit/payments/${payments[0]!.id}/cfdi.pdf`,
      headers: { cookie: buyer.cookie },
    });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const printed = pdfText(pdf.rawPayload);
    expect(printed).toContain('CFDI DE PAGO');
    expect(printed).toContain('SPEI 0026112000000001');
    expect(printed).toContain(b.uuid!);
    // To look at them: CREDIT_PDF_DIR=/tmp/x npx vitest run src/server/credit/credit.test.ts, then pdftoppm.
    if (process.env.CREDIT_PDF_DIR)
      writeFileSync(`${process.env.CREDIT_PDF_DIR}/cfdi-pago.pdf`, pdf.rawPayload);
    const other = await setUp(1_000_000, 4);
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/credit/payments/${payments[0]!.id}/cfdi.xml`,
      headers: { cookie: other.buyer.cookie },
    });
    expect(foreign.statusCode).toBe(404);

    const statement = (
      await t.app.inject({ method: 'GET', url: '/api/credit/statement', headers: { cookie: buyer.cookie } })
    ).json();
    expect(statement).toMatchObject({ balanceCents: 0, openInvoices: [], onHold: false });
    expect(statement.payments).toHaveLength(2);
    const statementPdf = await t.app.inject({
      method: 'GET',
      url: `/api/admin/credit/institutions/${institution.id}/statement.pdf`,
      headers: { cookie: staff.cookie },
    });
    expect(statementPdf.headers['content-type']).toBe('application/pdf');
    expect(pdfText(statementPdf.rawPayload)).toContain('ESTADO DE CUENTA');
    if (process.env.CREDIT_PDF_DIR)
      writeFileSync(`${process.env.CREDIT_PDF_DIR}/estado-de-cuenta-pagado.pdf`, statementPdf.rawPayload);
  });

  it('a crash between stamping and recording the CFDI de pago issues it once', async () => {
    const { institution, buyer, product } = await setUp(5_000_000, 5);
    const { number } = (await placeOnCredit(t, buyer, [{ code: product.code, quantity: 2 }])).json() as {
      number: number;
    };
    const invoice = await shipAndInvoice(number);
    let clock = Date.now();
    const base = createInvoicingContext(t.app.config, t.db, { now: () => new Date(clock) });
    const uuids: string[] = [];
    // The PAC stamps, then the process dies before anything is recorded (the answer never reaches us).
    const dying = {
      ...base,
      pac: {
        ...base.pac,
        name: base.pac.name,
        stamp: async (xml: string) => {
          uuids.push((await base.pac.stamp(xml)).uuid);
          throw new Error('el proceso murió tras el timbrado');
        },
      },
    };
    const { recordPayment: record } = await import('./payments.ts');
    const { issuePaymentCfdi } = await import('./payment-cfdi.ts');
    const { paymentId } = await record(
      base,
      { userId: staff.id, label: 'personal' },
      {
        institutionId: institution.id,
        receivedOn: new Date().toISOString().slice(0, 10),
        amountCents: invoice.totalCents,
        bankReference: 'SPEI CRASH 0001',
        allocations: [{ invoiceId: invoice.id, amountCents: invoice.totalCents }],
      },
    );
    expect(await issuePaymentCfdi(dying, paymentId)).toBe('failed');
    expect(uuids).toHaveLength(1);
    // Nothing recorded: no CFDI on the payment, no paper in the ledger — the money still asks for one.
    expect((await balancesOf(t.db, number)).paymentPapersDueCents).toBe(invoice.totalCents);
    // The job's next round sends the same sealed document again: the PAC answers the same stamp.
    clock += 10 * 60_000;
    expect(await issuePaymentCfdi(base, paymentId)).toBe('issued');
    expect(await issuePaymentCfdi(base, paymentId)).toBe('already');
    const [row] = await t.db.select().from(creditPayments).where(eq(creditPayments.id, paymentId));
    expect(row!.uuid).toBe(uuids[0]);
    const papers = await t.db
      .select()
      .from(orderLedger)
      .where(and(eq(orderLedger.orderNumber, number), eq(orderLedger.kind, 'payment_cfdi')));
    expect(papers).toHaveLength(1);
    expect((await balancesOf(t.db, number)).paymentPapersDueCents).toBe(0);
  });
});
