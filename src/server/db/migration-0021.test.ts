import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrationFile } from '../../../tests/server/support/migrations.ts';
import { type CheckoutTestApp, createCheckoutApp } from '../../../tests/server/support/staff.ts';
import { seedDemoCatalogue } from '../catalog/demo/seed.ts';

/**
 * Migration 0021 (HDS and certificates of analysis, decision 028) on a catalogue that already has technical
 * sheets: the database is taken back to before 0021 and the migration runs again on it. Every technical sheet
 * keeps its bytes, hash and URL; the new tables start empty and then take documents.
 */
let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp();
  await seedDemoCatalogue(t.db, { products: 80, mediaLimit: 80 });
}, 120_000);
afterAll(() => t.close());

const sheets = async () =>
  (
    await t.db.execute<{ code: string; hash: string; digest: string; bytes: number }>(
      sql`select code, datasheet_hash as hash, md5(datasheet) as digest, length(datasheet)::int as bytes
          from products where datasheet is not null order by code`,
    )
  ).rows;
const tables = async () =>
  (
    await t.db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables
          where table_name in ('product_safety_sheets', 'lot_certificates') order by table_name`,
    )
  ).rows.map((r) => r.table_name);

describe('migration 0021 on a catalogue with technical sheets', () => {
  it('keeps every technical sheet byte for byte; the new tables start empty', async () => {
    const before = await sheets();
    expect(before.length).toBeGreaterThan(5);
    const code = before[0]!.code;
    const page = await t.app.inject(`/api/products/${code}`);
    const served = await t.app.inject(page.json().datasheetUrl);

    await t.db.execute(sql`drop table lot_certificates`);
    await t.db.execute(sql`drop table product_safety_sheets`);
    expect(await tables()).toEqual([]);
    await runMigrationFile(t.db, '0021_safety-sheets-lot-certificates.sql');
    expect(await tables()).toEqual(['lot_certificates', 'product_safety_sheets']);

    expect(await sheets()).toEqual(before);
    const pageAfter = await t.app.inject(`/api/products/${code}`);
    expect(pageAfter.json()).toMatchObject({
      datasheetUrl: page.json().datasheetUrl,
      safetySheetUrl: null,
      certificates: [],
      certificateCount: 0,
    });
    const servedAfter = await t.app.inject(pageAfter.json().datasheetUrl);
    expect(servedAfter.rawPayload.equals(served.rawPayload)).toBe(true);
    expect(servedAfter.headers['content-disposition']).toBe(`inline; filename="${code}.pdf"`);
  });
});
