import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestOrder } from '../../../tests/server/support/invoice-orders.ts';
import {
  auditRows,
  type CheckoutTestApp,
  createCheckoutApp,
  createStaff,
  outbox,
  type Shopper,
} from '../../../tests/server/support/staff.ts';
import { daysLeftLabel, daysOfStockLeft } from '../../shared/low-stock.ts';
import { fromMexicoWallClock } from '../../shared/mexico-time.ts';
import { products, users } from '../db/schema.ts';
import { JOBS } from '../jobs.ts';
import { lowStockDigestRound } from './digest.ts';

/**
 * 'Por agotarse' (issue 36, decision 066): the list is ordered by days of stock left at the pace of the last 90
 * days' sales (stock ÷ (sold ÷ 90)), with what ran out first and 'sin ventas' last; staff set a reorder point
 * (validated, audited); the almacén's digest goes once a day per person from 07:00 Mexico City, and not at all when
 * nothing is low.
 */
let t: CheckoutTestApp;
let staff: Shopper;
let codes: string[];
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createCheckoutApp({ env: { REORDER_POINT_DEFAULT: '5' } });
  staff = await createStaff(t);
  codes = (await t.db.select({ code: products.code }).from(products).orderBy(products.code)).map(
    (p) => p.code,
  );
});
afterAll(() => t.close());

/** Every product well stocked, no own reorder point, no sales: nothing is low. */
async function calmShop() {
  await t.db.update(products).set({ stock: 10_000, reorderPoint: null, active: true });
  await t.db.execute(sql`delete from order_lines`);
  await t.db.execute(sql`delete from mail_outbox where kind = 'low-stock-digest'`);
}

const setProduct = (code: string, stock: number, reorderPoint: number | null = null) =>
  t.db.update(products).set({ stock, reorderPoint }).where(eq(products.code, code));

/** A sale of `quantity` units of `code`, paid `daysAgo` days ago (status as given). */
async function sale(code: string, quantity: number, daysAgo: number, status: 'paid' | 'cancelled' = 'paid') {
  await createTestOrder(t.db, staff.id, {
    status,
    paidAt: new Date(Date.now() - daysAgo * DAY),
    lines: [{ code, description: code, unitPriceCents: 1000, quantity }],
  });
}

const list = async () => {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/admin/stock/low',
    headers: { cookie: staff.cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    items: { code: string; stock: number; daysLeft: number | null; reason: string; soldLast90Days: number }[];
    defaultReorderPoint: number;
  };
};

describe('days of stock left', () => {
  it('is stock ÷ (units sold in 90 days ÷ 90), rounded down; 0 when out; null without sales', () => {
    expect(daysOfStockLeft(3, 90)).toBe(3);
    expect(daysOfStockLeft(10, 7)).toBe(128); // 10 ÷ (7/90) = 128.57
    expect(daysOfStockLeft(1, 180)).toBe(0); // half a day left: not a whole day
    expect(daysOfStockLeft(0, 0)).toBe(0);
    expect(daysOfStockLeft(5, 0)).toBeNull();
    expect(daysLeftLabel(null)).toBe('Sin ventas en 90 días');
    expect(daysLeftLabel(0)).toBe('Agotado');
    expect(daysLeftLabel(1)).toBe('1 día');
  });
});

