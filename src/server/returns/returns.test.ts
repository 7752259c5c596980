import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  productWithStock,
  type Shopper,
  stockOf,
} from '../../../tests/server/support/checkout.ts';
import { returnPhoto, returnsKit } from '../../../tests/server/support/returns.ts';
import { createStaff, outbox, paidOrder } from '../../../tests/server/support/staff.ts';
import { previousMexicoMonth } from '../../shared/mexico-time.ts';
import { balancesOf } from '../orders/ledger.ts';

/**
 * Issue 35, returns (RMA): a buyer asks to return lines of a delivered order within the window of the
 * Devoluciones page, with a reason and photos; staff authorize or refuse, receive, and in one action put the goods
 * back (sellable or quarantine) and refund through the order's ledger by the way the money came, with the credit
 * note when the order was invoiced. Each step mails the buyer.
 */
let t: CheckoutTestApp;
let staff: Shopper;
let kit: ReturnType<typeof returnsKit>;
beforeAll(async () => {
  t = await createCheckoutApp({
    env: { CHECKOUT_MAX_PENDING_ORDERS: '200', CHECKOUT_MAX_RESERVED_UNITS: '5000' },
  });
  staff = await createStaff(t);
  kit = returnsKit(t, staff, await returnPhoto());
});
afterAll(() => t.close());
const post: ReturnType<typeof returnsKit>['post'] = (...a) => kit.post(...a);
const get: ReturnType<typeof returnsKit>['get'] = (...a) => kit.get(...a);
const ask: ReturnType<typeof returnsKit>['ask'] = (...a) => kit.ask(...a);
const deliveredOrder: ReturnType<typeof returnsKit>['deliveredOrder'] = (...a) => kit.deliveredOrder(...a);
const paidSpeiOrder: ReturnType<typeof returnsKit>['paidSpeiOrder'] = (...a) => kit.paidSpeiOrder(...a);
const SHIP = { trackingGuide: 'EST-7788123', deliveryProvider: 'Estafeta', deliveryDate: '2099-01-15' };

