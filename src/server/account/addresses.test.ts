import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADDRESS,
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  placeOrderRequest,
  productWithStock,
  type Shopper,
  sandboxToken,
} from '../../../tests/server/support/checkout.ts';
import type { SavedAddress } from '../../shared/schemas/account.ts';
import { seedDemoCatalogue } from '../catalog/demo/seed.ts';

/**
 * 'Mis direcciones' (issue 20, decision 022): several shipping addresses with a short name, one the default;
 * checkout sends the chosen address's id and the server copies that address, the buyer's own, into the order.
 */
let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp();
  await seedDemoCatalogue(t.db, { products: 12, mediaLimit: 0 });
}, 120_000);
afterAll(() => t.close());

const LAB = {
  ...ADDRESS,
  alias: 'Laboratorio de química',
  nombreEnvio: 'Dra. Laura Gómez Ibarra',
  calleEnvio: 'Blvd. Marcelino García Barragán',
  numExtEnvio: '1421',
  numIntEnvio: 'Edif. Q',
  coloniaEnvio: 'Olímpica',
  cpEnvio: '44430',
};
const WAREHOUSE = {
  ...ADDRESS,
  alias: 'Almacén',
  calleEnvio: 'Periférico Sur Manuel Gómez Morín',
  numExtEnvio: '8585',
};

const call = (who: Shopper, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });
const list = async (who: Shopper) =>
  (await call(who, 'GET', '/api/account/addresses')).json<{ addresses: SavedAddress[] }>().addresses;
const rowsOf = async (who: Shopper) =>
  (
    await t.db.execute(
      sql`select id, alias, is_default, calle_envio from shipping_addresses where user_id = ${who.id} order by id`,
    )
  ).rows;