describe("'Por agotarse'", () => {
  beforeEach(calmShop);

  it('lists what is at its reorder point or runs out within two weeks, soonest first and “sin ventas” last', async () => {
    const [a, b, c, d, e, f, g, h] = codes as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    await setProduct(a, 0); // out of stock: first
    await sale(a, 9, 10);
    await setProduct(b, 3); // 3 ÷ (90/90) = 3 days
    await sale(b, 60, 5);
    await sale(b, 30, 80);
    await setProduct(c, 20); // above the default 5, but 20 ÷ (180/90) = 10 days < 14: projected
    await sale(c, 180, 30);
    await setProduct(d, 4); // at the default point, no sales: last
    await setProduct(e, 2, 1); // its own point 1: not low
    await setProduct(f, 8, 10); // its own point 10; 8 ÷ (9/90) = 80 days
    await sale(f, 9, 1);
    await setProduct(g, 30); // sold 900, but 100 days ago: outside the window, and above the point
    await sale(g, 900, 100);
    await setProduct(h, 30); // a cancelled order sold nothing
    await sale(h, 900, 3, 'cancelled');

    const { items, defaultReorderPoint } = await list();
    expect(defaultReorderPoint).toBe(5);
    expect(items.map((i) => [i.code, i.daysLeft, i.reason])).toEqual([
      [a, 0, 'reorder_point'],
      [b, 3, 'reorder_point'],
      [c, 10, 'projected'],
      [f, 80, 'reorder_point'],
      [d, null, 'reorder_point'],
    ]);
    expect(items.find((i) => i.code === b)?.soldLast90Days).toBe(90);
  });

  it('staff set a reorder point: validated, audited, and the list follows it', async () => {
    const code = codes[0]!;
    await setProduct(code, 7);
    expect((await list()).items.map((i) => i.code)).not.toContain(code);
    const put = (payload: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/products/${encodeURIComponent(code)}/reorder-point`,
        headers: { cookie: staff.cookie },
        payload: payload as Record<string, unknown>,
      });
    for (const bad of [{ reorderPoint: -1 }, { reorderPoint: 2.5 }, { reorderPoint: 'diez' }, {}]) {
      const res = await put(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().error.message).toMatch(/punto de reorden/i);
    }
    const missing = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/products/NO-EXISTE/reorder-point',
      headers: { cookie: staff.cookie },
      payload: { reorderPoint: 3 },
    });
    expect(missing.statusCode).toBe(404);
    const ok = await put({ reorderPoint: 10 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe(`Punto de reorden de ${code}: 10 pzas.`);
    expect((await list()).items.map((i) => i.code)).toContain(code);
    expect((await put({ reorderPoint: null })).json().message).toMatch(/predeterminado \(5 pzas\.\)/);
    const audit = await auditRows(t, 'product', code);
    expect(audit.filter((r) => r.action === 'stock.reorder_point').map((r) => [r.before, r.after])).toEqual([
      [{ reorderPoint: null }, { reorderPoint: 10 }],
      [{ reorderPoint: 10 }, { reorderPoint: null }],
    ]);
  });
});

describe('the daily digest to almacén', () => {
  const at = (wallClock: string) => fromMexicoWallClock(wallClock);
  const options = () => ({ publicUrl: 'http://tienda.test', defaultReorderPoint: 5 });
  let almacen: string;
  let disabled: string;

  beforeAll(async () => {
    const make = async (email: string, staffRole: string, staffDisabledAt: Date | null = null) => {
      await t.db.insert(users).values({
        email,
        passwordHash: 'x',
        nombre: 'Almacén',
        apellidoPat: 'Prueba',
        telefono: '3311112222',
        role: 'staff',
        staffRole,
        staffDisabledAt,
      });
      return email;
    };
    almacen = await make('almacen.digest@ciencia-occidente.mx', 'almacen');
    disabled = await make('almacen.baja@ciencia-occidente.mx', 'almacen', new Date());
    await make('ventas.digest@ciencia-occidente.mx', 'ventas');
  });
  beforeEach(calmShop);

  it('nothing low: no mail', async () => {
    expect(await lowStockDigestRound(t.db, options(), at('2026-11-27T08:00'))).toBe('empty');
    expect(await outbox(t, 'low-stock-digest')).toEqual([]);
  });

  it('one mail a day to the active almacén accounts, from 07:00 Mexico City, however many rounds run', async () => {
    const code = codes[2]!;
    await setProduct(code, 0);
    expect(await lowStockDigestRound(t.db, options(), at('2026-11-27T06:59'))).toBe('early');
    expect(await outbox(t, 'low-stock-digest')).toEqual([]);
    // Two processes' rounds at once, then a later round the same day: one mail.
    const rounds = await Promise.all([
      lowStockDigestRound(t.db, options(), at('2026-11-27T07:00')),
      lowStockDigestRound(t.db, options(), at('2026-11-27T07:00')),
    ]);
    expect(rounds.sort()).toEqual([0, 1]);
    expect(await lowStockDigestRound(t.db, options(), at('2026-11-27T15:00'))).toBe(0);
    const mails = await outbox(t, 'low-stock-digest');
    expect(mails.map((m) => m.to)).toEqual([almacen]);
    expect(mails.map((m) => m.to)).not.toContain(disabled);
    expect(mails[0]!.subject).toMatch(/^Por agotarse \(2026-11-27\): una presentación/);
    expect(mails[0]!.text).toContain(code);
    expect(mails[0]!.text).toContain('Agotado');
    expect(mails[0]!.text).toContain('http://tienda.test/admin/por-agotarse');
    // The next day, another.
    expect(await lowStockDigestRound(t.db, options(), at('2026-11-28T07:30'))).toBe(1);
    expect((await outbox(t, 'low-stock-digest')).length).toBe(2);
  });

  it('runs as the registry job “por-agotarse”', async () => {
    expect(t.app.jobs.names()).toContain(JOBS.lowStockDigest);
    expect(await t.app.jobs.runOnce(JOBS.lowStockDigest)).toBe('done');
  });
});
