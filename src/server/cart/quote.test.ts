import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import type { CartQuote } from '../../shared/schemas/cart.ts';
import { products } from '../db/schema.ts';
import { shippingCentsForWeight } from './quote.ts';

let t: TestApp;

// Products with exact weights and prices, so every amount below can be worked out by hand.
const fixtures = [
  { code: 'T-KG1', name: 'Pesa de 1 kg', priceCents: 10_000, stock: 20, weightKg: 1 },
  { code: 'T-KG5', name: 'Pesa de 5 kg', priceCents: 250_050, stock: 3, weightKg: 5 },
  { code: 'T-G10', name: 'Pesa de 10 g', priceCents: 1_999, stock: 50, weightKg: 0.01 },
  { code: 'T-ZERO', name: 'Licencia de software', priceCents: 50_000, stock: 5, weightKg: 0 },
  { code: 'T-ONE', name: 'Último equipo', priceCents: 99_900, stock: 1, weightKg: 2 },
  { code: 'T-OFF', name: 'Producto descontinuado', priceCents: 1_000, stock: 10, weightKg: 1, active: false },
];

beforeAll(async () => {
  t = await createTestApp();
  await t.database.db.insert(products).values(fixtures);
});
afterAll(() => t.close());

async function quote(payload: unknown) {
  const res = await t.app.inject({ method: 'POST', url: '/api/cart/quote', payload: payload as object });
  return {
    status: res.statusCode,
    body: res.json() as CartQuote & { error?: { message: string; fields?: Record<string, string> } },
  };
}

describe('shippingCentsForWeight (default rule: $300 up to 5 kg, $30 per extra kg or part)', () => {
  it.each([
    [0, 30_000],
    [4.999, 30_000],
    [5, 30_000],
    [5.001, 33_000],
    [5.01, 33_000],
    [6, 33_000],
    [6.2, 36_000],
    [12.5, 30_000 + 8 * 3_000],
  ])('%s kg → %s centavos', (kg, cents) => {
    expect(shippingCentsForWeight(kg)).toBe(cents);
  });

  it('follows a different configured rule', () => {
    expect(shippingCentsForWeight(3.5, { baseCents: 10_000, baseKg: 2, extraKgCents: 500 })).toBe(11_000);
  });
});