describe('Mis direcciones', () => {
  it('adds a named address, moves the default, edits one; the account keeps exactly one default', async () => {
    const buyer = await createShopper(t);
    const [first] = await list(buyer);
    expect(first).toMatchObject({ alias: 'Principal', isDefault: true, calleEnvio: ADDRESS.calleEnvio });

    const lab = await call(buyer, 'POST', '/api/account/addresses', LAB);
    expect(lab.statusCode).toBe(201);
    expect(lab.json()).toMatchObject({
      alias: 'Laboratorio de química',
      isDefault: false,
      numIntEnvio: 'Edif. Q',
    });
    const wh = await call(buyer, 'POST', '/api/account/addresses', { ...WAREHOUSE, isDefault: true });
    expect(wh.json()).toMatchObject({ alias: 'Almacén', isDefault: true });

    let all = await list(buyer);
    expect(all.map((a) => [a.alias, a.isDefault])).toEqual([
      ['Almacén', true],
      ['Principal', false],
      ['Laboratorio de química', false],
    ]);
    // /envio and /orden read the default.
    const def = await call(buyer, 'GET', '/api/account/shipping-address');
    expect(def.json().address.alias).toBe('Almacén');

    const labId = lab.json<SavedAddress>().id;
    const made = await call(buyer, 'POST', `/api/account/addresses/${labId}/default`);
    expect(made.statusCode).toBe(200);
    const edited = await call(buyer, 'PUT', `/api/account/addresses/${labId}`, {
      ...LAB,
      alias: 'Lab. de química analítica',
      numIntEnvio: 'Edif. R',
    });
    expect(edited.statusCode).toBe(200);
    all = await list(buyer);
    expect(all.filter((a) => a.isDefault).map((a) => a.alias)).toEqual(['Lab. de química analítica']);
    expect(all.find((a) => a.id === labId)?.numIntEnvio).toBe('Edif. R');
  });

  it('caps the list at 10 addresses with a Spanish message; the eleventh is not stored', async () => {
    const buyer = await createShopper(t);
    for (let i = 2; i <= 10; i += 1) {
      const res = await call(buyer, 'POST', '/api/account/addresses', {
        ...WAREHOUSE,
        alias: `Almacén ${i}`,
      });
      expect(res.statusCode).toBe(201);
    }
    const res = await call(buyer, 'POST', '/api/account/addresses', { ...WAREHOUSE, alias: 'Campus Norte' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(
      'Puede guardar hasta 10 direcciones de envío; elimine una que ya no use',
    );
    expect(await rowsOf(buyer)).toHaveLength(10);
  });

  it('refuses to delete the default (the last one always is) until another is the default', async () => {
    const buyer = await createShopper(t);
    const [only] = await list(buyer);
    const refused = await call(buyer, 'DELETE', `/api/account/addresses/${only!.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(
      'Ésta es su dirección por omisión: elija otra por omisión antes de eliminarla',
    );
    const other = (await call(buyer, 'POST', '/api/account/addresses', LAB)).json<SavedAddress>();
    expect((await call(buyer, 'DELETE', `/api/account/addresses/${only!.id}`)).statusCode).toBe(409);
    await call(buyer, 'POST', `/api/account/addresses/${other.id}/default`);
    const gone = await call(buyer, 'DELETE', `/api/account/addresses/${only!.id}`);
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ message: 'Dirección eliminada' });
    expect((await list(buyer)).map((a) => [a.alias, a.isDefault])).toEqual([
      ['Laboratorio de química', true],
    ]);
  });

  it("another user's address cannot be read, edited, made default or deleted: 404, nothing changed", async () => {
    const owner = await createShopper(t);
    const intruder = await createShopper(t);
    const lab = (await call(owner, 'POST', '/api/account/addresses', LAB)).json<SavedAddress>();
    const before = await rowsOf(owner);
    for (const [method, url, body] of [
      ['PUT', `/api/account/addresses/${lab.id}`, { ...LAB, alias: 'Mío' }],
      ['POST', `/api/account/addresses/${lab.id}/default`, undefined],
      ['DELETE', `/api/account/addresses/${lab.id}`, undefined],
    ] as const) {
      const res = await call(intruder, method, url, body);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Dirección no encontrada');
    }
    expect(await rowsOf(owner)).toEqual(before);
    expect((await list(intruder)).map((a) => a.alias)).toEqual(['Principal']);
  });

  it('refuses a short name that is empty, too long or has control characters, and a bad id: 400', async () => {
    const buyer = await createShopper(t);
    for (const [alias, message] of [
      ['   ', 'Escriba un nombre corto para esta dirección (p. ej. Laboratorio, Almacén)'],
      ['L'.repeat(41), 'No escriba más de 40 letras'],
      ['Lab\toratorio', 'El nombre de la dirección contiene caracteres no válidos'],
      ['Almacén\u202e', 'El nombre de la dirección contiene caracteres no válidos'],
    ]) {
      const res = await call(buyer, 'POST', '/api/account/addresses', { ...LAB, alias });
      expect(res.statusCode).toBe(400);
      expect([alias, res.json().error.fields]).toEqual([alias, { alias: message }]);
    }
    expect((await call(buyer, 'PUT', '/api/account/addresses/abc', LAB)).statusCode).toBe(400);
    expect(await rowsOf(buyer)).toHaveLength(1);
  });
});

describe('checkout with a chosen address', () => {
  const countOrders = async (who: Shopper) =>
    Number(
      (
        await t.db.execute<{ n: number }>(
          sql`select count(*)::int as n from orders where user_id = ${who.id}`,
        )
      ).rows[0]!.n,
    );

  it('the order goes to the chosen address and keeps its snapshot after the address is edited', async () => {
    const buyer = await createShopper(t);
    const lab = (await call(buyer, 'POST', '/api/account/addresses', LAB)).json<SavedAddress>();
    const product = await productWithStock(t, 20, 1);
    const res = await placeOrderRequest(t, buyer, {
      items: [{ code: product.code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'dev-direcciones',
      addressId: lab.id,
    });
    expect(res.statusCode).toBe(201);
    const number = res.json<{ number: number }>().number;
    const order = (await call(buyer, 'GET', `/api/orders/${number}`)).json();
    expect(order.address).toMatchObject({
      nombreEnvio: 'Dra. Laura Gómez Ibarra',
      calleEnvio: 'Blvd. Marcelino García Barragán',
      numIntEnvio: 'Edif. Q',
      cpEnvio: '44430',
    });
    // The default ('Principal') was not used; editing the lab's address later does not move the order.
    await call(buyer, 'PUT', `/api/account/addresses/${lab.id}`, {
      ...LAB,
      calleEnvio: 'Av. Revolución 1500',
    });
    const again = (await call(buyer, 'GET', `/api/orders/${number}`)).json();
    expect(again.address.calleEnvio).toBe('Blvd. Marcelino García Barragán');
  });

  it("without a chosen address the default is used; another user's address id is refused and no order", async () => {
    const buyer = await createShopper(t);
    const other = await createShopper(t);
    const theirs = (await call(other, 'POST', '/api/account/addresses', LAB)).json<SavedAddress>();
    const product = await productWithStock(t, 20, 2);
    const body = {
      items: [{ code: product.code, quantity: 1 }],
      cardToken: await sandboxToken(t, '4111111111111111'),
      deviceSessionId: 'dev-direcciones',
    };
    const stolen = await placeOrderRequest(t, buyer, { ...body, addressId: theirs.id });
    // The checkout's refusals are 409s with the reason's code (as with another buyer's fiscal profile).
    expect([stolen.statusCode, stolen.json().error]).toEqual([
      409,
      { code: 'not_found', message: 'Dirección no encontrada' },
    ]);
    const bad = await placeOrderRequest(t, buyer, { ...body, addressId: 'el-laboratorio' });
    expect(bad.statusCode).toBe(400);
    expect(await countOrders(buyer)).toBe(0);

    const res = await placeOrderRequest(t, buyer, body);
    expect(res.statusCode).toBe(201);
    const order = (await call(buyer, 'GET', `/api/orders/${res.json().number}`)).json();
    expect(order.address.calleEnvio).toBe(ADDRESS.calleEnvio);
  });
});
