import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  productWithStock,
  type Shopper,
} from '../../../tests/server/support/checkout.ts';
import {
  addMember,
  createInstitution,
  setLimits,
} from '../../../tests/server/support/institution-members.ts';
import type {
  DecisionResponse,
  RequisitionDetail,
  RequisitionList,
} from '../../shared/schemas/requisitions.ts';
import { institutions, mailOutbox, orders, quotations, requisitionEvents } from '../db/schema.ts';
import { GatewayUnavailableError } from '../payments/gateway.ts';

// Runs on in-memory PGlite, and on PostgreSQL with TEST_DATABASE_URL (real concurrent transactions).
let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp({ env: { CHECKOUT_MAX_PENDING_ORDERS: '50' } });
});
afterAll(() => t.close());

const post = (who: Shopper, url: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, headers: { cookie: who.cookie }, payload });
const get = (who: Shopper, url: string) => t.app.inject({ url, headers: { cookie: who.cookie } });

/** An institution with a solicitante, an aprobador, a comprador and an administrador, each buying for it. */
async function world(options: { placesOnApproval?: boolean } = {}) {
  const institutionId = await createInstitution(t, {
    approvalPlacesOrder: options.placesOnApproval ?? false,
  });
  const solicitante = await createShopper(t);
  const aprobador = await createShopper(t);
  const comprador = await createShopper(t);
  const admin = await createShopper(t);
  await addMember(t, institutionId, solicitante, 'solicitante');
  await addMember(t, institutionId, aprobador, 'aprobador');
  await addMember(t, institutionId, comprador, 'comprador');
  await addMember(t, institutionId, admin, 'administrador');
  return { institutionId, solicitante, aprobador, comprador, admin };
}

async function send(who: Shopper, items: { code: string; quantity: number }[], extra: object = {}) {
  const res = await post(who, '/api/requisitions', { items, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<RequisitionDetail>();
}

const mailsTo = (email: string) =>
  t.db
    .select({ kind: mailOutbox.kind, subject: mailOutbox.subject, text: mailOutbox.text })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, email), like(mailOutbox.kind, 'requisition-%')));

