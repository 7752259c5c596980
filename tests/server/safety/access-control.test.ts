import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxToken } from '../support/checkout.ts';
import {
  changedTables,
  createWorld,
  databaseFingerprint,
  leakedMarkers,
  type Person,
  type Shopper,
  type World,
} from '../support/world.ts';

/**
 * The access-control matrix: two shoppers (Aurelio and Bernarda, each with a paid and invoiced order,
 * an address, a profile and a saved cart) and a staff member. Every route that reads or changes an
 * order, payment, invoice, address, profile or cart is tried by the other shopper and by a visitor:
 * the answer is 401/403/404 or the caller's own data, never a marker of the victim, and nothing of
 * the victim's changes. Each row is also tried by its owner (or by staff for the back office) to prove
 * the same request does return the victim's data to the right person — so the test can fail.
 */

let world: World;
beforeAll(async () => {
  world = await createWorld();
}, 240_000);
afterAll(async () => {
  await world?.t.close();
});

const inject = (who: Person | null, options: InjectOptions) =>
  world.t.app.inject({
    ...options,
    headers: { ...(options.headers as Record<string, string>), ...(who ? { cookie: who.cookie } : {}) },
  });

const INVOICE = { rfc: 'IAT150101AB3', regimenFiscal: '601', usoCfdi: 'G03', formaPago: '04', cp: '44100' };
const ADDRESS = {
  nombreEnvio: 'Intruso Atacante Pérez',
  telefonoEnvio: '3399999999',
  cpEnvio: '44100',
  calleEnvio: 'Calle del Intruso',
  numExtEnvio: '1',
  numIntEnvio: '',
  coloniaEnvio: 'Colonia Ajena',
  municipioEnvio: 'Zapopan',
  ciudadEnvio: 'Zapopan',
  estadoEnvio: 'Jalisco',
};

/** Routes whose URL names the victim's order (or its charge): the other shopper gets 401/404. */
const byOrder = (v: Shopper): [string, InjectOptions][] => [
  ['detalle del pedido', { url: `/api/orders/${v.order}` }],
  ['cancelar pedido', { method: 'POST', url: `/api/orders/${v.order}/cancel` }],
  ['estado de la factura', { url: `/api/orders/${v.order}/invoice` }],
  [
    'solicitar factura',
    {
      method: 'POST',
      url: `/api/orders/${v.order}/invoice`,
      payload: { ...INVOICE, nombreFiscal: 'LABORATORIOS INTRUSOS DEL NORTE' },
    },
  ],
  ['cancelar factura', { method: 'POST', url: `/api/orders/${v.order}/invoice/cancel` }],
  ['XML de la factura', { url: `/api/orders/${v.order}/invoice.xml` }],
  ['PDF de la factura', { url: `/api/orders/${v.order}/invoice.pdf` }],
  ['página 3-D Secure del cargo', { url: `/api/payments/sandbox/3ds/${v.chargeId}` }],
  ['3-D Secure: rechazar', { method: 'POST', url: `/api/payments/sandbox/3ds/${v.chargeId}/reject` }],
];

/** Routes bound to the session: the victim's id smuggled in the query or body must not matter. */
const bySession = (v: Shopper): [string, InjectOptions][] => [
  ['historial', { url: `/api/orders?userId=${v.id}&user_id=${v.id}` }],
  ['perfil', { url: `/api/account/profile?userId=${v.id}&id=${v.id}` }],
  [
    'modificar perfil',
    {
      method: 'PUT',
      url: '/api/account/profile',
      payload: {
        id: v.id,
        userId: v.id,
        email: v.email,
        nombre: 'Intruso',
        apellidoPat: 'Atacante',
        apellidoMat: 'Ajeno',
        telefono: '3399999999',
        password: 'Matraz#2024x',
      },
    },
  ],
  ['domicilio', { url: `/api/account/shipping-address?userId=${v.id}` }],
  [
    'guardar domicilio',
    {
      method: 'PUT',
      url: '/api/account/shipping-address',
      payload: { ...ADDRESS, userId: v.id, user_id: v.id },
    },
  ],
  ['direcciones', { url: `/api/account/addresses?userId=${v.id}` }],
  [
    'agregar dirección',
    { method: 'POST', url: '/api/account/addresses', payload: { ...ADDRESS, alias: 'Ajena', userId: v.id } },
  ],
  ['carrito guardado', { url: `/api/cart?userId=${v.id}` }],
  [
    'guardar carrito',
    {
      method: 'PUT',
      url: '/api/cart',
      payload: { userId: v.id, items: [{ code: v.cartCode, quantity: 1 }] },
    },
  ],
  [
    'unir carrito',
    {
      method: 'POST',
      url: '/api/cart/merge',
      payload: { userId: v.id, items: [{ code: v.cartCode, quantity: 1 }] },
    },
  ],
  ['sesión', { url: `/api/auth/session?userId=${v.id}` }],
];

