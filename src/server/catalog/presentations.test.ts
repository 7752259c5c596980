import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  sandboxToken,
} from '../../../tests/server/support/checkout.ts';
import type { CartQuote } from '../../shared/schemas/cart.ts';
import type { ProductDetail, ProductsResponse } from '../../shared/schemas/catalog.ts';
import { orderLines, priceBreaks, products, stockMovements } from '../db/schema.ts';
import { readAttribute } from '../invoices/pac/tfd.ts';
import { renderSitemap } from '../seo/sitemap.ts';

/**
 * Presentations and volume prices (decision 021), through the API: a family of three presentations of acetone,
 * one with volume prices; what the product page, the listing, the cart, the order and the CFDI say of them.
 */
let t: CheckoutTestApp;

const FAMILY = [
  { code: 'ACE-1L', label: '1 L', priceCents: 33_000, stock: 40, weightKg: 0.9 },
  { code: 'ACE-4L', label: '4 L', priceCents: 129_000, stock: 3, weightKg: 3.4 },
  { code: 'ACE-20L', label: '20 L', priceCents: 560_000, stock: 0, weightKg: 17 },
];
/** ACE-1L: 1–9 $330.00, 10–49 $315.00, 50 or more $297.00. */
const BREAKS = [
  { minQuantity: 10, priceCents: 31_500 },
  { minQuantity: 50, priceCents: 29_700 },
];

let clientDir: string;

beforeAll(async () => {
  // A page shell, so the product page is server-rendered with its JSON-LD.
  clientDir = mkdtempSync(join(tmpdir(), 'presentations-'));
  writeFileSync(
    join(clientDir, 'index.html'),
    '<!doctype html><html lang="es-MX"><head><title>x</title><!--page-meta--></head><body><div id="root"></div></body></html>',
  );
  t = await createCheckoutApp({ config: { clientDir } });
  await t.db.insert(products).values(
    FAMILY.map((p, i) => ({
      code: p.code,
      name: 'Acetona grado ACS',
      brand: 'Quimiva',
      groupClas: 'REA-SOL',
      priceCents: p.priceCents,
      stock: p.stock,
      weightKg: p.weightKg,
      presentationLabel: p.label,
      familyCode: i === 0 ? null : 'ACE-1L',
      shortDesc: 'Acetona para análisis y limpieza de material.',
      casNumber: '67-64-1',
      formula: 'C3H6O',
    })),
  );
  await t.db
    .insert(stockMovements)
    .values(
      FAMILY.filter((p) => p.stock > 0).map((p) => ({ productCode: p.code, delta: p.stock, reason: 'seed' })),
    );
  await t.db.insert(priceBreaks).values(BREAKS.map((b) => ({ productCode: 'ACE-1L', ...b })));
});
afterAll(async () => {
  await t.close();
  rmSync(clientDir, { recursive: true, force: true });
});

const detail = async (code: string) => {
  const res = await t.app.inject({ url: `/api/products/${code}` });
  expect(res.statusCode).toBe(200);
  return res.json<ProductDetail>();
};
const quote = async (items: { code: string; quantity: number }[]) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/cart/quote', payload: { items } });
  expect(res.statusCode).toBe(200);
  return res.json<CartQuote>();
};

describe('the product page of a presentation', () => {
  it('lists every presentation with its price and stock, and the chosen one’s own code, price and volume prices', async () => {
    const p = await detail('ACE-4L');
    expect(p.code).toBe('ACE-4L');
    expect(p.priceCents).toBe(129_000);
    expect(p.stock).toBe(3);
    expect(p.presentationLabel).toBe('4 L');
    expect(p.familyCode).toBe('ACE-1L');
    expect(p.presentations).toEqual([
      { code: 'ACE-1L', label: '1 L', priceCents: 33_000, stock: 40, leadTime: null },
      { code: 'ACE-4L', label: '4 L', priceCents: 129_000, stock: 3, leadTime: null },
      { code: 'ACE-20L', label: '20 L', priceCents: 560_000, stock: 0, leadTime: null },
    ]);
    expect(p.priceBreaks).toEqual([]);
    expect((await detail('ACE-1L')).priceBreaks).toEqual(BREAKS);
  });

  it('an inactive presentation leaves the selector, and its own page is gone', async () => {
    await t.db.update(products).set({ active: false }).where(eq(products.code, 'ACE-20L'));
    try {
      expect((await detail('ACE-1L')).presentations.map((o) => o.code)).toEqual(['ACE-1L', 'ACE-4L']);
      expect((await t.app.inject({ url: '/api/products/ACE-20L' })).statusCode).toBe(404);
    } finally {
      await t.db.update(products).set({ active: true }).where(eq(products.code, 'ACE-20L'));
    }
  });

  it('server-renders the JSON-LD with the presentation’s SKU, the product group and the CAS number', async () => {
    const res = await t.app.inject({ url: '/productos/ACE-4L' });
    expect(res.statusCode).toBe(200);
    const json = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(res.body)?.[1];
    const ld = JSON.parse(json!);
    expect(ld.sku).toBe('ACE-4L');
    expect(ld.name).toBe('Acetona grado ACS, 4 L');
    expect(ld.inProductGroupWithID).toBe('ACE-1L');
    expect(ld.identifier).toEqual({ '@type': 'PropertyValue', propertyID: 'CAS', value: '67-64-1' });
    expect(ld.offers.price).toBe('1290.00');
  });
});

