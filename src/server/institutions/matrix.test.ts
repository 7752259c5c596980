import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  productWithStock,
  type Shopper,
  sandboxToken,
} from '../../../tests/server/support/checkout.ts';
import { addMember, buyFor, createInstitution } from '../../../tests/server/support/institutions.ts';
import {
  canInstitution,
  INSTITUTION_ACTIONS,
  INSTITUTION_ROLES,
  type InstitutionAction,
  type InstitutionRole,
} from '../../shared/institutions.ts';
import { orders } from '../db/schema.ts';

/**
 * Roles and limits as a matrix (issue 34): every action of INSTITUTION_PERMISSIONS × every role × (own institution,
 * another institution), each cell through the real routes. Own: allowed exactly when the table says so. Another
 * institution's: always refused, and nothing of it (name, RFC, addresses, lists, quotations, members) appears in any
 * answer of the whole run.
 */

let t: CheckoutTestApp;
let ownFolio = '';
beforeAll(async () => {
  t = await createCheckoutApp();
});
afterAll(() => t.close());

const ADDRESS = {
  nombreEnvio: 'Almacén de Ciencias Químicas',
  telefonoEnvio: '3312345678',
  cpEnvio: '45100',
  calleEnvio: 'Avenida Universidad',
  numExtEnvio: '1500',
  coloniaEnvio: 'Ciudad Universitaria',
  municipioEnvio: 'Zapopan',
  ciudadEnvio: 'Zapopan',
  estadoEnvio: 'Jalisco',
};

const call = (who: Shopper, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });

type Cell = { role: InstitutionRole; action: InstitutionAction; scope: 'own' | 'other'; allowed: boolean };

describe('matriz de papeles y acciones', () => {
  it('every action × role × (own, another institution): allowed as the table says, 0 leaks', async () => {
    const product = await productWithStock(t, 500);
    const own = await createInstitution(t, { razonSocial: 'Universidad Propia del Occidente' });
    const other = await createInstitution(t, {
      razonSocial: 'Instituto Ajeno de Investigación',
      rfc: 'EKU9003173C9',
    });
    // The other institution's data, each piece with a mark that must never show to someone outside it.
    const otherAdmin = await createShopper(t);
    await addMember(t, other.id, otherAdmin, 'administrador');
    const ownAdmin = await createShopper(t);
    await addMember(t, own.id, ownAdmin, 'administrador');
    for (const [inst, admin, tag] of [
      [other, otherAdmin, 'AJENA'],
      [own, ownAdmin, 'PROPIA'],
    ] as const) {
      expect((await buyFor(t, admin, inst.id)).statusCode).toBe(200);
      expect(
        (
          await call(admin, 'POST', `/api/institutions/${inst.id}/addresses`, {
            ...ADDRESS,
            alias: `Sede ${tag}`,
          })
        ).statusCode,
      ).toBe(201);
      expect(
        (
          await call(admin, 'POST', '/api/lists', {
            name: `Lista ${tag}`,
            lines: [{ code: product.code, quantity: 1 }],
          })
        ).statusCode,
      ).toBe(201);
      const quotation = await call(admin, 'POST', '/api/quotations', {
        items: [{ code: product.code, quantity: 1 }],
        institution: `Cotización ${tag}`,
      });
      expect(quotation.statusCode, quotation.body).toBe(201);
    }
    const folioOf = async (who: Shopper) =>
      (await call(who, 'GET', '/api/quotations')).json<{ quotations: { folio: string }[] }>().quotations[0]!
        .folio;
    const otherFolio = await folioOf(otherAdmin);
    ownFolio = await folioOf(ownAdmin);
    const marks = [
      'Instituto Ajeno',
      'EKU9003173C9',
      'Sede AJENA',
      'Lista AJENA',
      otherFolio,
      otherAdmin.email,
    ];

    const cells: Cell[] = [];
    const bodies: string[] = [];
    let leaks = 0;
    const record = (cell: Cell, body: string) => {
      cells.push(cell);
      bodies.push(body);
      for (const mark of marks) if (body.includes(mark)) leaks++;
    };

    for (const role of INSTITUTION_ROLES) {
      const person = await createShopper(t);
      await addMember(t, own.id, person, role);
      for (const scope of ['own', 'other'] as const) {
        const id = scope === 'own' ? own.id : other.id;
        for (const action of INSTITUTION_ACTIONS) {
          const expected = scope === 'own' && canInstitution(role, action);
          const { allowed, body } = await probe(person, id, action, product.code);
          expect(allowed, `${role} × ${action} × ${scope}`).toBe(expected);
          record({ role, action, scope, allowed }, body);
        }
      }
    }

    const size = `${INSTITUTION_ACTIONS.length} acciones × ${INSTITUTION_ROLES.length} papeles × 2 instituciones`;
    console.log(
      `matriz de instituciones: ${size} = ${cells.length} casillas; permitidas ${cells.filter((c) => c.allowed).length}, rechazadas ${cells.filter((c) => !c.allowed).length}; fugas de la otra institución: ${leaks}`,
    );
    expect(cells).toHaveLength(INSTITUTION_ACTIONS.length * INSTITUTION_ROLES.length * 2);
    expect(cells.filter((c) => c.scope === 'other' && c.allowed)).toEqual([]);
    expect(leaks).toBe(0);
    expect(bodies.join('\n')).toContain('Sede PROPIA');
  });
});

