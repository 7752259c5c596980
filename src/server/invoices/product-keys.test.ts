import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCfdiXml } from '../../../tests/server/support/cfdi-xsd.ts';
import { createTestOrder, createTestShopper } from '../../../tests/server/support/invoice-orders.ts';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createStaff,
  type Shopper,
} from '../../../tests/server/support/staff.ts';
import { shop } from '../../shared/shop.ts';
import { seedDemoCatalogue } from '../catalog/demo/seed.ts';
import { products } from '../db/schema.ts';
import { readAttribute } from './pac/tfd.ts';

let t: CheckoutTestApp;
let staff: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp();
  // The whole demo plan once (no images): every sub-group gets products.
  await seedDemoCatalogue(t.db, { products: 420, mediaLimit: 0 });
  staff = await createStaff(t);
});
afterAll(() => t.close());

const keysOf = async (groupClas: string) => {
  const rows = await t.db
    .selectDistinct({ product: products.satProductKey, unit: products.satUnitKey })
    .from(products)
    .where(eq(products.groupClas, groupClas));
  return rows.map((r) => `${r.product}/${r.unit}`);
};

describe('SAT keys of the demo catalogue', () => {
  // Expected keys written out from SAT's c_ClaveProdServ classes (decision 015), not read from the code.
  it.each([
    ['VID-MAT', '41121800/H87'], // laboratory glassware: flasks
    ['VID-VAS', '41121800/H87'], // beakers
    ['VID-PIP', '41121500/H87'], // pipettes and burettes
    ['EQU-BAL', '41111500/H87'], // balances: weight measuring instruments
    ['EQU-CEN', '41103900/H87'], // laboratory centrifuges
    ['REA-ACI', '12352300/H87'], // inorganic acids
    ['REA-SOL', '12191500/H87'], // solvents
  ])('%s → %s', async (groupClas, keys) => {
    expect(await keysOf(groupClas)).toEqual([keys]);
  });

  it('glassware, balances, centrifuges and reagents each sit in a class of their own, none on the fallback', async () => {
    const classes = await Promise.all(['VID-MAT', 'EQU-BAL', 'EQU-CEN', 'REA-ACI'].map(keysOf));
    expect(new Set(classes.flat().map((k) => k.slice(0, 6))).size).toBe(4);
    for (const keys of classes) expect(keys.join()).not.toContain(shop.invoicing.productKey);
  });

  it('an invoice for a demo balance carries its own key, and is valid against the SAT XSD', async () => {
    const [balance] = await t.db
      .select({ code: products.code, name: products.name, priceCents: products.priceCents })
      .from(products)
      .where(eq(products.groupClas, 'EQU-BAL'))
      .limit(1);
    const shopper = await createTestShopper(t.db, 'Beatriz');
    const number = await createTestOrder(t.db, shopper.id, {
      lines: [
        { code: balance!.code, description: balance!.name, unitPriceCents: balance!.priceCents, quantity: 1 },
      ],
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/invoice`,
      cookies: shopper.cookie,
      payload: {
        nombreFiscal: 'Laboratorios Químicos del Bajío',
        rfc: 'LQB150101AB3',
        regimenFiscal: '601',
        usoCfdi: 'I08',
        cp: '44100',
      },
    });
    expect(res.statusCode).toBe(201);
    const xml = (await t.app.inject({ url: `/api/orders/${number}/invoice.xml`, cookies: shopper.cookie }))
      .body;
    expect(await validateCfdiXml(xml)).toEqual({ valid: true, errors: [] });
    const keys = [...xml.matchAll(/<cfdi:Concepto [^>]*ClaveProdServ="(\d+)"[^>]*ClaveUnidad="(\w+)"/g)].map(
      (m) => `${m[1]}/${m[2]}`,
    );
    // The balance, then shipping (a service, its own configured key).
    expect(keys).toEqual([
      '41111500/H87',
      `${shop.invoicing.shippingProductKey}/${shop.invoicing.shippingUnitKey}`,
    ]);
    expect(readAttribute(xml, 'cfdi:Comprobante', 'TipoDeComprobante')).toBe('I');
  });
});

describe('GET /api/admin/products?satKeys=fallback', () => {
  it('lists exactly the products still on the configured default, marked as such', async () => {
    const [first, second] = await t.db
      .select({ code: products.code })
      .from(products)
      .where(eq(products.groupClas, 'EQU-CEN'))
      .orderBy(products.code)
      .limit(2);
    await t.db.update(products).set({ satProductKey: null }).where(eq(products.code, first!.code));
    await t.db.update(products).set({ satUnitKey: '  ' }).where(eq(products.code, second!.code));
    const expected = await t.db
      .select({ code: products.code })
      .from(products)
      .where(
        sql`coalesce(trim(${products.satProductKey}), '') = '' or coalesce(trim(${products.satUnitKey}), '') = ''`,
      );
    expect(expected.length).toBeGreaterThan(2);

    const seen: string[] = [];
    for (let page = 1; page < 50; page++) {
      const res = await t.app.inject({
        url: `/api/admin/products?satKeys=fallback&page=${page}`,
        headers: { cookie: staff.cookie },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json<{ items: { code: string; usesSatFallback: boolean }[]; pages: number }>();
      for (const item of body.items) {
        expect(item.usesSatFallback).toBe(true);
        seen.push(item.code);
      }
      if (page >= body.pages) break;
    }
    expect(seen.sort()).toEqual(expected.map((e) => e.code).sort());
    expect(seen).toContain(first!.code);
    expect(seen).toContain(second!.code);

    const all = await t.app.inject({ url: '/api/admin/products?q=VID', headers: { cookie: staff.cookie } });
    expect(all.statusCode).toBe(200);
    const bad = await t.app.inject({
      url: '/api/admin/products?satKeys=x',
      headers: { cookie: staff.cookie },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.satKeys).toBe('Filtro de claves SAT inválido');
  });

  it('a shopper cannot list it', async () => {
    const shopper = await createTestShopper(t.db, 'Carla');
    const res = await t.app.inject({ url: '/api/admin/products?satKeys=fallback', cookies: shopper.cookie });
    expect([401, 403]).toContain(res.statusCode);
  });
});
