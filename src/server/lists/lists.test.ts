import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  productWithStock,
  type Shopper,
} from '../../../tests/server/support/checkout.ts';
import type { ListDetail, ListSummary, SharedList } from '../../shared/schemas/lists.ts';
import { MAX_LIST_LINES, MAX_LISTS } from '../../shared/schemas/lists.ts';
import { products } from '../db/schema.ts';

/**
 * 'Mis listas' (issue 18, decision 031): named lists of product codes and quantities, the owner's only; a
 * read-only link anyone with it can open until it is revoked.
 */
let t: CheckoutTestApp;
beforeAll(async () => {
  t = await createCheckoutApp();
}, 120_000);
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (who: Shopper | null, method: Method, url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: who ? { cookie: who.cookie } : {},
    ...(payload ? { payload } : {}),
  });
const create = async (who: Shopper, name: string, lines: { code: string; quantity: number }[] = []) => {
  const res = await call(who, 'POST', '/api/lists', { name, lines });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ListDetail>();
};

describe('Mis listas', () => {
  it('creates a list, adds products (summing a repeated one), edits a quantity, removes a line, renames, deletes', async () => {
    const buyer = await createShopper(t);
    const a = await productWithStock(t, 10, 0);
    const b = await productWithStock(t, 2, 1);
    const list = await create(buyer, '  Consumibles mensuales ');
    expect(list).toMatchObject({ name: 'Consumibles mensuales', lines: [], sharePath: null });

    await call(buyer, 'POST', `/api/lists/${list.id}/lines`, { code: a.code, quantity: 3 });
    await call(buyer, 'POST', `/api/lists/${list.id}/lines`, { code: b.code, quantity: 5 });
    const again = await call(buyer, 'POST', `/api/lists/${list.id}/lines`, { code: a.code, quantity: 2 });
    const withLines = again.json<ListDetail>();
    expect(withLines.lines.map((l) => [l.code, l.quantity, l.note])).toEqual([
      [a.code, 5, null],
      // More than there is: kept as saved, said.
      [b.code, 5, 'Solo hay 2 disponibles'],
    ]);
    expect(withLines.lines[0]!.product).toMatchObject({ priceCents: a.priceCents, stock: 10 });

    const edited = await call(buyer, 'PUT', `/api/lists/${list.id}/lines/${encodeURIComponent(b.code)}`, {
      quantity: 1,
    });
    expect(edited.json<ListDetail>().lines[1]).toMatchObject({ code: b.code, quantity: 1, note: null });
    const removed = await call(buyer, 'DELETE', `/api/lists/${list.id}/lines/${encodeURIComponent(a.code)}`);
    expect(removed.json<ListDetail>().lines.map((l) => l.code)).toEqual([b.code]);

    const renamed = await call(buyer, 'PATCH', `/api/lists/${list.id}`, { name: 'Práctica de orgánica' });
    expect(renamed.json<ListDetail>().name).toBe('Práctica de orgánica');
    const summaries = (await call(buyer, 'GET', '/api/lists')).json<{ lists: ListSummary[] }>().lists;
    expect(summaries).toEqual([
      expect.objectContaining({ id: list.id, name: 'Práctica de orgánica', lineCount: 1, shared: false }),
    ]);

    expect((await call(buyer, 'DELETE', `/api/lists/${list.id}`)).statusCode).toBe(204);
    expect((await call(buyer, 'GET', `/api/lists/${list.id}`)).statusCode).toBe(404);
    const rows = await t.db.execute(
      sql`select count(*)::int as n from saved_list_lines where list_id = ${list.id}`,
    );
    expect(rows.rows[0]).toEqual({ n: 0 });
  });

  it("calls a 'sobre pedido' line 'Sobre pedido' with its lead time, never 'Sin existencia'", async () => {
    const buyer = await createShopper(t);
    const none = await productWithStock(t, 0, 8);
    const few = await productWithStock(t, 2, 9);
    for (const p of [none, few])
      await t.db
        .update(products)
        .set({ backorderable: true, leadMinDays: 10, leadMaxDays: 15 })
        .where(eq(products.code, p.code));
    const list = await create(buyer, 'Reactivos sobre pedido', [
      { code: none.code, quantity: 3 },
      { code: few.code, quantity: 5 },
    ]);
    expect(list.lines.map((l) => l.note)).toEqual([
      'Sobre pedido · Entrega en 10–15 días hábiles',
      'Disponibles ahora: 2 · 3 sobre pedido (entrega en 10–15 días hábiles)',
    ]);
  });

  it("answers 404 for another account's list, for reading and for every change, and changes nothing", async () => {
    const owner = await createShopper(t);
    const other = await createShopper(t);
    const p = await productWithStock(t, 5, 2);
    const list = await create(owner, 'Reactivos', [{ code: p.code, quantity: 2 }]);
    const attempts: [Method, string, object?][] = [
      ['GET', `/api/lists/${list.id}`],
      ['PATCH', `/api/lists/${list.id}`, { name: 'Mía' }],
      ['POST', `/api/lists/${list.id}/lines`, { code: p.code, quantity: 1 }],
      ['PUT', `/api/lists/${list.id}/lines/${encodeURIComponent(p.code)}`, { quantity: 9 }],
      ['DELETE', `/api/lists/${list.id}/lines/${encodeURIComponent(p.code)}`],
      ['POST', `/api/lists/${list.id}/share`],
      ['DELETE', `/api/lists/${list.id}`],
    ];
    for (const [method, url, body] of attempts) {
      const res = await call(other, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error).toMatchObject({ message: 'Lista no encontrada' });
    }
    expect((await call(other, 'GET', '/api/lists')).json()).toEqual({ lists: [] });
    const mine = (await call(owner, 'GET', `/api/lists/${list.id}`)).json<ListDetail>();
    expect(mine).toMatchObject({
      name: 'Reactivos',
      sharePath: null,
      lines: [{ code: p.code, quantity: 2 }],
    });
    expect((await call(null, 'GET', '/api/lists')).statusCode).toBe(401);
  });

  it('shares a read-only link anyone can open without signing in, and revoking it makes it 404', async () => {
    const owner = await createShopper(t);
    const p = await productWithStock(t, 5, 3);
    const list = await create(owner, 'Para el laboratorio', [{ code: p.code, quantity: 4 }]);
    const shared = (await call(owner, 'POST', `/api/lists/${list.id}/share`)).json<ListDetail>();
    expect(shared.sharePath).toMatch(/^\/listas\/compartida\/[A-Za-z0-9_-]{24}$/);
    // Sharing twice keeps the same link.
    expect((await call(owner, 'POST', `/api/lists/${list.id}/share`)).json<ListDetail>().sharePath).toBe(
      shared.sharePath,
    );
    const token = shared.sharePath!.split('/').pop()!;

    const seen = await call(null, 'GET', `/api/lists/shared/${token}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.headers['cache-control']).toBe('no-store');
    const body = seen.json<SharedList & { id?: number; sharePath?: string }>();
    expect(body).toMatchObject({ name: 'Para el laboratorio', lines: [{ code: p.code, quantity: 4 }] });
    // Nothing about the owner or the list's id travels through the link.
    expect(body.id).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain(owner.email);

    // Read-only: the link gives no way to change the list (the write routes need its owner's session).
    const colleague = await createShopper(t);
    expect((await call(colleague, 'PATCH', `/api/lists/${list.id}`, { name: 'x' })).statusCode).toBe(404);
    expect(
      (await call(null, 'POST', `/api/lists/${list.id}/lines`, { code: p.code, quantity: 1 })).statusCode,
    ).toBe(401);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const)
      expect([404, 405]).toContain(
        (await call(colleague, method, `/api/lists/shared/${token}`, {})).statusCode,
      );

    const revoked = (await call(owner, 'DELETE', `/api/lists/${list.id}/share`)).json<ListDetail>();
    expect(revoked.sharePath).toBeNull();
    expect((await call(null, 'GET', `/api/lists/shared/${token}`)).statusCode).toBe(404);
    // Sharing again makes a new link; the old one stays dead.
    const renewed = (await call(owner, 'POST', `/api/lists/${list.id}/share`)).json<ListDetail>();
    expect(renewed.sharePath).not.toBe(shared.sharePath);
    expect((await call(null, 'GET', `/api/lists/shared/${token}`)).statusCode).toBe(404);
    expect((await call(null, 'GET', `/api/lists/shared/${'A'.repeat(24)}`)).statusCode).toBe(404);
  });

  it('shows a product deactivated or deleted since as no longer sold, and the list still opens', async () => {
    const owner = await createShopper(t);
    const p = await productWithStock(t, 5, 4);
    const q = await productWithStock(t, 5, 5);
    const list = await create(owner, 'Con bajas', [
      { code: p.code, quantity: 1 },
      { code: q.code, quantity: 1 },
    ]);
    await t.db.update(products).set({ active: false }).where(eq(products.code, p.code));
    // A deleted product: the line's code no longer exists in the catalogue.
    await t.db.execute(
      sql`update saved_list_lines set code = 'BORRADO-1' where list_id = ${list.id} and code = ${q.code}`,
    );
    const res = await call(owner, 'GET', `/api/lists/${list.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json<ListDetail>().lines).toEqual([
      { code: p.code, quantity: 1, product: null, note: 'Ya no está a la venta' },
      { code: 'BORRADO-1', quantity: 1, product: null, note: 'Ya no está a la venta' },
    ]);
    // An inactive product cannot be added; an unknown code neither.
    const inactive = await call(owner, 'POST', `/api/lists/${list.id}/lines`, { code: p.code, quantity: 1 });
    expect(inactive.statusCode).toBe(409);
    expect(inactive.json().error).toMatchObject({ message: 'Este producto ya no está a la venta' });
    expect(
      (await call(owner, 'POST', `/api/lists/${list.id}/lines`, { code: 'NO-EXISTE', quantity: 1 }))
        .statusCode,
    ).toBe(404);
    await t.db.update(products).set({ active: true }).where(eq(products.code, p.code));
  });

  it('refuses bad input with a Spanish message naming the field, and keeps the caps', async () => {
    const owner = await createShopper(t);
    const p = await productWithStock(t, 5, 6);
    const bad = async (payload: object) => {
      const res = await call(owner, 'POST', '/api/lists', payload);
      expect(res.statusCode).toBe(400);
      return res.json<{ error: { message: string; fields?: Record<string, string> } }>().error;
    };
    expect((await bad({ name: '   ' })).fields).toMatchObject({ name: 'Escriba el nombre de la lista' });
    expect((await bad({ name: 'x'.repeat(81) })).fields?.name).toContain('hasta 80 caracteres');
    const zero = await bad({ name: 'L', lines: [{ code: p.code, quantity: 0 }] });
    expect(zero, JSON.stringify(zero)).toMatchObject({ message: 'La cantidad debe ser mayor que 0' });
    expect((await bad({ name: 'L', lines: [{ code: 'NO-EXISTE', quantity: 1 }] })).fields).toEqual({
      'lines.0.code': 'Producto no encontrado: NO-EXISTE',
    });
    const tooLong = await bad({
      name: 'L',
      lines: Array.from({ length: MAX_LIST_LINES + 1 }, (_, i) => ({ code: `C-${i}`, quantity: 1 })),
    });
    expect(tooLong.fields?.lines).toBe(
      'Una lista admite hasta 100 productos distintos (los que caben en un carrito)',
    );

    await create(owner, 'Reactivos');
    const twin = await call(owner, 'POST', '/api/lists', { name: 'REACTIVOS' });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().error).toMatchObject({
      message: 'Ya tiene una lista llamada «REACTIVOS»; elija otro nombre',
    });

    for (let i = 1; i < MAX_LISTS; i += 1) await create(owner, `Lista ${i}`);
    const over = await call(owner, 'POST', '/api/lists', { name: 'Una más' });
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toMatchObject({
      message: 'Puede guardar hasta 20 listas; elimine una que ya no use antes de crear otra',
    });
    const { rows } = await t.db.execute(
      sql`select count(*)::int as n from saved_lists where user_id = ${owner.id}`,
    );
    expect(rows[0]).toEqual({ n: MAX_LISTS });
  });

  it('refuses a 101st product in a list', async () => {
    const owner = await createShopper(t);
    const p = await productWithStock(t, 5, 7);
    const list = await create(owner, 'Llena');
    await t.db.execute(
      sql`insert into saved_list_lines (list_id, code, quantity, position) select ${list.id}, 'X-' || g, 1, g from generate_series(1, ${MAX_LIST_LINES}) g`,
    );
    const res = await call(owner, 'POST', `/api/lists/${list.id}/lines`, { code: p.code, quantity: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      message: 'Una lista admite hasta 100 productos distintos (los que caben en un carrito)',
    });
  });
});
