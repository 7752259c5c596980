import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  placeOrderRequest,
  productWithStock,
  type Shopper,
  sandboxToken,
  stockOf,
} from '../../../tests/server/support/checkout.ts';
import { createStaff } from '../../../tests/server/support/staff.ts';
import { DECLARATION_TEXT, DECLARATION_VERSION } from '../../shared/controlled.ts';
import type { AdminOrderDetail } from '../../shared/schemas/admin.ts';
import { importCatalogue } from '../admin/import/importer.ts';
import { CLI_ACTOR } from '../audit/log.ts';
import { catalogueVersion } from '../catalog/selection-cache.ts';
import { auditLog, controlledDeclarations, fiscalProfiles, orders, products } from '../db/schema.ts';

/**
 * Controlled chemicals (decision 030): the checkout rule (RFC on file + end-use declaration, kept with the order),
 * the same rule for a quotation's conversion, the staff export by Mexico City period, the admin and import flag.
 * Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
let t: CheckoutTestApp;
let staff: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp();
  staff = await createStaff(t);
});
afterAll(() => t.close());

const USE = 'Determinación de acidez en muestras de agua residual, laboratorio de control de calidad';
const declaration = { declaredUse: USE, accepted: true, textVersion: DECLARATION_VERSION };

async function withRfc(who: Shopper, rfc = 'LQB150101AB3', nombreFiscal = 'Laboratorios Químicos del Bajío') {
  await t.db.insert(fiscalProfiles).values({
    userId: who.id,
    rfc,
    nombreFiscal,
    regimenFiscal: '601',
    cp: '44100',
    usoCfdi: 'G03',
    isDefault: true,
  });
}

/** A product of the demo catalogue with stock, flagged controlled. */
async function controlledProduct(stock: number, index: number) {
  const p = await productWithStock(t, stock, index);
  await t.db.update(products).set({ controlled: true }).where(eq(products.code, p.code));
  return p;
}

const buy = async (who: Shopper, items: { code: string; quantity: number }[], extra: object = {}) =>
  placeOrderRequest(t, who, {
    items,
    cardToken: await sandboxToken(t, '4111111111111111'),
    deviceSessionId: 'controlled-tests',
    ...extra,
  });

const declarationsOf = (userId: number) =>
  t.db.select().from(controlledDeclarations).where(eq(controlledDeclarations.userId, userId));
const ordersOf = async (userId: number) =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(eq(orders.userId, userId)))[0]!.n;

