import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  productWithStock,
} from '../../../tests/server/support/checkout.ts';
import { createStaff } from '../../../tests/server/support/staff.ts';
import { products } from '../db/schema.ts';

/**
 * 'Sobre pedido' (decision 029) beyond checkout: the staff form, quick order, the quotation's conversion and the
 * saved cart's merge accept a flagged quantity above stock; a product that is not flagged keeps its refusals.
 */
let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp();
});
afterAll(() => t.close());

const flag = (code: string, min: number, max: number) =>
  t.db
    .update(products)
    .set({ backorderable: true, leadMinDays: min, leadMaxDays: max })
    .where(eq(products.code, code));

describe('the staff product form', () => {
  it('saves the flag with its lead time; refuses days without the flag, the flag without days, min > max, negative', async () => {
    const staff = await createStaff(t);
    const code = (await productWithStock(t, 2, 0)).code;
    const current = (
      await t.app.inject({ url: `/api/admin/products/${code}`, headers: { cookie: staff.cookie } })
    ).json();
    const base = {
      name: current.name,
      groupClas: current.groupClas,
      price: '100.00',
      weightKg: '1',
    };
    const put = (fields: object) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/products/${code}`,
        headers: { cookie: staff.cookie },
        payload: { ...base, ...fields },
      });
    const refusals: [object, string, string][] = [
      [
        { backorderable: false, leadMinDays: '10', leadMaxDays: '15' },
        'leadMinDays',
        'solo aplica a productos sobre pedido',
      ],
      [
        { backorderable: true, leadMinDays: '', leadMaxDays: '15' },
        'leadMinDays',
        'necesita los días mínimos',
      ],
      [
        { backorderable: true, leadMinDays: '15', leadMaxDays: '10' },
        'leadMinDays',
        'no pueden ser más que los máximos',
      ],
      [{ backorderable: true, leadMinDays: '-2', leadMaxDays: '10' }, 'leadMinDays', 'no puede ser negativo'],
      [
        { backorderable: true, leadMinDays: '2.5', leadMaxDays: '10' },
        'leadMinDays',
        'debe ser un número entero',
      ],
    ];
    for (const [fields, field, text] of refusals) {
      const res = await put(fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(JSON.stringify(res.json().error)).toContain(text);
      expect(JSON.stringify(res.json().error)).toContain(field);
    }
    const [unchanged] = await t.db.select().from(products).where(eq(products.code, code));
    expect(unchanged).toMatchObject({ backorderable: false, leadMinDays: null, leadMaxDays: null });

    const saved = await put({ backorderable: true, leadMinDays: '10', leadMaxDays: '15' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().product).toMatchObject({ backorderable: true, leadMinDays: 10, leadMaxDays: 15 });
    expect((await t.app.inject({ url: `/api/products/${code}` })).json().leadTime).toEqual({
      minDays: 10,
      maxDays: 15,
    });
    const off = await put({ backorderable: false });
    expect(off.json().product).toMatchObject({ backorderable: false, leadMinDays: null, leadMaxDays: null });
  });
});

describe('quick order, quotations and the saved cart', () => {
  it('quick order: a flagged product above stock is ready to add and says the split; an unflagged one keeps «Límite de stock»', async () => {
    const a = await productWithStock(t, 3, 1);
    const b = await productWithStock(t, 3, 2);
    await flag(a.code, 10, 15);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/quick-order/preview',
      payload: { text: `${a.code} 10\n${b.code} 10` },
    });
    const [la, lb] = res.json().lines;
    expect(la).toMatchObject({
      status: 'ok',
      message: 'Listo para agregar: Disponibles ahora: 3 · 7 sobre pedido (entrega en 10–15 días hábiles)',
    });
    expect(lb).toMatchObject({ status: 'above_stock' });
    expect(lb.message).toMatch(/^Límite de stock: hay 3 en existencia/);
  });

  it('a quotation of a flagged product above stock can be converted; an unflagged one is refused', async () => {
    const buyer = await createShopper(t);
    const a = await productWithStock(t, 1, 3);
    await flag(a.code, 5, 8);
    const quote = async (code: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/quotations',
        headers: { cookie: buyer.cookie },
        payload: { items: [{ code, quantity: 6 }] },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().folio as string;
    };
    const convert = (folio: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/quotations/${folio}/convert`,
        headers: { cookie: buyer.cookie },
      });
    expect((await convert(await quote(a.code))).statusCode).toBe(200);
    const b = await productWithStock(t, 1, 4);
    const refused = await convert(await quote(b.code));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('insufficient_stock');
  });

  it('signing in merges a flagged line without capping it at the stock; an unflagged one is capped', async () => {
    const buyer = await createShopper(t);
    const a = await productWithStock(t, 2, 5);
    const b = await productWithStock(t, 2, 6);
    await flag(a.code, 10, 15);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/cart/merge',
      headers: { cookie: buyer.cookie },
      payload: {
        items: [
          { code: a.code, quantity: 9 },
          { code: b.code, quantity: 9 },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items.map((i: { code: string; quantity: number }) => [i.code, i.quantity])).toEqual([
      [a.code, 9],
      [b.code, 2],
    ]);
  });
});