describe('POST /api/cart/quote', () => {
  it('prices with the database and ignores the prices, names and totals the browser sends', async () => {
    const { status, body } = await quote({
      items: [
        { code: 'T-KG1', quantity: 2, priceCents: 1, price: '0.01', name: 'barato' },
        { code: 'T-G10', quantity: 3, unitPriceCents: 0 },
      ],
      totalCents: 1,
      shippingCents: 0,
    });
    expect(status).toBe(200);
    expect(body.lines.map((l) => [l.code, l.name, l.unitPriceCents, l.lineTotalCents])).toEqual([
      ['T-KG1', 'Pesa de 1 kg', 10_000, 20_000],
      ['T-G10', 'Pesa de 10 g', 1_999, 5_997],
    ]);
    expect(body.subtotalCents).toBe(25_997);
    expect(body.weightKg).toBe(2.03);
    expect(body.shippingCents).toBe(30_000);
    expect(body.totalCents).toBe(55_997);
    // IVA is the part the total includes: 55997 − round(55997 / 1.16) = 55997 − 48273.
    expect(body.ivaCents).toBe(7_724);
    expect(body.ok).toBe(true);
  });

  it('charges the base shipping for a non-empty cart that weighs 0 kg', async () => {
    const { body } = await quote({ items: [{ code: 'T-ZERO', quantity: 2 }] });
    expect(body.weightKg).toBe(0);
    expect(body.shippingCents).toBe(30_000);
    expect(body.totalCents).toBe(130_000);
  });

  it('charges the base shipping at exactly 5 kg and one more kilogram at 5.01 kg', async () => {
    const five = await quote({ items: [{ code: 'T-KG5', quantity: 1 }] });
    expect(five.body.weightKg).toBe(5);
    expect(five.body.shippingCents).toBe(30_000);
    expect(five.body.totalCents).toBe(280_050);

    const more = await quote({
      items: [
        { code: 'T-KG5', quantity: 1 },
        { code: 'T-G10', quantity: 1 },
      ],
    });
    expect(more.body.weightKg).toBe(5.01);
    expect(more.body.shippingCents).toBe(33_000);
    expect(more.body.totalCents).toBe(250_050 + 1_999 + 33_000);
  });

  it('quotes an empty cart as zero, shipping included, and not ready for checkout', async () => {
    const { status, body } = await quote({ items: [] });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      lines: [],
      subtotalCents: 0,
      shippingCents: 0,
      ivaCents: 0,
      totalCents: 0,
      ok: false,
    });
  });

  it('reports unknown and inactive codes per line with a Spanish error, pricing the rest', async () => {
    const { status, body } = await quote({
      items: [
        { code: 'NO-EXISTE', quantity: 1 },
        { code: 'T-KG1', quantity: 1 },
        { code: 'T-OFF', quantity: 1 },
      ],
    });
    expect(status).toBe(200);
    expect(body.lines[0]).toMatchObject({
      code: 'NO-EXISTE',
      name: null,
      available: false,
      lineTotalCents: 0,
      error: 'Producto no encontrado',
    });
    expect(body.lines[2]).toMatchObject({
      code: 'T-OFF',
      name: null,
      unitPriceCents: 0,
      available: false,
      lineTotalCents: 0,
      error: 'Producto no disponible',
    });
    expect(body.lines[1]).toMatchObject({ available: true, error: null });
    expect(body.subtotalCents).toBe(10_000);
    expect(body.ok).toBe(false);
  });

  it('only unknown or inactive codes count as an empty cart: no shipping', async () => {
    const { body } = await quote({
      items: [
        { code: 'NO-EXISTE', quantity: 4 },
        { code: 'T-OFF', quantity: 1 },
      ],
    });
    expect(body.shippingCents).toBe(0);
    expect(body.totalCents).toBe(0);
  });

  it('marks a line beyond stock as unavailable with the current stock', async () => {
    const { body } = await quote({ items: [{ code: 'T-ONE', quantity: 2 }] });
    expect(body.lines[0]).toMatchObject({ stock: 1, available: false, error: 'Solo hay 1 disponible' });
    expect(body.ok).toBe(false);
  });

  it('follows the database when a price changes', async () => {
    await t.database.db.update(products).set({ priceCents: 12_345 }).where(eq(products.code, 'T-ZERO'));
    const { body } = await quote({ items: [{ code: 'T-ZERO', quantity: 1 }] });
    expect(body.lines[0]?.unitPriceCents).toBe(12_345);
    await t.database.db.update(products).set({ priceCents: 50_000 }).where(eq(products.code, 'T-ZERO'));
  });

  describe('bad input → 400 with a Spanish message', () => {
    const line = (quantity: unknown) => ({ items: [{ code: 'T-KG1', quantity }] });
    it.each([
      ['a negative quantity', line(-1), 'La cantidad debe ser mayor que 0'],
      ['a zero quantity', line(0), 'La cantidad debe ser mayor que 0'],
      ['a decimal quantity', line(1.5), 'La cantidad debe ser un número entero'],
      ['a huge quantity', line(1e12), 'La cantidad no puede ser mayor que 9999'],
      ['a quantity as text', line('2'), 'La cantidad debe ser un número entero'],
      ['a missing quantity', { items: [{ code: 'T-KG1' }] }, 'La cantidad debe ser un número entero'],
      ['an empty code', { items: [{ code: '', quantity: 1 }] }, 'El código del producto es obligatorio'],
      [
        'the same code twice',
        {
          items: [
            { code: 'T-KG1', quantity: 1 },
            { code: 'T-KG1', quantity: 2 },
          ],
        },
        'El producto T-KG1 aparece más de una vez',
      ],
      [
        'more than 100 lines',
        { items: Array.from({ length: 101 }, (_, i) => ({ code: `X-${i}`, quantity: 1 })) },
        'El carrito no puede tener más de 100 productos distintos',
      ],
      [
        '500 lines',
        { items: Array.from({ length: 500 }, (_, i) => ({ code: `X-${i}`, quantity: 1 })) },
        'El carrito no puede tener más de 100 productos distintos',
      ],
      ['no items list', {}, 'Los artículos deben ser una lista'],
      ['items that are not a list', { items: 'T-KG1' }, 'Los artículos deben ser una lista'],
      ['a bad postal code', { items: [], postalCode: '4453' }, 'El código postal debe tener 5 dígitos'],
      [
        'a JSON array instead of an object',
        [],
        'La solicitud debe ser un objeto JSON con la lista de artículos',
      ],
    ])('%s', async (_case, payload, message) => {
      const { status, body } = await quote(payload);
      expect(status).toBe(400);
      expect(body.error?.message).toBe(message);
    });

    it('a body that is not JSON', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/cart/quote',
        headers: { 'content-type': 'application/json' },
        payload: '{"items": [',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe('El cuerpo no es JSON válido');
    });
  });
});