describe('checkout with controlled chemicals', () => {
  it('refuses a buyer without an RFC on file, reserving nothing', async () => {
    const buyer = await createShopper(t);
    const acid = await controlledProduct(10, 0);
    const res = await buy(buyer, [{ code: acid.code, quantity: 2 }], { controlledDeclaration: declaration });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: { code: 'rfc_required' } });
    expect(res.json().error.message).toContain('registre su RFC en «Mis datos fiscales»');
    expect(res.json().error.message).toContain(acid.name);
    expect(await stockOf(t, acid.code)).toEqual({ stock: 10, ledger: 10 });
    expect(await ordersOf(buyer.id)).toBe(0);
  });

  it('refuses an order without the declaration, and a declared use too short to mean anything', async () => {
    const buyer = await createShopper(t);
    await withRfc(buyer);
    const acid = await controlledProduct(10, 1);
    const res = await buy(buyer, [{ code: acid.code, quantity: 1 }]);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: { code: 'declaration_required' } });
    expect(res.json().error.message).toContain('uso final declarado');

    for (const declaredUse of [
      'laboratorio',
      'aaaa aaaa aaaa aaaa aaaa aaaa aaaa aaaa',
      'uso de laboratorio general',
    ]) {
      const short = await buy(buyer, [{ code: acid.code, quantity: 1 }], {
        controlledDeclaration: { ...declaration, declaredUse },
      });
      expect(short.statusCode, declaredUse).toBe(400);
      expect(short.json().error.message).toContain('Uso final declarado');
    }
    const unchecked = await buy(buyer, [{ code: acid.code, quantity: 1 }], {
      controlledDeclaration: { ...declaration, accepted: false },
    });
    expect(unchecked.statusCode).toBe(400);
    expect(unchecked.json().error.message).toContain('Declaro bajo protesta de decir verdad');
    const outdated = await buy(buyer, [{ code: acid.code, quantity: 1 }], {
      controlledDeclaration: { ...declaration, textVersion: '2020-01-01' },
    });
    expect(outdated.statusCode).toBe(409);
    expect(outdated.json()).toMatchObject({ error: { code: 'declaration_outdated' } });
    expect(await stockOf(t, acid.code)).toEqual({ stock: 10, ledger: 10 });
    expect(await ordersOf(buyer.id)).toBe(0);
  });

  it('with the RFC and the declaration: the order, and the declaration kept with it (RFC snapshot, text accepted)', async () => {
    const buyer = await createShopper(t);
    await withRfc(buyer);
    const acid = await controlledProduct(10, 2);
    const plain = await productWithStock(t, 10, 3);
    const res = await buy(
      buyer,
      [
        { code: acid.code, quantity: 3 },
        { code: plain.code, quantity: 1 },
      ],
      { controlledDeclaration: { ...declaration, declaredUse: `  ${USE}\n(turno matutino)  ` } },
    );
    expect(res.statusCode, res.body).toBe(201);
    const { number } = res.json<{ number: number }>();
    // The profile edited later does not change what was declared.
    await t.db.update(fiscalProfiles).set({ rfc: 'XXX010101XX1' }).where(eq(fiscalProfiles.userId, buyer.id));
    const [kept] = await declarationsOf(buyer.id);
    expect(kept).toMatchObject({
      orderNumber: number,
      rfc: 'LQB150101AB3',
      razonSocial: 'Laboratorios Químicos del Bajío',
      declaredUse: `${USE} (turno matutino)`,
      textVersion: DECLARATION_VERSION,
      acceptedText: DECLARATION_TEXT,
      products: [{ code: acid.code, name: acid.name, quantity: 3 }],
    });
    expect(await stockOf(t, acid.code)).toEqual({ stock: 7, ledger: 7 });

    // Staff see it on the order screen.
    const detail = await t.app.inject({
      url: `/api/admin/orders/${number}`,
      headers: { cookie: staff.cookie },
    });
    expect(detail.json<AdminOrderDetail>().controlledDeclaration).toMatchObject({
      rfc: 'LQB150101AB3',
      declaredUse: `${USE} (turno matutino)`,
      products: [{ code: acid.code, quantity: 3 }],
    });
  });

  it('takes the RFC of the profile chosen for «Facturar esta compra» over the default one', async () => {
    const buyer = await createShopper(t);
    await withRfc(buyer);
    const [other] = await t.db
      .insert(fiscalProfiles)
      .values({
        userId: buyer.id,
        rfc: 'GODE561231GR8',
        nombreFiscal: 'Eduardo Gómez Díaz',
        regimenFiscal: '612',
        cp: '44100',
        usoCfdi: 'G03',
      })
      .returning({ id: fiscalProfiles.id });
    const acid = await controlledProduct(5, 4);
    const res = await buy(buyer, [{ code: acid.code, quantity: 1 }], {
      controlledDeclaration: declaration,
      invoiceProfileId: other!.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const [kept] = await declarationsOf(buyer.id);
    expect(kept).toMatchObject({ rfc: 'GODE561231GR8', razonSocial: 'Eduardo Gómez Díaz' });
  });

  it('leaves a cart without controlled products as it was: no RFC, no declaration, nothing kept', async () => {
    const buyer = await createShopper(t);
    const plain = await productWithStock(t, 5, 5);
    const res = await buy(buyer, [{ code: plain.code, quantity: 1 }]);
    expect(res.statusCode, res.body).toBe(201);
    expect(await declarationsOf(buyer.id)).toEqual([]);
  });

  it('tells the cart which lines are controlled', async () => {
    const acid = await controlledProduct(5, 6);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/cart/quote',
      payload: { items: [{ code: acid.code, quantity: 1 }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().lines[0]).toMatchObject({ code: acid.code, controlled: true });
  });
});

describe('quotation conversion with controlled chemicals', () => {
  it('is refused without the declaration (the quotation stays vigente) and accepted with it', async () => {
    const buyer = await createShopper(t);
    await withRfc(buyer);
    const acid = await controlledProduct(20, 7);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/quotations',
      headers: { cookie: buyer.cookie },
      payload: { items: [{ code: acid.code, quantity: 4 }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { folio } = created.json<{ folio: string }>();
    const convert = async (extra: object) => {
      const prepared = await t.app.inject({
        method: 'POST',
        url: `/api/quotations/${folio}/convert`,
        headers: { cookie: buyer.cookie },
      });
      expect(prepared.statusCode, prepared.body).toBe(200);
      return buy(buyer, prepared.json<{ items: { code: string; quantity: number }[] }>().items, {
        quotation: folio,
        ...extra,
      });
    };
    const refused = await convert({});
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: { code: 'declaration_required' } });
    expect(await stockOf(t, acid.code)).toEqual({ stock: 20, ledger: 20 });
    const state = await t.app.inject({ url: `/api/quotations/${folio}`, headers: { cookie: buyer.cookie } });
    expect(state.json()).toMatchObject({ state: 'vigente' });

    const ok = await convert({ controlledDeclaration: declaration });
    expect(ok.statusCode, ok.body).toBe(201);
    const [kept] = await declarationsOf(buyer.id);
    expect(kept).toMatchObject({
      orderNumber: ok.json().number,
      products: [{ code: acid.code, quantity: 4 }],
    });
  });
});

describe('controlled sales export', () => {
  const exportOf = (who: Shopper, query: string) =>
    t.app.inject({ url: `/api/admin/controlled-sales.csv?${query}`, headers: { cookie: who.cookie } });

  it('lists the period’s controlled sales in Mexico City days, as CSV with a BOM, and audits the download', async () => {
    const buyer = await createShopper(t);
    await withRfc(buyer, 'UGU250908EF9', 'Universidad de Guadalajara');
    const acid = await controlledProduct(20, 8);
    const res = await buy(buyer, [{ code: acid.code, quantity: 2 }], {
      controlledDeclaration: { ...declaration, declaredUse: `=HYPERLINK("x") ${USE}` },
    });
    expect(res.statusCode, res.body).toBe(201);
    const number = res.json<{ number: number }>().number;
    // 23:30 of 31 March in Mexico City is 05:30 UTC of 1 April: it belongs to March.
    await t.db
      .update(controlledDeclarations)
      .set({ acceptedAt: new Date('2026-04-01T05:30:00Z') })
      .where(eq(controlledDeclarations.orderNumber, number));

    const march = await exportOf(staff, 'from=2026-03-01&to=2026-03-31');
    expect(march.statusCode, march.body).toBe(200);
    expect(march.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(march.headers['content-disposition']).toBe(
      'attachment; filename="ventas-controladas_2026-03-01_2026-03-31.csv"',
    );
    const bytes = march.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe(
      'Fecha,Pedido,Estado,Código,Producto,Cantidad,Comprador,Correo,RFC,Razón social,Uso final declarado',
    );
    const mine = lines.filter((l) => l.includes(`,${number},`));
    expect(mine).toEqual([
      `2026-03-31 23:30,${number},Pagado,${acid.code},${acid.name.includes(',') ? `"${acid.name}"` : acid.name},2,María López Ruiz,${buyer.email},UGU250908EF9,Universidad de Guadalajara,"'=HYPERLINK(""x"") ${USE}"`,
    ]);
    const april = await exportOf(staff, 'from=2026-04-01&to=2026-04-30');
    expect(april.rawPayload.toString('utf8')).not.toContain(`,${number},`);

    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'controlled.export'))
      .orderBy(sql`${auditLog.id} desc`)
      .limit(1);
    expect(audit).toMatchObject({
      actorLabel: staff.email,
      entityId: 'ventas-controladas 2026-04-01..2026-04-30',
    });
  });

  it('refuses a bad period naming the field, and anyone who is not staff', async () => {
    const reversed = await exportOf(staff, 'from=2026-05-01&to=2026-04-01');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().error.message).toBe('La fecha inicial es posterior a la final');
    const long = await exportOf(staff, 'from=2025-01-01&to=2026-03-01');
    expect(long.statusCode).toBe(400);
    expect(long.json().error.message).toContain('hasta 366 días');
    const bad = await exportOf(staff, 'from=2026-02-30&to=2026-03-01');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('Fecha inicial inválida');

    const buyer = await createShopper(t);
    expect((await exportOf(buyer, 'from=2026-03-01&to=2026-03-31')).statusCode).toBe(403);
    const visitor = await t.app.inject({
      url: '/api/admin/controlled-sales.csv?from=2026-03-01&to=2026-03-31',
    });
    expect(visitor.statusCode).toBe(401);
    const list = await t.app.inject({
      url: '/api/admin/controlled-sales?from=2026-03-01&to=2026-03-31',
      headers: { cookie: buyer.cookie },
    });
    expect(list.statusCode).toBe(403);
  });
});