describe('requisiciones', () => {
  it('solicitante → aprobador → comprador: the quoted prices become the institution’s order, with mails and a trail', async () => {
    const w = await world();
    const small = await createShopper(t);
    await addMember(t, w.institutionId, small, 'aprobador', { approvalLimitCents: 100 });
    const a = await productWithStock(t, 50, 0);
    const b = await productWithStock(t, 50, 1);
    // The browser sends codes and quantities only; a price it adds is not read.
    const r = await send(
      w.solicitante,
      [
        { code: a.code, quantity: 2 },
        { code: b.code, quantity: 1 },
      ],
      { note: 'Para la práctica 3 de Química Analítica', costCentre: 'CC-4410', project: 'CONAHCYT 2026-17' },
    );
    expect(r).toMatchObject({
      state: 'pendiente',
      stateLabel: 'Pendiente de aprobación',
      lineCount: 2,
      costCentre: 'CC-4410',
      project: 'CONAHCYT 2026-17',
      note: 'Para la práctica 3 de Química Analítica',
      institution: { costCentreLabel: 'Centro de costos', projectLabel: 'Proyecto CONAHCYT' },
    });
    expect(r.lines.map((l) => [l.code, l.unitPriceCents, l.quantity])).toEqual([
      [a.code, a.priceCents, 2],
      [b.code, b.priceCents, 1],
    ]);
    expect(r.totalCents).toBe(a.priceCents * 2 + b.priceCents + r.shippingCents);
    expect(r.quotationFolio).toMatch(/^COT-\d{4}-\d{6}$/);
    // The solicitante cannot approve, and sees no approve button.
    expect(r.actions).toMatchObject({ approve: false, place: false, cancel: true });
    expect((await post(w.solicitante, `/api/requisitions/${r.id}/approve`)).statusCode).toBe(403);

    // Mailed to the approvers whose limit covers it, never to the requester or to one below it.
    expect((await mailsTo(w.aprobador.email)).map((m) => m.subject)).toEqual([
      `Requisición ${r.folio} por aprobar`,
    ]);
    expect(await mailsTo(w.admin.email)).toHaveLength(1);
    expect(await mailsTo(small.email)).toHaveLength(0);
    expect(await mailsTo(w.solicitante.email)).toHaveLength(0);
    expect((await mailsTo(w.aprobador.email))[0]!.text).toContain('CC-4410');

    // A comprador cannot approve; the aprobador can.
    expect((await post(w.comprador, `/api/requisitions/${r.id}/approve`)).statusCode).toBe(403);
    const approved = await post(w.aprobador, `/api/requisitions/${r.id}/approve`, { reason: 'Adelante' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<DecisionResponse>()).toMatchObject({
      requisition: { state: 'aprobada' },
      placed: null,
    });
    expect((await mailsTo(w.solicitante.email)).map((m) => m.subject)).toEqual([
      `Requisición ${r.folio} aprobada`,
    ]);
    // Approving again: one outcome only.
    expect((await post(w.admin, `/api/requisitions/${r.id}/approve`)).statusCode).toBe(409);
    // The aprobador may not place it.
    expect((await post(w.aprobador, `/api/requisitions/${r.id}/place`)).statusCode).toBe(403);

    const placed = await post(w.comprador, `/api/requisitions/${r.id}/place`, {
      purchaseOrder: 'OC-2026-88',
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const { requisition, placed: order } = placed.json<DecisionResponse>();
    expect(requisition).toMatchObject({ state: 'colocada', orderNumber: order!.orderNumber });
    const [o] = await t.db.select().from(orders).where(eq(orders.number, order!.orderNumber));
    const [q] = await t.db.select().from(quotations).where(eq(quotations.folio, r.quotationFolio));
    expect(o).toMatchObject({
      userId: w.comprador.id,
      institutionId: w.institutionId,
      quotationId: q!.id,
      totalCents: r.totalCents,
      shippingCents: r.shippingCents,
      status: 'pending_payment',
      paymentMethod: 'spei',
      purchaseOrder: 'OC-2026-88',
    });
    expect((await mailsTo(w.solicitante.email)).map((m) => m.subject)).toContain(
      `Requisición ${r.folio}: pedido #${order!.orderNumber} colocado`,
    );
    // Placed once: a second placement is refused and no second order exists.
    const again = await post(w.comprador, `/api/requisitions/${r.id}/place`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toContain(`#${order!.orderNumber}`);
    // The trail the administrador reads: who, what, when, why.
    const detail = (await get(w.admin, `/api/requisitions/${r.id}`)).json<RequisitionDetail>();
    expect(detail.trail.map((e) => [e.event, e.actor, e.reason])).toEqual([
      ['send', 'María López Ruiz', 'Para la práctica 3 de Química Analítica'],
      ['approve', 'María López Ruiz', 'Adelante'],
      ['place', 'María López Ruiz', null],
    ]);
    expect(detail.trail[2]!.orderNumber).toBe(order!.orderNumber);
    // The administrador's trail of the whole institution; nobody else's role reads it.
    expect((await get(w.admin, '/api/requisitions')).json<RequisitionList>().canReadTrail).toBe(true);
    const trail = (await get(w.admin, '/api/requisitions/trail')).json<{
      events: { folio: string; event: string }[];
    }>();
    expect(trail.events.filter((e) => e.folio === r.folio).map((e) => e.event)).toEqual([
      'place',
      'approve',
      'send',
    ]);
    for (const who of [w.solicitante, w.aprobador, w.comprador])
      expect((await get(who, '/api/requisitions/trail')).statusCode).toBe(403);
  });

  it('refuses an empty cart, a session that buys for no institution, and a reason left blank', async () => {
    const w = await world();
    const loner = await createShopper(t);
    const a = await productWithStock(t, 50, 2);
    const empty = await post(w.solicitante, '/api/requisitions', { items: [] });
    expect(empty.statusCode).toBe(409);
    expect(empty.json().error.message).toContain('El carrito está vacío');
    const none = await post(loner, '/api/requisitions', { items: [{ code: a.code, quantity: 1 }] });
    expect(none.statusCode).toBe(403);
    expect(none.json().error.message).toContain('Elija en el encabezado la institución');
    const r = await send(w.solicitante, [{ code: a.code, quantity: 1 }]);
    const blank = await post(w.aprobador, `/api/requisitions/${r.id}/reject`, { reason: '  ' });
    expect(blank.statusCode).toBe(400);
    expect((await get(w.aprobador, `/api/requisitions/${r.id}`)).json().state).toBe('pendiente');
    const rejected = await post(w.aprobador, `/api/requisitions/${r.id}/reject`, {
      reason: 'Ya hay existencia en el almacén de la facultad',
    });
    expect(rejected.json<DecisionResponse>().requisition).toMatchObject({
      state: 'rechazada',
      reason: 'Ya hay existencia en el almacén de la facultad',
    });
    expect((await mailsTo(w.solicitante.email))[0]!.text).toContain('Ya hay existencia en el almacén');
    expect((await post(w.comprador, `/api/requisitions/${r.id}/place`)).statusCode).toBe(409);
  });

  it('returned for changes: the requester corrects the fields and resends; the approvers are mailed again', async () => {
    const w = await world();
    const a = await productWithStock(t, 50, 3);
    const r = await send(w.solicitante, [{ code: a.code, quantity: 1 }], { costCentre: 'CC-1' });
    const back = await post(w.aprobador, `/api/requisitions/${r.id}/return`, {
      reason: 'El centro de costos es el CC-2 de Posgrado',
    });
    expect(back.json<DecisionResponse>().requisition.state).toBe('devuelta');
    // Only the requester resends it.
    expect((await post(w.admin, `/api/requisitions/${r.id}/resend`, {})).statusCode).toBe(403);
    const resent = await post(w.solicitante, `/api/requisitions/${r.id}/resend`, { costCentre: 'CC-2' });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json<RequisitionDetail>()).toMatchObject({
      state: 'pendiente',
      costCentre: 'CC-2',
      reason: null,
    });
    expect((await mailsTo(w.aprobador.email)).map((m) => m.subject)).toEqual([
      `Requisición ${r.folio} por aprobar`,
      `Requisición ${r.folio} por aprobar`,
    ]);
  });

  it('approval limits: the requester never approves their own; a limit one centavo short cannot approve', async () => {
    const w = await world();
    const a = await productWithStock(t, 50, 4);
    const own = await createShopper(t);
    await addMember(t, w.institutionId, own, 'aprobador');
    const mine = await send(own, [{ code: a.code, quantity: 1 }]);
    const self = await post(own, `/api/requisitions/${mine.id}/approve`);
    expect(self.statusCode).toBe(403);
    expect(self.json().error.message).toBe('No puede aprobar su propia requisición');

    const r = await send(w.solicitante, [{ code: a.code, quantity: 2 }]);
    const limited = await createShopper(t);
    await addMember(t, w.institutionId, limited, 'aprobador', { approvalLimitCents: r.totalCents - 1 });
    const short = await post(limited, `/api/requisitions/${r.id}/approve`);
    expect(short.statusCode).toBe(403);
    expect(short.json().error.message).toContain('Su límite de aprobación');
    expect((await get(limited, `/api/requisitions/${r.id}`)).json().actions.approve).toBe(false);
    await setLimits(t, w.institutionId, limited, { approvalLimitCents: r.totalCents });
    expect((await post(limited, `/api/requisitions/${r.id}/approve`)).statusCode).toBe(200);
  });

  it('spending limits per order and per month of the requester, to the centavo', async () => {
    const w = await world();
    const a = await productWithStock(t, 50, 5);
    const total = (await send(w.solicitante, [{ code: a.code, quantity: 1 }])).totalCents;
    await setLimits(t, w.institutionId, w.solicitante, { orderLimitCents: total - 1 });
    const over = await post(w.solicitante, '/api/requisitions', { items: [{ code: a.code, quantity: 1 }] });
    expect(over.statusCode).toBe(409);
    expect(over.json().error.code).toBe('order_limit');
    await setLimits(t, w.institutionId, w.solicitante, { orderLimitCents: total });
    const first = await send(w.solicitante, [{ code: a.code, quantity: 1 }]);
    const second = await send(w.solicitante, [{ code: a.code, quantity: 1 }]);
    for (const r of [first, second]) await post(w.aprobador, `/api/requisitions/${r.id}/approve`);
    // Room for one more order this month and one centavo less than two.
    await setLimits(t, w.institutionId, w.solicitante, { monthlyLimitCents: total * 2 - 1 });
    const ok = await post(w.comprador, `/api/requisitions/${first.id}/place`);
    expect(ok.statusCode, ok.body).toBe(200);
    const before = (await get(w.comprador, `/api/requisitions/${second.id}`)).json<RequisitionDetail>();
    expect(before.placeNote).toContain('límite mensual');
    const refused = await post(w.comprador, `/api/requisitions/${second.id}/place`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('monthly_limit');
    expect((await get(w.comprador, `/api/requisitions/${second.id}`)).json().state).toBe('aprobada');
    await setLimits(t, w.institutionId, w.solicitante, { monthlyLimitCents: total * 2 });
    expect((await post(w.comprador, `/api/requisitions/${second.id}/place`)).statusCode).toBe(200);
  });

  it('nobody sees another institution’s requisitions, and a solicitante sees only their own', async () => {
    const w = await world();
    const other = await world();
    const a = await productWithStock(t, 50, 6);
    const r = await send(w.solicitante, [{ code: a.code, quantity: 1 }]);
    const colleague = await createShopper(t);
    await addMember(t, w.institutionId, colleague, 'solicitante');
    const theirs = await send(colleague, [{ code: a.code, quantity: 1 }]);
    // To an outsider the requisition does not exist: every answer is the one a number nobody has gets.
    for (const outsider of [other.admin, other.aprobador, other.comprador, other.solicitante]) {
      expect((await get(outsider, '/api/requisitions')).json<RequisitionList>().requisitions).toEqual([]);
      for (const action of ['', '/approve', '/place', '/cancel', '/resend']) {
        const ask = (id: number) =>
          action
            ? post(outsider, `/api/requisitions/${id}${action}`)
            : get(outsider, `/api/requisitions/${id}`);
        const [real, nobodys] = [await ask(r.id), await ask(2_000_000_000)];
        expect([real.statusCode, real.json()], action).toEqual([nobodys.statusCode, nobodys.json()]);
        expect([403, 404]).toContain(real.statusCode);
      }
    }
    const theirTrail = (await get(other.admin, '/api/requisitions/trail')).json<{ events: unknown[] }>();
    expect(theirTrail.events).toEqual([]);
    const own = (await get(w.solicitante, '/api/requisitions')).json<RequisitionList>();
    expect(own.requisitions.map((x) => x.id)).toEqual([r.id]);
    expect((await get(w.solicitante, `/api/requisitions/${theirs.id}`)).statusCode).toBe(404);
    const all = (await get(w.aprobador, '/api/requisitions')).json<RequisitionList>();
    expect(all.requisitions.map((x) => x.id).sort()).toEqual([r.id, theirs.id].sort());
    expect((await get(w.solicitante, `/api/requisitions/${r.id}`)).json().state).toBe('pendiente');
  });

  it('two approvers at once, or an approval and a cancellation: one outcome', async () => {
    const w = await world();
    const second = await createShopper(t);
    await addMember(t, w.institutionId, second, 'aprobador');
    const a = await productWithStock(t, 50, 7);
    const r = await send(w.solicitante, [{ code: a.code, quantity: 1 }]);
    const both = await Promise.all([
      post(w.aprobador, `/api/requisitions/${r.id}/approve`),
      post(second, `/api/requisitions/${r.id}/approve`),
      post(w.admin, `/api/requisitions/${r.id}/reject`, { reason: 'Duplicada' }),
    ]);
    expect(both.map((x) => x.statusCode).sort()).toEqual([200, 409, 409]);
    const events = await t.db
      .select()
      .from(requisitionEvents)
      .where(eq(requisitionEvents.requisitionId, r.id));
    expect(events.map((e) => e.event).filter((e) => e !== 'send')).toHaveLength(1);

    // Approve and cancel at once: applied one after the other, never over each other (the trail is one chain).
    const r2 = await send(w.solicitante, [{ code: a.code, quantity: 1 }]);
    await Promise.all([
      post(w.aprobador, `/api/requisitions/${r2.id}/approve`),
      post(w.solicitante, `/api/requisitions/${r2.id}/cancel`),
    ]);
    const chain = await t.db
      .select()
      .from(requisitionEvents)
      .where(eq(requisitionEvents.requisitionId, r2.id))
      .orderBy(requisitionEvents.id);
    for (const [i, e] of chain.slice(1).entries()) expect(e.fromState).toBe(chain[i]!.toState);
    expect((await get(w.admin, `/api/requisitions/${r2.id}`)).json().state).toBe(chain.at(-1)!.toState);

    // Place and cancel at once on an approved one: an order and 'colocada', or no order and 'cancelada'.
    const r4 = await send(w.solicitante, [{ code: a.code, quantity: 1 }]);
    await post(w.aprobador, `/api/requisitions/${r4.id}/approve`);
    const placeOrCancel = await Promise.all([
      post(w.comprador, `/api/requisitions/${r4.id}/place`),
      post(w.solicitante, `/api/requisitions/${r4.id}/cancel`),
    ]);
    expect(placeOrCancel.map((x) => x.statusCode).sort()).toEqual([200, 409]);
    const after = (await get(w.admin, `/api/requisitions/${r4.id}`)).json<RequisitionDetail>();
    const [q4] = await t.db.select().from(quotations).where(eq(quotations.folio, r4.quotationFolio));
    const made = await t.db.select().from(orders).where(eq(orders.quotationId, q4!.id));
    expect(made).toHaveLength(after.state === 'colocada' ? 1 : 0);
    expect(['colocada', 'cancelada']).toContain(after.state);

    // Two comprador clicks at once on an approved one: one order.
    const r3 = await send(w.solicitante, [{ code: a.code, quantity: 1 }]);
    await post(w.aprobador, `/api/requisitions/${r3.id}/approve`);
    const places = await Promise.all([
      post(w.comprador, `/api/requisitions/${r3.id}/place`),
      post(w.admin, `/api/requisitions/${r3.id}/place`),
    ]);
    expect(places.map((x) => x.statusCode).sort()).toEqual([200, 409]);
    const [q] = await t.db.select().from(quotations).where(eq(quotations.folio, r3.quotationFolio));
    expect(await t.db.select().from(orders).where(eq(orders.quotationId, q!.id))).toHaveLength(1);
  });

  it('the institution’s rule places the order at the approval, and the trail says the shop did', async () => {
    const w = await world({ placesOnApproval: true });
    const a = await productWithStock(t, 50, 8);
    const r = await send(w.solicitante, [{ code: a.code, quantity: 3 }]);
    const res = await post(w.aprobador, `/api/requisitions/${r.id}/approve`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<DecisionResponse>();
    expect(body.placed?.orderNumber).toBeGreaterThan(0);
    expect(body.requisition.state).toBe('colocada');
    expect(body.requisition.trail.at(-1)).toMatchObject({
      event: 'place',
      actor: 'La tienda (regla de la institución)',
    });
    const [o] = await t.db.select().from(orders).where(eq(orders.number, body.placed!.orderNumber));
    expect(o).toMatchObject({
      institutionId: w.institutionId,
      totalCents: r.totalCents,
      userId: w.aprobador.id,
    });
    // Without the rule the same approval leaves it for a comprador.
    await t.db
      .update(institutions)
      .set({ approvalPlacesOrder: false })
      .where(eq(institutions.id, w.institutionId));
    const r2 = await send(w.solicitante, [{ code: a.code, quantity: 1 }]);
    const plain = (await post(w.aprobador, `/api/requisitions/${r2.id}/approve`)).json<DecisionResponse>();
    expect(plain).toMatchObject({ placed: null, requisition: { state: 'aprobada' } });
  });

  it('no SPEI reference could be made: the order is released and the requisition is approved again', async () => {
    const w = await world();
    const a = await productWithStock(t, 50, 9);
    const r = await send(w.solicitante, [{ code: a.code, quantity: 2 }]);
    await post(w.aprobador, `/api/requisitions/${r.id}/approve`);
    const gateway = t.app.paymentGateway;
    const original = gateway.createDelayedCharge.bind(gateway);
    gateway.createDelayedCharge = async () => {
      throw new GatewayUnavailableError('Openpay no responde');
    };
    try {
      const res = await post(w.comprador, `/api/requisitions/${r.id}/place`);
      expect(res.statusCode).toBe(503);
      expect(res.json().error.message).toContain('No pudimos generar la referencia de pago');
    } finally {
      gateway.createDelayedCharge = original;
    }
    const after = (await get(w.comprador, `/api/requisitions/${r.id}`)).json<RequisitionDetail>();
    expect(after).toMatchObject({ state: 'aprobada', orderNumber: null });
    expect(after.trail.map((e) => e.event)).toEqual(['send', 'approve', 'place', 'reopen']);
    // The stock came back, and the comprador places it once the gateway answers.
    const again = await post(w.comprador, `/api/requisitions/${r.id}/place`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<DecisionResponse>().requisition.state).toBe('colocada');
  });
});
