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
} from '../../../tests/server/support/checkout.ts';
import { runMigrationFile } from '../../../tests/server/support/migrations.ts';
import type { SavedAddress } from '../../shared/schemas/account.ts';
import { seedDemoCatalogue } from '../catalog/demo/seed.ts';

/**
 * Migration 0018 (several shipping addresses, decision 022) on a shop with buyers, addresses and orders: the
 * database is taken back to its state before 0018 (one address per user, keyed by user), 0018 runs again as on
 * the production database, and every address is still there, now its owner's default named 'Principal'; orders
 * read as before and the buyers go on buying and adding addresses.
 */
let t: CheckoutTestApp;
let buyers: Shopper[];
let number: number;

const call = (who: Shopper, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });
const addressColumns = (a: Record<string, unknown>) => {
  const { id: _i, alias: _a, isDefault: _d, ...rest } = a;
  return rest;
};

beforeAll(async () => {
  t = await createCheckoutApp();
  await seedDemoCatalogue(t.db, { products: 6, mediaLimit: 0 });
  buyers = [await createShopper(t), await createShopper(t), await createShopper(t, { address: false })];
  await t.app.inject({
    method: 'PUT',
    url: '/api/account/shipping-address',
    headers: { cookie: buyers[1]!.cookie },
    payload: {
      nombreEnvio: 'Ing. Pedro Ramírez Solís',
      telefonoEnvio: '3398765432',
      cpEnvio: '45100',
      calleEnvio: 'Av. Patria Poniente',
      numExtEnvio: '1201',
      numIntEnvio: '',
      coloniaEnvio: 'Lomas del Valle',
      municipioEnvio: 'Zapopan',
      ciudadEnvio: 'Zapopan',
      estadoEnvio: 'Jalisco',
    },
  });
  const p = await productWithStock(t, 10, 0);
  const res = await placeOrderRequest(t, buyers[0]!, {
    items: [{ code: p.code, quantity: 1 }],
    cardToken: await sandboxToken(t, '4111111111111111'),
    deviceSessionId: 'dev-migration-0018',
  });
  expect(res.statusCode).toBe(201);
  number = res.json<{ number: number }>().number;
}, 120_000);
afterAll(() => t.close());

const backToBefore0018 = async () => {
  const steps = [
    sql`drop index shipping_addresses_one_default_idx`,
    sql`drop index shipping_addresses_user_idx`,
    sql`alter table shipping_addresses drop column id, drop column alias, drop column is_default, drop column created_at`,
    sql`alter table shipping_addresses add constraint shipping_addresses_pkey primary key (user_id)`,
  ];
  for (const step of steps) await t.db.execute(step);
};

describe('migration 0018 on a shop with addresses and orders', () => {
  it('keeps every address as its owner’s default; orders read as before; new addresses can be added', async () => {
    const before = await Promise.all(
      buyers.map(async (b) => (await call(b, 'GET', '/api/account/shipping-address')).json()),
    );
    expect(before[1].address.calleEnvio).toBe('Av. Patria Poniente');
    expect(before[2].address).toBeNull();
    const order = (await call(buyers[0]!, 'GET', `/api/orders/${number}`)).body;

    await backToBefore0018();
    const old = await t.db.execute(sql`select column_name from information_schema.columns
      where table_name = 'shipping_addresses' and column_name in ('id', 'alias', 'is_default')`);
    expect(old.rows).toEqual([]);
    await runMigrationFile(t.db, '0018_several-shipping-addresses.sql');

    for (const [i, b] of buyers.entries()) {
      const after = (await call(b, 'GET', '/api/account/addresses')).json<{ addresses: SavedAddress[] }>();
      if (before[i].address === null) {
        expect(after.addresses).toEqual([]);
        continue;
      }
      expect(after.addresses).toHaveLength(1);
      expect(after.addresses[0]).toMatchObject({ alias: 'Principal', isDefault: true });
      expect(addressColumns(after.addresses[0]!)).toEqual(addressColumns(before[i].address));
    }
    expect((await call(buyers[0]!, 'GET', `/api/orders/${number}`)).body).toBe(order);

    // After the migration: a second address, not the default, and the first still is.
    const lab = await call(buyers[1]!, 'POST', '/api/account/addresses', {
      ...addressColumns(before[1].address),
      alias: 'Almacén',
    });
    expect(lab.statusCode).toBe(201);
    const list = (await call(buyers[1]!, 'GET', '/api/account/addresses')).json<{
      addresses: SavedAddress[];
    }>();
    expect(list.addresses.map((a) => [a.alias, a.isDefault])).toEqual([
      ['Principal', true],
      ['Almacén', false],
    ]);
  });
});