describe('the flag in the back office and the import', () => {
  const flagOf = async (code: string) =>
    (await t.db.select({ c: products.controlled }).from(products).where(eq(products.code, code)))[0]?.c;
  const run = (csv: string, dryRun = false) =>
    importCatalogue(t.db, new TextEncoder().encode(csv), {
      filename: 'controlados.csv',
      dryRun,
      actor: CLI_ACTOR,
      batchSize: 2,
    });

  it('changing the flag changes the catalogue version (the product page shows it; migration 0023’s trigger)', async () => {
    const p = await productWithStock(t, 1, 9);
    const before = await catalogueVersion(t.db);
    await t.db.update(products).set({ controlled: true }).where(eq(products.code, p.code));
    expect(await catalogueVersion(t.db)).not.toBe(before);
  });

  it('imports the flag per family: a base sets it, its presentations follow, a contradicting row is refused', async () => {
    const header = 'code,name,group,price,stock,family,presentation,controlled';
    const csv = [
      header,
      'TOL-1L,Tolueno grado ACS,REA-SOL,480.00,10,,1 L,sí',
      'TOL-4L,Tolueno grado ACS,REA-SOL,1700.00,4,TOL-1L,4 L,',
      'TOL-20L,Tolueno grado ACS,REA-SOL,7900.00,0,TOL-1L,20 L,no',
      'TOL-X,Tolueno grado técnico,REA-SOL,300.00,1,,1 L,quizá',
    ].join('\n');
    const dry = await run(csv, true);
    expect(dry.created).toBe(2);
    expect(await flagOf('TOL-1L')).toBeUndefined();
    const report = await run(csv);
    const reasons = Object.fromEntries(report.rejected.map((r) => [r.code, r.reasons.join(' | ')]));
    expect(reasons['TOL-20L']).toBe(
      'Columna controlled: «TOL-20L» es una presentación de «TOL-1L», que es producto controlado; el control se define en la fila del producto base',
    );
    expect(reasons['TOL-X']).toBe('Columna controlled: valor inválido «quizá» (sí o no)');
    expect(report.rejected.map((r) => r.line)).toEqual([4, 5]);
    expect(await flagOf('TOL-1L')).toBe(true);
    expect(await flagOf('TOL-4L')).toBe(true);
    expect(await flagOf('TOL-20L')).toBeUndefined();

    // Un-flagging the base clears its stored presentations too.
    const off = await run([header, 'TOL-1L,,,,,,,no'].join('\n'));
    expect(off.rejected).toEqual([]);
    expect(await flagOf('TOL-4L')).toBe(false);
  });

  it('the product editor sets it on a base, its presentations follow, and refuses it on a presentation', async () => {
    await run(
      [
        'code,name,group,price,stock,family,presentation',
        'ETE-1L,Éter etílico anhidro,REA-SOL,900.00,3,,1 L',
        'ETE-4L,Éter etílico anhidro,REA-SOL,3200.00,3,ETE-1L,4 L',
      ].join('\n'),
    );
    const edit = (code: string, extra: object) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/products/${code}`,
        headers: { cookie: staff.cookie },
        payload: {
          name: 'Éter etílico anhidro',
          groupClas: 'REA-SOL',
          price: '900.00',
          weightKg: '1',
          ...extra,
        },
      });
    const base = await edit('ETE-1L', { presentationLabel: '1 L', controlled: true });
    expect(base.statusCode, base.body).toBe(200);
    expect(base.json().product.controlled).toBe(true);
    expect(await flagOf('ETE-4L')).toBe(true);
    const wrong = await edit('ETE-4L', { familyCode: 'ETE-1L', presentationLabel: '4 L', controlled: false });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.controlled).toBe(
      'Se define en el producto base ETE-1L, que es controlado; cámbielo allí',
    );
    const product = await t.app.inject({ url: '/api/products/ETE-4L' });
    expect(product.json()).toMatchObject({ controlled: true });
  });
});
