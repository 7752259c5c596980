import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  type Shopper,
  sandboxToken,
} from '../../../tests/server/support/checkout.ts';
import { runMigrationFile } from '../../../tests/server/support/migrations.ts';
import { createStaff } from '../../../tests/server/support/staff.ts';
import type { ProductDetail, ProductsResponse } from '../../shared/schemas/catalog.ts';
import { seedDemoCatalogue } from '../catalog/demo/seed.ts';

/**
 * Migration 0015 (presentations and volume prices, decision 021) on a shop that already sells: a demo
 * catalogue, paid orders and a stamped invoice are made, the database is taken back to its state before 0015
 * (the migration's additions dropped), and 0015's statements run again on it as on the production database. Every product becomes a family of one; every order, invoice and ledger row reads
 * exactly as before.
 */
let t: CheckoutTestApp;
let shopper: Shopper;
let staff: Shopper;
let numbers: number[];

const get = async (url: string, who: Shopper) => {
  const res = await t.app.inject({ url, headers: { cookie: who.cookie } });
  return { status: res.statusCode, body: res.body, type: String(res.headers['content-type'] ?? '') };
};

/** What a shopper, staff and the accountant can read of the shop's history and catalogue. */
async function readable() {
  const out: Record<string, unknown> = {};
  for (const n of numbers) {
    out[`order ${n}`] = await get(`/api/orders/${n}`, shopper);
    out[`admin order ${n}`] = await get(`/api/admin/orders/${n}`, staff);
    out[`invoice state ${n}`] = await get(`/api/orders/${n}/invoice`, shopper);
  }
  out['invoice xml'] = await get(`/api/orders/${numbers[0]}/invoice.xml`, shopper);
  const pdf = await get(`/api/orders/${numbers[0]}/invoice.pdf`, shopper);
  out['invoice pdf'] = { status: pdf.status, type: pdf.type, length: pdf.body.length };
  out.history = await get('/api/orders', shopper);
  out.listing = await get('/api/products?pageSize=60', shopper);
  out.ledger = (
    await t.db.execute(
      sql`select product_code, sum(delta)::int as n from stock_movements group by product_code order by product_code`,
    )
  ).rows;
  out.products = (
    await t.db.execute(sql`select code, name, price_cents, stock, active from products order by code`)
  ).rows;
  return out;
}

const backToBefore0015 = async () => {
  const steps = [
    // A later migration's trigger (0037, the suggestions' index) reads 0015's columns; before 0015 it did not exist.
    sql`drop trigger products_suggest_update on products`,
    sql`drop table price_breaks`,
    sql`drop trigger products_catalogue_version on products`,
    sql`drop index products_listed_brand_idx`,
    sql`drop index products_listed_group_idx`,
    sql`alter table products drop column family_code, drop column presentation_label`,
    sql`create index products_active_brand_listing_idx on products (brand, code) include (group_clas, line, type, price_cents) where active`,
    sql`create index products_active_group_listing_idx on products (group_clas, code) include (brand, line, type, price_cents) where active`,
    sql`create constraint trigger products_catalogue_version
        after insert or delete or update of code, name, brand, group_clas, line, type, price_cents, active, short_desc, long_desc_html, cas_number, formula
        on products deferrable initially deferred for each row execute function catalogue_version_bump()`,
  ];
  for (const step of steps) await t.db.execute(step);
};

const columnsOfProducts = async () =>
  (
    await t.db.execute<{ column_name: string }>(
      sql`select column_name from information_schema.columns where table_name = 'products' and column_name in ('family_code', 'presentation_label')`,
    )
  ).rows.map((r) => r.column_name);

beforeAll(async () => {
  t = await createCheckoutApp();
  await seedDemoCatalogue(t.db, { products: 60, mediaLimit: 10 });
  shopper = await createShopper(t);
  staff = await createStaff(t);
  const { rows } = await t.db.execute<{ code: string }>(
    sql`select code from products where stock >= 3 and active order by code limit 3`,
  );
  numbers = [];
  for (const [i, row] of rows.entries()) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { cookie: shopper.cookie, 'idempotency-key': `migracion-0015-${i}` },
      payload: {
        items: [{ code: row.code, quantity: 2 }],
        cardToken: await sandboxToken(t, '4111111111111111'),
        deviceSessionId: 'dev-migration',
      },
    });
    expect(res.statusCode).toBe(201);
    numbers.push(res.json<{ number: number }>().number);
  }
  const invoiced = await t.app.inject({
    method: 'POST',
    url: `/api/orders/${numbers[0]}/invoice`,
    headers: { cookie: shopper.cookie },
    payload: {
      nombreFiscal: 'Laboratorios Químicos del Bajío',
      rfc: 'LQB150101AB3',
      regimenFiscal: '601',
      usoCfdi: 'I08',
      cp: '44100',
    },
  });
  expect(invoiced.statusCode).toBe(201);
}, 120_000);
afterAll(() => t.close());

describe('migration 0015 on a catalogue with orders and invoices', () => {
  it('runs on the old database; products become families of one; orders, invoices and ledger read as before', async () => {
    const before = await readable();
    expect((before[`order ${numbers[0]}`] as { status: number }).status).toBe(200);
    expect((before['invoice xml'] as { body: string }).body).toContain('cfdi:Comprobante');

    await backToBefore0015();
    expect(await columnsOfProducts()).toEqual([]);
    await runMigrationFile(t.db, '0015_presentations-volume-prices.sql');
    expect((await columnsOfProducts()).sort()).toEqual(['family_code', 'presentation_label']);

    const after = await readable();
    expect(after).toEqual(before);

    // Families of one: no product is another's presentation, every card shows its own price.
    const { rows } = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from products where family_code is not null or presentation_label is not null`,
    );
    expect(Number(rows[0]!.n)).toBe(0);
    const listing = JSON.parse((after.listing as { body: string }).body) as ProductsResponse;
    expect(listing.total).toBe(60);
    for (const card of listing.items) {
      expect(card.presentationCount).toBe(1);
      expect(card.fromPriceCents).toBeNull();
    }
    const code = listing.items[0]!.code;
    const detail = (await t.app.inject({ url: `/api/products/${code}` })).json<ProductDetail>();
    expect(detail.presentations).toEqual([
      { code, label: null, priceCents: detail.priceCents, stock: detail.stock, leadTime: null },
    ]);
    expect(detail.familyCode).toBe(code);

    // The shop goes on selling after the migration.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { cookie: shopper.cookie, 'idempotency-key': 'migracion-0015-despues' },
      payload: {
        items: [{ code, quantity: 1 }],
        cardToken: await sandboxToken(t, '4111111111111111'),
        deviceSessionId: 'dev-migration',
      },
    });
    expect(res.statusCode).toBe(201);
  });
});