describe('an RMA from request to refund, with its credit note and the stock back', () => {
  it('request → authorized → received → refunded: card refund in the ledger, credit note, stock back, a mail per step', async () => {
    const { shopper, product, number } = await deliveredOrder(0, 3, { invoice: true });
    const before = await stockOf(t, product.code);

    const options = await get(shopper, `/api/orders/${number}/returns`);
    expect(options.statusCode, options.body).toBe(200);
    expect(options.json()).toMatchObject({ closedBecause: null, windowDays: 10 });
    expect(options.json().lines[0]).toMatchObject({ lineNo: 1, quantity: 3, returnable: 3 });

    const asked = await ask(shopper, number, {});
    expect(asked.statusCode, asked.body).toBe(201);
    const rma = asked.json().return;
    expect(rma).toMatchObject({
      state: 'requested',
      reason: 'defective',
      valueCents: product.priceCents * 2,
    });
    expect(rma.photos).toHaveLength(1);
    const photo = await get(shopper, rma.photos[0].url);
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/png');
    // Another buyer cannot see it.
    const other = await createShopper(t);
    expect((await get(other, rma.photos[0].url)).statusCode).toBe(404);
    expect((await get(other, `/api/orders/${number}/returns`)).statusCode).toBe(404);

    const authorized = await post(staff, `/api/admin/returns/${rma.id}/authorize`, {
      instructions: 'Envíe la caja por Estafeta con la guía adjunta; anote el número de devolución.',
      labelUrl: 'https://guias.example.mx/abc.pdf',
    });
    expect(authorized.statusCode, authorized.body).toBe(200);
    expect(authorized.json().return.state).toBe('authorized');
    expect((await post(staff, `/api/admin/returns/${rma.id}/receive`, {})).statusCode).toBe(200);

    const refunded = await post(staff, `/api/admin/returns/${rma.id}/refund`, {
      lines: [{ lineNo: 1, disposition: 'sellable' }],
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json().return).toMatchObject({
      state: 'refunded',
      refund: { route: 'card', state: 'done', amountCents: product.priceCents * 2 },
    });
    expect(refunded.json().return.lines[0].disposition).toBe('sellable');

    // Stock back: two units sellable, each with its ledger row.
    const after = await stockOf(t, product.code);
    expect(after.stock).toBe(before.stock + 2);
    expect(after.ledger).toBe(after.stock);
    // The money: refunded by card through the order's ledger; the papers owe nothing (the credit note exists).
    const b = await balancesOf(t.db, number);
    expect(b.refundedByRoute.card).toBe(product.priceCents * 2);
    const [credit] = (
      await t.db.execute<{ total_cents: number; status: string }>(
        sql`select total_cents::int as total_cents, status from invoices where order_number = ${number} and kind = 'E'`,
      )
    ).rows;
    expect(credit).toMatchObject({ status: 'issued', total_cents: product.priceCents * 2 });
    expect(b.taxDueCents).toBe(0);

    for (const kind of ['return-requested', 'return-authorized', 'return-received', 'return-refunded']) {
      const mails = (await outbox(t, kind)).filter((m) => m.to === shopper.email);
      expect(mails, kind).toHaveLength(1);
    }
    const staffNotice = (await outbox(t, 'return-staff')).filter((m) =>
      m.subject.includes(`pedido #${number})`),
    );
    expect(staffNotice).toHaveLength(1);
    expect(staffNotice[0]!.text).toContain(`/admin/devoluciones/${rma.id}`);
    const [auth] = (await outbox(t, 'return-authorized')).filter((m) => m.to === shopper.email);
    expect(auth!.text).toContain('guias.example.mx/abc.pdf');
    const [done] = (await outbox(t, 'return-refunded')).filter((m) => m.to === shopper.email);
    expect(done!.text).toContain('a la tarjeta con la que pagó');

    // The buyer reads it on the order; what was returned cannot be asked again.
    const state = (await get(shopper, `/api/orders/${number}/returns`)).json();
    expect(state.returns[0]).toMatchObject({ state: 'refunded', stateLabel: 'Reembolsada' });
    expect(state.lines[0].returnable).toBe(1);
    const history = (await get(shopper, '/api/orders')).json().orders as {
      number: number;
      returns: unknown[];
    }[];
    expect(history.find((o) => o.number === number)!.returns).toEqual([
      { id: rma.id, state: 'refunded', stateLabel: 'Reembolsada' },
    ]);
    expect((await ask(shopper, number, {})).statusCode).toBe(409);
  });

  it('quarantine: the units are recorded in the stock ledger without becoming sellable', async () => {
    const { shopper, product, number } = await deliveredOrder(1, 2);
    const before = await stockOf(t, product.code);
    const rma = (await ask(shopper, number, { lines: [{ lineNo: 1, quantity: 1 }] })).json().return;
    await post(staff, `/api/admin/returns/${rma.id}/authorize`, {
      instructions: 'Envíela a nuestro almacén.',
    });
    await post(staff, `/api/admin/returns/${rma.id}/receive`, { note: 'Caja abollada' });
    const res = await post(staff, `/api/admin/returns/${rma.id}/refund`, {
      lines: [{ lineNo: 1, disposition: 'quarantine' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stockOf(t, product.code)).toEqual(before);
    const moves = (
      await t.db.execute<{ reason: string; note: string }>(
        sql`select reason, note from stock_movements where product_code = ${product.code} and order_number = ${number} and reason like 'return%'`,
      )
    ).rows;
    expect(moves).toEqual([
      { reason: 'return_quarantine', note: `Devolución #${rma.id}: 1 en cuarentena (no se vende)` },
    ]);
  });
});

describe('inspection says no', () => {
  it('closed without a refund: no money, no stock, the buyer told why', async () => {
    const { shopper, product, number } = await deliveredOrder(1, 2);
    const before = await stockOf(t, product.code);
    const paid = await balancesOf(t.db, number);
    const rma = (await ask(shopper, number, { lines: [{ lineNo: 1, quantity: 1 }] })).json().return;
    await post(staff, `/api/admin/returns/${rma.id}/authorize`, {
      instructions: 'Envíela a nuestro almacén.',
    });
    await post(staff, `/api/admin/returns/${rma.id}/receive`, {});
    const closed = await post(staff, `/api/admin/returns/${rma.id}/close`, {
      reason: 'El equipo llegó usado y sin su empaque original.',
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().return).toMatchObject({ state: 'closed', refund: null });
    expect(await stockOf(t, product.code)).toEqual(before);
    expect(await balancesOf(t.db, number)).toEqual(paid);
    const [mail] = (await outbox(t, 'return-closed')).filter((m) => m.to === shopper.email);
    expect(mail!.text).toContain('sin su empaque original');
    expect(
      (
        await post(staff, `/api/admin/returns/${rma.id}/refund`, {
          lines: [{ lineNo: 1, disposition: 'sellable' }],
        })
      ).statusCode,
    ).toBe(409);
  });
});

describe('money goes back the way it came', () => {
  it('a SPEI order: the refund is owed to the buyer’s CLABE (never “to the card”), in the ledger as due', async () => {
    const { shopper, product, number } = await deliveredOrder(10, 2, { spei: true });
    const rma = (await ask(shopper, number, { lines: [{ lineNo: 1, quantity: 1 }] })).json().return;
    await post(staff, `/api/admin/returns/${rma.id}/authorize`, {
      instructions: 'Envíela a nuestro almacén.',
    });
    await post(staff, `/api/admin/returns/${rma.id}/receive`, {});
    const res = await post(staff, `/api/admin/returns/${rma.id}/refund`, {
      lines: [{ lineNo: 1, disposition: 'sellable' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toContain('pendiente por transferencia a la CLABE');
    expect(res.json().return.refund).toMatchObject({
      route: 'payout',
      state: 'owed',
      amountCents: product.priceCents,
    });
    const b = await balancesOf(t.db, number);
    expect(b).toMatchObject({ refundDueCents: product.priceCents, refundedCents: 0 });
    const [mail] = (await outbox(t, 'return-refunded')).filter((m) => m.to === shopper.email);
    expect(mail!.text).toContain('por transferencia SPEI');
    expect(mail!.text).not.toContain('tarjeta');
  });
});

describe('a sale in the factura global', () => {
  it('a return of it gets its egreso to the público en general, related to the global, for what went back', async () => {
    const last = previousMexicoMonth(new Date());
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 2);
    await t.db.execute(sql`update products set cas_number = null, controlled = false where code = ${p.code}`);
    const number = await paidSpeiOrder(shopper, p.code, 3);
    await t.db.execute(
      sql`update orders set paid_at = make_timestamptz(${last.year}, ${last.month}, 10, 12, 0, 0, 'America/Mexico_City'),
          created_at = make_timestamptz(${last.year}, ${last.month}, 10, 11, 0, 0, 'America/Mexico_City') where number = ${number}`,
    );
    const global = await post(staff, '/api/admin/invoices/global', { ...last, confirmLate: true });
    expect(global.statusCode, global.body).toBe(201);
    for (const [step, body] of [
      ['prepare', {}],
      ['ship', SHIP],
      ['deliver', {}],
    ] as const)
      expect((await post(staff, `/api/admin/orders/${number}/${step}`, body)).statusCode).toBe(200);

    const rma = (await ask(shopper, number, { lines: [{ lineNo: 1, quantity: 1 }] })).json().return;
    await post(staff, `/api/admin/returns/${rma.id}/authorize`, {
      instructions: 'Envíela a nuestro almacén.',
    });
    await post(staff, `/api/admin/returns/${rma.id}/receive`, {});
    const res = await post(staff, `/api/admin/returns/${rma.id}/refund`, {
      lines: [{ lineNo: 1, disposition: 'sellable' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const [egreso] = (
      await t.db.execute<{ total_cents: number; related_uuid: string; status: string; xml: string }>(
        sql`select total_cents::int as total_cents, related_uuid, status, xml from invoices
            where order_number = ${number} and kind = 'E'`,
      )
    ).rows;
    expect(egreso).toMatchObject({
      status: 'issued',
      related_uuid: global.json().uuid,
      total_cents: p.priceCents,
    });
    expect(egreso!.xml).toContain('Rfc="XAXX010101000"');
    expect((await balancesOf(t.db, number)).taxDueCents).toBe(0);
  });
});

describe('the policy: window, exceptions, refusal', () => {
  it('the window counts 10 days from the delivery in Mexico City; the 11th day is refused and nothing is recorded', async () => {
    const { shopper, number } = await deliveredOrder(2, 2);
    const setDelivered = (daysAgo: number) =>
      t.db.execute(sql`update audit_log set created_at = now() - make_interval(days => ${daysAgo})
        where action = 'order.deliver' and entity_id = ${String(number)}`);
    await setDelivered(11);
    const late = await ask(shopper, number, {});
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toMatch(/plazo para solicitar una devolución terminó/);
    expect((await get(shopper, `/api/orders/${number}/returns`)).json().returns).toEqual([]);
    await setDelivered(10);
    expect((await ask(shopper, number, {})).statusCode).toBe(201);
  });

  it('an order not yet delivered cannot be returned', async () => {
    const shopper = await createShopper(t);
    const p = await productWithStock(t, 10, 3);
    const number = await paidOrder(t, shopper, [{ code: p.code, quantity: 1 }]);
    const res = await ask(shopper, number, { lines: [{ lineNo: 1, quantity: 1 }] });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('Las devoluciones se solicitan una vez entregado el pedido');
  });

  it('reagents and controlled chemicals: not for a change of mind, yes when defective, and never back to sale', async () => {
    const { shopper, product, number } = await deliveredOrder(4, 2);
    await t.db.execute(sql`update products set cas_number = '7664-93-9' where code = ${product.code}`);
    const mind = await ask(shopper, number, { reason: 'not_needed', unopened: true, photos: [] });
    expect(mind.statusCode).toBe(409);
    expect(mind.json().error.message).toMatch(/No se aceptan devoluciones de reactivos/);
    const rma = (await ask(shopper, number, {})).json().return;
    expect(rma.lines[0].mustQuarantine).toBe(true);
    await post(staff, `/api/admin/returns/${rma.id}/authorize`, { instructions: 'Envíela en su embalaje.' });
    await post(staff, `/api/admin/returns/${rma.id}/receive`, {});
    const sellable = await post(staff, `/api/admin/returns/${rma.id}/refund`, {
      lines: [{ lineNo: 1, disposition: 'sellable' }],
    });
    expect(sellable.statusCode).toBe(409);
    expect(sellable.json().error.message).toMatch(/no vuelve a la venta/);
    expect((await get(staff, `/api/admin/returns/${rma.id}`)).json()).toMatchObject({
      state: 'received',
      refund: null,
    });
  });

  it('“Ya no lo necesito” needs the goods unopened; “defective” needs a photo; photos are images by their content', async () => {
    const { shopper, number } = await deliveredOrder(5, 2);
    const opened = await ask(shopper, number, { reason: 'not_needed', photos: [] });
    expect(opened.statusCode).toBe(400);
    expect(opened.json().error.fields.unopened).toMatch(/sin abrir/);
    const noPhoto = await ask(shopper, number, { photos: [] });
    expect(noPhoto.statusCode).toBe(400);
    const fake = await ask(shopper, number, {
      photos: [
        { contentBase64: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64') },
      ],
    });
    expect(fake.statusCode).toBe(400);
    expect(fake.json().error.message).toBe('Foto 1: La imagen debe ser JPEG, PNG o WebP');
    const tooMany = await ask(shopper, number, { photos: Array(5).fill({ contentBase64: kit.png }) });
    expect(tooMany.statusCode).toBe(400);
    const tooMuch = await ask(shopper, number, { lines: [{ lineNo: 1, quantity: 3 }] });
    expect(tooMuch.statusCode).toBe(409);
    expect((await get(shopper, `/api/orders/${number}/returns`)).json().returns).toEqual([]);
    const ok = await ask(shopper, number, { reason: 'not_needed', unopened: true, photos: [] });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('staff refuse with a reason: the buyer is told why, and the units can be asked for again', async () => {
    const { shopper, number } = await deliveredOrder(6, 2);
    const rma = (await ask(shopper, number, {})).json().return;
    const noReason = await post(staff, `/api/admin/returns/${rma.id}/refuse`, { reason: '' });
    expect(noReason.statusCode).toBe(400);
    const refused = await post(staff, `/api/admin/returns/${rma.id}/refuse`, {
      reason: 'Las fotos muestran daño por mal uso, no de transporte.',
    });
    expect(refused.statusCode).toBe(200);
    expect(refused.json().return).toMatchObject({
      state: 'refused',
      staffNote: expect.stringContaining('mal uso'),
    });
    const [mail] = (await outbox(t, 'return-refused')).filter((m) => m.to === shopper.email);
    expect(mail!.text).toContain('mal uso');
    // A refused return cannot be received or refunded.
    expect((await post(staff, `/api/admin/returns/${rma.id}/receive`, {})).statusCode).toBe(409);
    expect((await get(shopper, `/api/orders/${number}/returns`)).json().lines[0].returnable).toBe(2);
    // A shopper cannot act as staff.
    expect(
      (await post(shopper, `/api/admin/returns/${rma.id}/authorize`, { instructions: 'xxxxxxxxxxxx' }))
        .statusCode,
    ).toBe(403);
  });
});