/**
 * One cell: the route of the action on institution `id`. Actions whose screens other parts of issue 34 build
 * (requisitions, credit, statements) are asked of GET /api/institutions/:id, which answers the actions the member's
 * role may take — from the same table every route checks — and 404 to a non-member.
 */
async function probe(
  who: Shopper,
  id: number,
  action: InstitutionAction,
  code: string,
): Promise<{ allowed: boolean; body: string }> {
  const ok = (status: number, body: string, allowedStatus: number) => {
    if (status !== allowedStatus && status !== 403 && status !== 404)
      throw new Error(`${action}: ${status} ${body}`);
    return { allowed: status === allowedStatus, body };
  };
  switch (action) {
    case 'members.manage': {
      const res = await call(who, 'GET', `/api/institutions/${id}/members`);
      return ok(res.statusCode, res.body, 200);
    }
    case 'settings.manage': {
      const res = await call(who, 'PUT', `/api/institutions/${id}/settings`, {
        requiresPurchaseOrder: false,
        costCentreLabel: 'Centro de costos',
        projectLabel: 'Proyecto',
      });
      return ok(res.statusCode, res.body, 200);
    }
    case 'addresses.manage': {
      const res = await call(who, 'POST', `/api/institutions/${id}/addresses`, {
        ...ADDRESS,
        alias: 'Nueva sede',
      });
      return ok(res.statusCode, res.body, 201);
    }
    case 'orders.read_all': {
      const res = await call(who, 'GET', `/api/institutions/${id}/orders`);
      return ok(res.statusCode, res.body, 200);
    }
    case 'audit.read': {
      const res = await call(who, 'GET', `/api/institutions/${id}/audit`);
      return ok(res.statusCode, res.body, 200);
    }
    case 'lists.use':
    case 'quotations.use': {
      const chosen = await buyFor(t, who, id);
      const list = await call(who, 'GET', action === 'lists.use' ? '/api/lists' : '/api/quotations');
      await buyFor(t, who, null);
      const body = `${chosen.body}\n${list.body}`;
      const sees = action === 'lists.use' ? 'Lista PROPIA' : ownFolio;
      return { allowed: chosen.statusCode === 200 && list.body.includes(sees), body };
    }
    case 'order.place': {
      const chosen = await buyFor(t, who, id);
      if (chosen.statusCode !== 200) return ok(chosen.statusCode, chosen.body, 200);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { cookie: who.cookie, 'idempotency-key': crypto.randomUUID() },
        payload: {
          items: [{ code, quantity: 1 }],
          cardToken: await sandboxToken(t, '4111111111111111'),
          deviceSessionId: 'matriz',
        },
      });
      await buyFor(t, who, null);
      if (res.statusCode === 201) {
        const [order] = await t.db.select().from(orders).where(eq(orders.number, res.json().number));
        expect(order?.institutionId).toBe(id);
        return { allowed: true, body: res.body };
      }
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error.message).toContain('no permite colocar pedidos: envíe el carrito a aprobación');
      return { allowed: false, body: res.body };
    }
    default: {
      const res = await call(who, 'GET', `/api/institutions/${id}`);
      if (res.statusCode !== 200) return ok(res.statusCode, res.body, 200);
      return { allowed: (res.json().actions as string[]).includes(action), body: res.body };
    }
  }
}