/** The back office: shoppers get 403 and visitors 401; staff see the victim's data. */
const backOffice = (v: Shopper): [string, InjectOptions][] => [
  ['admin: pedidos', { url: `/api/admin/orders?q=${encodeURIComponent(v.email)}` }],
  ['admin: pedido', { url: `/api/admin/orders/${v.order}` }],
  ['admin: clientes', { url: `/api/admin/customers?q=${encodeURIComponent(v.email)}` }],
  ['admin: cliente', { url: `/api/admin/customers/${v.id}` }],
  ['admin: facturas', { url: `/api/admin/invoices?q=${encodeURIComponent('LQB150101AB3')}` }],
  ['admin: XML de factura', { url: `/api/admin/invoices/${v.order}/invoice.xml` }],
  ['admin: PDF de factura', { url: `/api/admin/invoices/${v.order}/invoice.pdf` }],
  ['admin: auditoría', { url: '/api/admin/audit' }],
];

const backOfficeChanges = (v: Shopper): [string, InjectOptions][] => [
  ['admin: preparar', { method: 'POST', url: `/api/admin/orders/${v.order}/prepare` }],
  [
    'admin: enviar',
    {
      method: 'POST',
      url: `/api/admin/orders/${v.order}/ship`,
      payload: { trackingGuide: 'GUIA123456', deliveryProvider: 'DHL' },
    },
  ],
  ['admin: entregar', { method: 'POST', url: `/api/admin/orders/${v.order}/deliver` }],
  [
    'admin: cancelar con reembolso',
    { method: 'POST', url: `/api/admin/orders/${v.order}/cancel`, payload: { reason: 'Intruso' } },
  ],
  ['admin: cancelar factura', { method: 'POST', url: `/api/admin/invoices/${v.order}/cancel`, payload: {} }],
];

/** PDFs carry text in compressed streams: read the invoice's name from the database side instead. */
const bodyText = (res: LightMyRequestResponse) => res.rawPayload.toString('latin1');

function expectNoLeak(res: LightMyRequestResponse, victim: Shopper, label: string) {
  expect(leakedMarkers(res, victim), `${label}: datos de ${victim.email} en la respuesta`).toEqual([]);
  expect(bodyText(res), label).not.toContain(victim.chargeId);
  const location = String(res.headers.location ?? '');
  for (const m of victim.markers) expect(location, label).not.toContain(m);
}