describe('the sitemap', () => {
  it('lists every presentation’s own page', async () => {
    const xml = await renderSitemap(t.db, 'https://tienda.example.mx');
    for (const p of FAMILY) expect(xml).toContain(`<loc>https://tienda.example.mx/productos/${p.code}</loc>`);
  });
});

describe('listings and search: one card per family', () => {
  it('shows the family once, “desde” its lowest price, with its base’s stock and the family’s', async () => {
    const res = await t.app.inject({ url: '/api/products?group=REA-SOL&pageSize=60' });
    const body = res.json<ProductsResponse>();
    const cards = body.items.filter((c) => c.code.startsWith('ACE-'));
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({
      code: 'ACE-1L',
      priceCents: 33_000,
      fromPriceCents: 33_000,
      presentationCount: 3,
      stock: 40,
      familyStock: 43,
    });
    // The facet counts count families too.
    expect(body.total).toBe(body.items.length);
    const hycel = body.facets.brands.find((b) => b.value === 'Quimiva');
    expect(hycel?.count).toBe(body.items.filter((c) => c.brand === 'Quimiva').length);
  });

  it('shows a presentation’s new stock, price or withdrawal on the family’s card at the next listing', async () => {
    const card = async () =>
      (await t.app.inject({ url: '/api/products?group=REA-SOL&pageSize=60' }))
        .json<ProductsResponse>()
        .items.find((c) => c.code === 'ACE-1L')!;
    expect(await card()).toMatchObject({ presentationCount: 3, fromPriceCents: 33_000, familyStock: 43 });
    try {
      // Stock does not change the catalogue version: it is read at every listing all the same.
      await t.db.update(products).set({ stock: 10 }).where(eq(products.code, 'ACE-20L'));
      expect(await card()).toMatchObject({ stock: 40, familyStock: 53 });
      await t.db.update(products).set({ priceCents: 100 }).where(eq(products.code, 'ACE-4L'));
      expect(await card()).toMatchObject({ priceCents: 33_000, fromPriceCents: 100, presentationCount: 3 });
      await t.db.update(products).set({ active: false }).where(eq(products.code, 'ACE-4L'));
      expect(await card()).toMatchObject({ presentationCount: 2, fromPriceCents: 33_000, familyStock: 50 });
      await t.db.update(products).set({ active: false }).where(eq(products.code, 'ACE-20L'));
      expect(await card()).toMatchObject({ presentationCount: 1, fromPriceCents: null, familyStock: 40 });
    } finally {
      await t.db.update(products).set({ stock: 0, active: true }).where(eq(products.code, 'ACE-20L'));
      await t.db
        .update(products)
        .set({ priceCents: 129_000, active: true })
        .where(eq(products.code, 'ACE-4L'));
    }
    expect(await card()).toMatchObject({ presentationCount: 3, fromPriceCents: 33_000, familyStock: 43 });
  });

  it('a product without presentations shows its own price, no “desde”', async () => {
    const body = (await t.app.inject({ url: '/api/products?pageSize=60' })).json<ProductsResponse>();
    const single = body.items.find((c) => !c.code.startsWith('ACE-'))!;
    expect(single.presentationCount).toBe(1);
    expect(single.fromPriceCents).toBeNull();
  });

  it('searching a presentation’s code finds its family’s card first', async () => {
    const body = (await t.app.inject({ url: '/api/products?q=ACE-4L' })).json<ProductsResponse>();
    expect(body.items[0]?.code).toBe('ACE-1L');
    expect(body.items.map((c) => c.code)).not.toContain('ACE-4L');
  });
});

describe('volume prices in the cart quote', () => {
  it.each([
    [1, 33_000, { addUnits: 9, unitPriceCents: 31_500 }],
    [9, 33_000, { addUnits: 1, unitPriceCents: 31_500 }],
    [10, 31_500, { addUnits: 40, unitPriceCents: 29_700 }],
    [49, 31_500, { addUnits: 1, unitPriceCents: 29_700 }],
    [50, 29_700, null],
  ])('%i × 1 L → %i c/u, next break %o', async (quantity, unit, next) => {
    await t.db.update(products).set({ stock: 100 }).where(eq(products.code, 'ACE-1L'));
    const q = await quote([{ code: 'ACE-1L', quantity }]);
    const line = q.lines[0]!;
    expect(line.unitPriceCents).toBe(unit);
    expect(line.listPriceCents).toBe(33_000);
    expect(line.lineTotalCents).toBe(unit * quantity);
    expect(line.nextBreak).toEqual(next);
    expect(q.subtotalCents).toBe(unit * quantity);
    await t.db.update(products).set({ stock: 40 }).where(eq(products.code, 'ACE-1L'));
  });

  it('names the presentation on the line; a presentation without breaks keeps its price', async () => {
    const q = await quote([{ code: 'ACE-4L', quantity: 3 }]);
    expect(q.lines[0]).toMatchObject({
      name: 'Acetona grado ACS, 4 L',
      presentationLabel: '4 L',
      unitPriceCents: 129_000,
      nextBreak: null,
      available: true,
    });
    const over = await quote([{ code: 'ACE-4L', quantity: 4 }]);
    expect(over.ok).toBe(false);
    expect(over.lines[0]!.error).toBe('Solo hay 3 disponibles');
  });
});

describe('an order and its CFDI at the volume price', () => {
  it('the order line keeps the unit price applied and the presentation; the CFDI bills exactly that', async () => {
    const shopper = await createShopper(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { cookie: shopper.cookie, 'idempotency-key': 'volumen-0001' },
      payload: {
        items: [
          { code: 'ACE-1L', quantity: 12, unitPriceCents: 1 },
          { code: 'ACE-4L', quantity: 1 },
        ],
        cardToken: await sandboxToken(t, '4111111111111111'),
        deviceSessionId: 'dev-vol',
      },
    });
    expect(res.statusCode).toBe(201);
    const { number } = res.json<{ number: number }>();
    const lines = await t.db
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderNumber, number))
      .orderBy(orderLines.lineNo);
    expect(lines.map((l) => [l.productCode, l.description, l.unitPriceCents, l.quantity])).toEqual([
      ['ACE-1L', 'Acetona grado ACS, 1 L', 31_500, 12],
      ['ACE-4L', 'Acetona grado ACS, 4 L', 129_000, 1],
    ]);
    const order = (
      await t.app.inject({ url: `/api/orders/${number}`, headers: { cookie: shopper.cookie } })
    ).json<{ subtotalCents: number; status: string }>();
    expect(order.status).toBe('paid');
    expect(order.subtotalCents).toBe(12 * 31_500 + 129_000);
    // Stock taken per presentation, each with its ledger row.
    const [one] = await t.db
      .select({ stock: products.stock })
      .from(products)
      .where(eq(products.code, 'ACE-1L'));
    expect(one!.stock).toBe(40 - 12);
    const ledger = await t.db.execute<{ n: number }>(
      sql`select coalesce(sum(delta), 0)::int as n from stock_movements where product_code = 'ACE-1L'`,
    );
    expect(Number(ledger.rows[0]!.n)).toBe(28);

    const invoice = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${number}/invoice`,
      headers: { cookie: shopper.cookie },
      payload: {
        nombreFiscal: 'Laboratorios Químicos del Bajío',
        rfc: 'LQB150101AB3',
        regimenFiscal: '601',
        usoCfdi: 'I08',
        cp: '44100',
      },
    });
    expect(invoice.statusCode).toBe(201);
    const xml = (
      await t.app.inject({ url: `/api/orders/${number}/invoice.xml`, headers: { cookie: shopper.cookie } })
    ).body;
    const concepts = [...xml.matchAll(/<cfdi:Concepto [^>]*>/g)].map((m) => m[0]);
    const first = concepts[0]!;
    expect(first).toContain('NoIdentificacion="ACE-1L"');
    expect(first).toContain('Descripcion="Acetona grado ACS, 1 L"');
    expect(first).toContain('Cantidad="12"');
    // 12 × $315.00 with IVA = $3,780.00, i.e. $3,258.62 before IVA: the line's Importe at the volume price.
    expect(first).toContain('Importe="3258.62"');
    expect(readAttribute(xml, 'cfdi:Comprobante', 'Total')).toBe(
      ((order.subtotalCents + (await shippingOf(number))) / 100).toFixed(2),
    );
  });
});

async function shippingOf(number: number): Promise<number> {
  const { rows } = await t.db.execute<{ s: number }>(
    sql`select shipping_cents::int as s from orders where number = ${number}`,
  );
  return Number(rows[0]!.s);
}