describe.each([
  ['Bernarda contra Aurelio', 'a', 'b'],
  ['Aurelio contra Bernarda', 'b', 'a'],
] as const)('%s', (_name, victimKey, attackerKey) => {
  const victim = () => world[victimKey];
  const attacker = () => world[attackerKey];

  it('the owner gets their own order, invoice and charge (positive control)', async () => {
    for (const [label, options] of byOrder(victim())) {
      if (options.method === 'POST') continue;
      const res = await inject(victim(), options);
      if (label.startsWith('página 3-D')) continue; // the charge is not waiting for 3-D Secure
      expect(res.statusCode, label).toBe(200);
      if (!label.startsWith('PDF')) expect(leakedMarkers(res, victim()).length, label).toBeGreaterThan(0);
    }
  });

  it('the other shopper and a visitor get 401/404 for the victim’s order, invoice and charge; nothing changes', async () => {
    for (const [label, options] of byOrder(victim())) {
      for (const who of [attacker(), null]) {
        const before = await databaseFingerprint(world.t);
        const res = await inject(who, options);
        const as = `${label} como ${who ? 'otro cliente' : 'visitante'}`;
        if (label.startsWith('3-D Secure') || label.startsWith('página 3-D')) {
          // Not tied to a session (the bank page): the charge is not pending, so nothing to see or do.
          expect(res.statusCode, as).toBe(404);
        } else {
          expect(res.statusCode, as).toBe(who ? 404 : 401);
        }
        expectNoLeak(res, victim(), as);
        expect(changedTables(before, await databaseFingerprint(world.t)), as).toEqual([]);
      }
    }
    const [order] = (
      await world.t.db.execute<{ status: string }>(
        sql`select status from orders where number = ${victim().order}`,
      )
    ).rows;
    expect(order!.status).toBe('paid');
  });

  it('session-bound routes answer the caller’s own data whatever id is smuggled in', async () => {
    const own = [
      '/api/account/profile',
      '/api/account/shipping-address',
      '/api/cart',
      '/api/orders',
      '/api/account/addresses',
    ];
    const snapshot = async () => Promise.all(own.map(async (url) => (await inject(victim(), { url })).body));
    const before = await snapshot();
    // Positive control: the victim's own answers carry the victim's markers.
    expect(before[0]).toContain(victim().email);
    expect(before[1]).toContain('calleEnvio');
    expect(before[2]).toContain('"code"');
    expect(before[3]).toContain(`"number":${victim().order}`);

    for (const [label, options] of bySession(victim())) {
      const visitor = await inject(null, options);
      if (label === 'sesión') expect(visitor.json()).toEqual({ user: null });
      else expect(visitor.statusCode, `${label} como visitante`).toBe(401);
      expectNoLeak(visitor, victim(), `${label} como visitante`);

      const res = await inject(attacker(), options);
      expect(res.statusCode, label).toBeLessThan(500);
      expectNoLeak(res, victim(), label);
    }
    // The victim's own data is exactly as it was.
    expect(await snapshot()).toEqual(before);
    const list = await inject(attacker(), { url: '/api/orders' });
    expect(list.body).not.toContain(`"number":${victim().order}`);
  });

  it('an Idempotency-Key the victim used does not replay the victim’s answer to someone else', async () => {
    const [key] = (
      await world.t.db.execute<{ key: string }>(
        sql`select key from idempotency_keys where user_id = ${victim().id} and order_number = ${victim().order}`,
      )
    ).rows;
    const res = await inject(attacker(), {
      method: 'POST',
      url: '/api/orders',
      headers: { 'idempotency-key': key!.key },
      payload: {
        items: [{ code: attacker().cartCode, quantity: 1 }],
        cardToken: await sandboxToken(world.t, '4000000000000002'),
        deviceSessionId: 'intruso',
      },
    });
    expect(res.statusCode).toBe(402);
    expect(res.body).not.toContain(String(victim().order));
    expectNoLeak(res, victim(), 'clave de idempotencia ajena');
  });

  it('the 3-D Secure return with the victim’s charge id changes nothing and shows nothing', async () => {
    const before = await databaseFingerprint(world.t);
    for (const who of [attacker(), null]) {
      const res = await inject(who, { url: `/api/payments/return?id=${victim().chargeId}` });
      expect(res.statusCode).toBe(303);
      expectNoLeak(res, victim(), '3-D Secure return');
    }
    expect(changedTables(before, await databaseFingerprint(world.t))).toEqual([]);
  });

  it('the back office: 403 for a shopper, 401 for a visitor, the data for staff (positive control)', async () => {
    for (const [label, options] of [...backOffice(victim()), ...backOfficeChanges(victim())]) {
      for (const who of [attacker(), victim(), null]) {
        const before = await databaseFingerprint(world.t);
        const res = await inject(who, options);
        expect(res.statusCode, `${label} como ${who ? 'cliente' : 'visitante'}`).toBe(who ? 403 : 401);
        expectNoLeak(res, victim(), label);
        expect(changedTables(before, await databaseFingerprint(world.t)), label).toEqual([]);
      }
    }
    for (const [label, options] of backOffice(victim())) {
      const res = await inject(world.staff, options);
      expect(res.statusCode, `${label} como personal`).toBe(200);
      if (!/PDF|auditoría|facturas/.test(label))
        expect(leakedMarkers(res, victim()).length, `${label} como personal`).toBeGreaterThan(0);
    }
  });
});

describe('staff through the shoppers’ own routes', () => {
  it('a staff member is not an owner: shopper routes for someone else’s order answer 404', async () => {
    for (const [label, options] of byOrder(world.a)) {
      if (label.includes('3-D')) continue;
      const res = await inject(world.staff, options);
      expect(res.statusCode, label).toBe(404);
      expectNoLeak(res, world.a, label);
    }
  });

  it('a forged or expired session cookie is a visitor', async () => {
    for (const cookie of [
      `sid=${'A'.repeat(43)}`,
      `sid=${world.a.cookie.split('=')[1]}x`,
      `__Host-sid=${world.a.cookie.split('=')[1]}`,
      'sid=../../etc/passwd',
      `sid=${randomUUID()}`,
    ]) {
      const res = await world.t.app.inject({ url: `/api/orders/${world.a.order}`, headers: { cookie } });
      expect(res.statusCode, cookie).toBe(401);
    }
  });
});
